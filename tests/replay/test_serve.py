"""--serve: the served command, and the viewer really drawn through textual-serve."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from streamview.serve import serve_command, served, served_arguments

REPO = Path(__file__).resolve().parents[2]


def test_served_arguments_drop_the_serve_options() -> None:
    assert served_arguments(["--serve", "--port", "9000", "--replay", "x.ndjson"]) == [
        "--replay",
        "x.ndjson",
    ]
    assert served_arguments(["--port=9000", "--serve", "a b.ndjson"]) == ["a b.ndjson"]
    command = serve_command(["--serve", "a b.ndjson"])
    assert command.endswith("-m streamview 'a b.ndjson'")


def test_served_is_told_by_the_web_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert not served()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert served()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("localhost", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_served_viewer_draws_the_final_state() -> None:
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamview",
            "--serve",
            "--port",
            str(port),
            "recordings/success-multi-tool.ndjson",
        ],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )

    async def screen_text() -> str:
        text = ""
        deadline = time.monotonic() + 60
        async with aiohttp.ClientSession() as session:
            while True:
                try:
                    socket_ = await session.ws_connect(
                        f"http://localhost:{port}/ws?width=120&height=40"
                    )
                    break
                except aiohttp.ClientError:
                    assert time.monotonic() < deadline, "server never answered"
                    await asyncio.sleep(0.2)
            async with socket_:
                while time.monotonic() < deadline and "event 170 of 170" not in text:
                    try:
                        message = await socket_.receive(timeout=5)
                    except TimeoutError:
                        continue
                    if message.type == aiohttp.WSMsgType.TEXT:
                        text += message.data
                    elif message.type == aiohttp.WSMsgType.BINARY:
                        text += message.data.decode("utf-8", "replace")
                    else:
                        break
        return text

    try:
        text = asyncio.run(screen_text())
    finally:
        server.terminate()
        server.wait(10)
    assert "event 170 of 170" in text
    assert "success in 36.5s" in text
