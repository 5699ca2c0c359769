"""--serve's doors: a foreign page, a rebinding name, no token, a wrong token and a tab
beyond the cap are each refused before any viewer process starts; a closed socket ends
its viewer; the page's addresses follow the browser's, not the listening address."""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from streamview.fronts.serve import served_arguments, settings_cap
from streamview.fronts.serve_guard import Gate
from tests.replay.served import DEADLINE, RECORDING, REPO, Served, first_screen, serving, wait_until

pytest.importorskip("textual_serve")


async def handshake_status(served: Served, url: str, **headers: str) -> int:
    """The HTTP status the websocket handshake got (101: it was accepted)."""
    async with aiohttp.ClientSession() as session:
        try:
            async with session.ws_connect(url, headers=headers):
                return 101
        except aiohttp.WSServerHandshakeError as error:
            return error.status


async def page(url: str, **headers: str) -> tuple[int, str]:
    """The status and text of a GET."""
    async with aiohttp.ClientSession() as session, session.get(url, headers=headers) as got:
        return got.status, await got.text()


async def test_a_page_on_another_site_gets_no_viewer() -> None:
    """The attack of issue 26.1: any page a person visits opening ws://localhost:8000/ws."""
    with serving() as served:
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{served.port + 1}"):
            status = await handshake_status(served, served.url("/ws"), Origin=origin)
            assert status == 403, origin
            status, text = await page(served.url(), Origin=origin)
            assert status == 403 and "another site's page" in text
        assert served.viewers() == []
        own = f"http://127.0.0.1:{served.port}"
        status, _ = await page(served.url(), Origin=own)
        assert status == 200


async def test_a_rebinding_name_is_refused() -> None:
    """DNS rebinding: the attacker's name pointed at 127.0.0.1 reaches the server under
    that name, token or not."""
    with serving() as served:
        rebound = f"attacker.example:{served.port}"
        assert await handshake_status(served, served.url("/ws"), Host=rebound) == 421
        for path in ("/", "/static/js/textual.js"):
            status, text = await page(served.url(path), Host=rebound)
            assert status == 421 and "not served under that name" in text
        assert served.viewers() == []
        status, _ = await page(served.url("/static/js/textual.js"), Host=f"[::1]:{served.port}")
        assert status == 200


@pytest.mark.parametrize("token", ["", "not-the-token"])
async def test_without_the_token_there_is_no_page_and_no_viewer(token: str) -> None:
    with serving() as served:
        assert await handshake_status(served, served.url("/ws", token=token)) == 403
        status, text = await page(served.url(token=token))
        assert status == 403 and "needs the token streamview printed" in text
        cookie = {"Cookie": f"streamview-token-{served.port}={token or 'x'}"}
        assert await handshake_status(served, served.url("/ws", token=""), **cookie) == 403
        assert served.viewers() == []
        # The printed address opens the page, which hands the token on in its cookie.
        assert served.printed.startswith(f"http://localhost:{served.port}/?token=")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
            async with session.get(served.printed) as got:
                assert got.status == 200
            async with session.ws_connect(served.url("/ws", "localhost", "")) as socket_:
                await first_screen(socket_)
                assert len(served.viewers()) == 1


async def test_a_tab_beyond_the_cap_is_told_so_and_a_closed_tab_ends_its_viewer() -> None:
    with serving("--max-viewers", "1") as served:
        async with aiohttp.ClientSession() as session:
            first = await session.ws_connect(served.url("/ws"))
            await first_screen(first)
            (viewer,) = served.viewers()
            async with session.ws_connect(served.url("/ws")) as second:
                said = await second.receive(timeout=DEADLINE)
                closed = await second.receive(timeout=DEADLINE)
            assert b"1 viewer open already, the most this server allows" in said.data
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.data == 1013
            assert "--max-viewers" in closed.extra
            status, text = await page(served.url())
            assert status == 503 and "(--max-viewers): close a tab, then try again" in text
            assert served.viewers() == [viewer]
            await first.close()
            wait_until(lambda: served.viewers() == [], "the viewer ended with its socket")
            # The server frees the place when it has seen the socket close, which may
            # come after the viewer's end (seen at load 5): ask it, as a tab would.
            deadline = asyncio.get_running_loop().time() + DEADLINE
            while (await page(served.url()))[0] != 200:
                assert asyncio.get_running_loop().time() < deadline, "the place stayed taken"
                await asyncio.sleep(0.05)
            async with session.ws_connect(served.url("/ws")) as again:
                await first_screen(again)


async def test_the_page_is_written_for_the_address_the_browser_used() -> None:
    """Issue 29.4: served on every interface, the page names the address it was opened
    at (never 0.0.0.0), and loads nothing from another server (no font service)."""
    with serving("--host", "0.0.0.0") as served:
        status, text = await page(served.url(host="127.0.0.2"))
    assert status == 200
    assert f"here: http://localhost:{served.port}/?token={served.token})" in served.stderr[0]
    assert "0.0.0.0" not in served.stderr[0]
    addresses = set(re.findall(r"""(?:src|href|url)=?\(?["']([^"']+)""", text))
    addresses |= set(re.findall(r'data-session-websocket-url="([^"]+)"', text))
    base = f"127.0.0.2:{served.port}/"
    assert f"ws://{base}ws" in addresses
    assert f"http://{base}static/js/textual.js" in addresses
    assert f"http://{base}static/fonts/RobotoMono-VariableFont_wght.ttf" in addresses
    assert {a for a in addresses if "://" in a and base not in a} == set()


