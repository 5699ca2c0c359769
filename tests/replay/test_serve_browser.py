"""--serve in a real browser (Debian's Chromium driven by Playwright): the page drawn,
read from the terminal's own buffer, a key answered, a second tab with its own viewer,
and a page on another site kept out.

Served on every interface and opened as ``127.0.0.2`` (a loopback address, never the
machine's own), so the page's addresses must follow the one the browser used.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.replay.served import DEADLINE, FINAL, OUTCOME, serving, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

pytest.importorskip("textual_serve")
BROWSER_HOST = "127.0.0.2"

CATCH_TERMINALS = """
window.__terminals = [];
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    if (value && value.buffer && value.buffer.active) window.__terminals.push(value);
  },
});
"""
"""textual.js keeps its xterm.js ``Terminal`` in a closure: this catches it as it is
stored (``this.terminal = new Terminal(...)``), so the test reads the screen through
xterm.js's public buffer API instead of the pixels of its canvas."""

SCREEN_TEXT = """() => {
  const terminal = window.__terminals[0];
  if (!terminal) return "";
  const buffer = terminal.buffer.active;
  const rows = [];
  for (let y = 0; y < terminal.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    rows.push(line ? line.translateToString(true) : "");
  }
  return rows.join("\\n");
}"""


@pytest.fixture
def browser(chromium: Browser) -> Iterator[BrowserContext]:
    """A fresh profile (no cookie, no cache) in the module's Chromium."""
    context = chromium.new_context(viewport={"width": 1200, "height": 800})
    context.set_default_timeout(DEADLINE * 1000)
    context.add_init_script(CATCH_TERMINALS)
    try:
        yield context
    finally:
        context.close()


def screen(page: Page) -> str:
    """The text the page's terminal shows now."""
    text: str = page.evaluate(SCREEN_TEXT)
    return text


def wait_for_screen(page: Page, text: str) -> str:
    """The page's screen once it shows ``text``."""
    script = f"() => ({SCREEN_TEXT})().includes({text!r})"
    page.wait_for_function(script)
    return screen(page)


def test_a_browser_sees_the_run_and_drives_it(browser: BrowserContext, tmp_path: Path) -> None:
    with serving("--host", "0.0.0.0") as served:
        origin = f"{BROWSER_HOST}:{served.port}"
        asked: list[str] = []
        page = browser.new_page()
        page.on("request", lambda request: asked.append(request.url))
        page.on("websocket", lambda socket_: asked.append(socket_.url))
        page.goto(served.url(host=BROWSER_HOST))
        shown = wait_for_screen(page, OUTCOME)
        header = shown.splitlines()[0]
        assert header.split()[:2] == ["Cursor", "GPT-5"] and "session d7a94ded" in header
        assert FINAL in shown
        # Everything the page loaded came from the address it was opened at.
        assert f"ws://{origin}/ws?width=" in " ".join(asked)
        assert f"http://{origin}/static/fonts/RobotoMono-VariableFont_wght.ttf" in asked
        assert [url for url in asked if origin not in url] == []
        page.screenshot(path=str(tmp_path / "served.png"))

        page.locator(".xterm-screen").click()
        page.keyboard.press(",")  # one event back
        wait_for_screen(page, "event 169 of 170")


def test_a_second_tab_gets_its_own_viewer(browser: BrowserContext) -> None:
    with serving() as served:
        first = browser.new_page()
        first.goto(served.printed)
        wait_for_screen(first, OUTCOME)
        first.locator(".xterm-screen").click()
        first.keyboard.press(",")
        wait_for_screen(first, "event 169 of 170")
        second = browser.new_page()
        second.goto(f"http://localhost:{served.port}/")  # the token: the first visit's cookie
        assert FINAL in wait_for_screen(second, OUTCOME)
        assert "event 169 of 170" in screen(first)
        wait_until(lambda: len(served.viewers()) == 2, "a viewer per tab")
        first.close()
        wait_until(lambda: len(served.viewers()) == 1, "the closed tab's viewer ended")
        assert FINAL in screen(second)


@contextmanager
def another_site() -> Iterator[str]:
    """Another local web server (another port: another origin, but the same site, so the
    browser sends it the served page's cookie): the address of its one blank page."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BlankPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class BlankPage(BaseHTTPRequestHandler):
    """Answers every GET with an empty page."""

    def do_GET(self) -> None:
        body = b"<!DOCTYPE html><p>another site</p>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet."""


OPEN_SOCKET = """url => new Promise(done => {
    const socket = new WebSocket(url);
    socket.onopen = () => done("open");
    socket.onclose = () => done("refused");
})"""


def test_a_page_on_another_site_cannot_open_the_viewer(browser: BrowserContext) -> None:
    """The person opened the served run; another page they visit then tries its socket
    (the browser adds the token's cookie: a same-site port): refused at the handshake."""
    with serving() as served, another_site() as elsewhere:
        mine = browser.new_page()
        mine.goto(served.url())  # the person's own tab: its cookie now holds the token
        wait_for_screen(mine, OUTCOME)
        (viewer,) = served.viewers()
        attacker = browser.new_page()
        attacker.goto(elsewhere)
        socket_url = f"ws://127.0.0.1:{served.port}/ws"
        assert attacker.evaluate(OPEN_SOCKET, socket_url) == "refused"
        assert attacker.evaluate(OPEN_SOCKET, served.url("/ws").replace("http:", "ws:")) == (
            "refused"
        )
        assert served.viewers() == [viewer]
        assert mine.evaluate(OPEN_SOCKET, socket_url) == "open"  # the same from its own page


def test_a_tab_beyond_the_cap_says_why(browser: BrowserContext) -> None:
    with serving("--max-viewers", "1") as served:
        first = browser.new_page()
        first.goto(served.url())
        wait_for_screen(first, OUTCOME)
        second = browser.new_page()
        second.goto(served.url())
        assert "1 viewer open already" in second.locator("body").inner_text()
        assert len(served.viewers()) == 1