async def test_behind_a_proxy_the_page_uses_the_public_url() -> None:
    public = "https://demo.example/streamview"
    with serving("--public-url", public) as served:
        status, text = await page(served.url(), Host="demo.example")
        rebound = await page(served.url(), Host="other.example")
        foreign = await handshake_status(
            served, served.url("/ws"), Host="demo.example", Origin="https://other.example"
        )
        own = await handshake_status(
            served, served.url("/ws"), Host="demo.example", Origin="https://demo.example"
        )
    assert status == 200 and rebound[0] == 421 and (foreign, own) == (403, 101)
    assert 'data-session-websocket-url="wss://demo.example/streamview/ws"' in text
    assert 'src="https://demo.example/streamview/static/js/textual.js"' in text


@pytest.mark.parametrize(
    ("host", "allowed"),
    [
        ("localhost:8000", True),
        ("127.0.0.1:8000", True),
        ("[::1]:8000", True),
        ("LOCALHOST", True),
        ("attacker.example:8000", False),
        ("localhost.attacker.example", False),
        ("10.1.2.3:8000", False),
        ("", False),
        ("user@localhost", False),
    ],
)
def test_the_names_a_local_server_answers_to(host: str, allowed: bool) -> None:
    assert Gate("localhost", 8000).host_allowed(host) is allowed


def test_on_every_interface_any_address_but_no_other_name() -> None:
    gate = Gate("0.0.0.0", 8000)
    assert gate.host_allowed("10.1.2.3:8000") and gate.host_allowed("[fe80::1]:8000")
    assert not gate.host_allowed("attacker.example:8000")
    assert Gate("box.lan", 8000).host_allowed("box.lan:8000")


def test_the_viewer_is_not_handed_the_server_options() -> None:
    arguments = ["--serve", "--public-url", "https://x/", "--max-viewers=2", "--host", "::", "f"]
    assert served_arguments(arguments) == ["f"]


def test_the_cap_comes_from_the_settings_unless_given(private_settings: Path) -> None:
    path = private_settings / "streamview" / "settings.toml"
    path.parent.mkdir(parents=True)
    assert settings_cap() == 4
    path.write_text("max_viewers = 2\n")
    assert settings_cap() == 2
    path.write_text("max_viewers = true\n")
    assert settings_cap() == 4


async def test_stopping_the_server_ends_its_viewers() -> None:
    with serving() as served:
        async with aiohttp.ClientSession() as session:
            socket_ = await session.ws_connect(served.url("/ws"))
            await first_screen(socket_)
            viewers = served.viewers()
            assert len(viewers) == 1
            served.process.send_signal(signal.SIGTERM)
            assert served.process.wait(DEADLINE) == 0
            closed = await socket_.receive(timeout=DEADLINE)
            while closed.type == aiohttp.WSMsgType.BINARY:  # the last frames drawn
                closed = await socket_.receive(timeout=DEADLINE)
            assert closed.type == aiohttp.WSMsgType.CLOSE and closed.extra == "streamview stopped"
    assert not Path(f"/proc/{viewers[0]}").exists() or "Z" in zombie_state(viewers[0])


def zombie_state(pid: int) -> str:
    """The state letter of ``pid`` (``Z``: ended, not yet reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--serve", "--public-url", "ftp://demo.example/"], "--public-url: not an http(s)"),
        (["--serve", "--max-viewers", "0"], "--max-viewers: must be 1 or more, not 0"),
        (["--max-viewers", "2"], "--public-url and --max-viewers go with --serve"),
    ],
)
def test_bad_server_options_are_refused_with_exit_2(options: list[str], said: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "streamview", *options, RECORDING],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "Traceback" not in done.stderr and "serving on" not in done.stderr


async def test_a_viewer_that_ignores_quit_and_sigterm_is_killed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A hung viewer does not outlive its socket: quit asked, then SIGTERM, then SIGKILL."""
    from textual_serve.download_manager import DownloadManager

    from streamview.fronts import serve_server

    monkeypatch.setattr(serve_server, "QUIT_GRACE", 0.3)
    monkeypatch.setattr(serve_server, "KILL_GRACE", 0.3)
    ready = tmp_path / "ready"
    stubborn = (
        "import pathlib, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "pathlib.Path(sys.argv[1]).touch(); time.sleep(60)"
    )
    service = serve_server.ViewerService(
        [sys.executable, "-c", stubborn, str(ready)],
        write_bytes=nothing,
        write_str=nothing,
        close=nothing,
        download_manager=DownloadManager(),
    )
    await service.start(80, 24)
    wait_until(ready.exists, "the viewer ignoring SIGTERM")
    await service.stop()
    assert service._process is not None and service._process.returncode == -signal.SIGKILL


async def nothing(*_: object) -> None:
    """A socket that takes everything and sends nothing."""


async def test_sockets_opened_at_once_never_pass_the_cap() -> None:
    with serving("--max-viewers", "2") as served:
        async with aiohttp.ClientSession() as session:
            sockets = await asyncio.gather(
                *(session.ws_connect(served.url("/ws")) for _ in range(8))
            )
            firsts = await asyncio.gather(*(s.receive(timeout=DEADLINE) for s in sockets))
            refused = [f for f in firsts if b"open already" in f.data]
            assert len(refused) == 6
            assert len(served.viewers()) == 2
            for socket_ in sockets:
                await socket_.close()
