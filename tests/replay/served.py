"""A real ``streamview --serve`` for the serve tests: started, its printed address read,
its viewer processes counted, and stopped."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import aiohttp

REPO = Path(__file__).resolve().parents[2]
RECORDING = "recordings/success-multi-tool.ndjson"
FINAL = "event 170 of 170"
"""The playback bar of :data:`RECORDING` at its final state."""
OUTCOME = "success in 36.5s"
DEADLINE = 60.0
"""Generous: a busy two-core machine starts a viewer in seconds, not tens of them."""


def free_port() -> int:
    """A port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until(condition: Callable[[], object], what: str, deadline: float = DEADLINE) -> None:
    """Return once ``condition()`` is true; fail saying ``what`` did not happen."""
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, f"never: {what}"
        time.sleep(0.05)


@dataclass
class Served:
    """A running ``streamview --serve`` and what it printed."""

    process: subprocess.Popen[str]
    port: int
    stderr: list[str] = field(default_factory=list)

    @property
    def printed(self) -> str:
        """The address it printed (token included)."""
        for line in self.stderr:
            if found := re.search(r"serving on (\S+)", line):
                return found.group(1)
        return ""

    @property
    def token(self) -> str:
        """The token in the printed address."""
        found = re.search(r"[?&]token=([\w-]+)", self.printed)
        assert found, self.stderr
        return found.group(1)

    def url(self, path: str = "/", host: str = "127.0.0.1", token: str | None = None) -> str:
        """``http://host:port/path`` with the token (``token=""``: without one)."""
        token = self.token if token is None else token
        query = f"?token={token}" if token else ""
        return f"http://{host}:{self.port}{path}{query}"

    def viewers(self) -> list[int]:
        """The viewer processes the server runs now (its children)."""
        children: list[int] = []
        for task in Path(f"/proc/{self.process.pid}/task").iterdir():
            try:
                children += [int(pid) for pid in (task / "children").read_text().split()]
            except OSError:  # the thread ended
                continue
        return children


@contextmanager
def serving(*options: str, recording: str = RECORDING) -> Iterator[Served]:
    """``streamview --serve *options RECORDING`` on a free port until the block ends."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "streamview", "--serve", "--port", str(port), *options, recording],
        cwd=REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    served = Served(process, port)
    assert process.stderr is not None
    reader = threading.Thread(target=lambda: served.stderr.extend(process.stderr or ()))
    reader.start()
    try:
        wait_until(lambda: served.printed or process.poll() is not None, "the address printed")
        assert served.printed, served.stderr
        yield served
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(10)


async def first_screen(socket_: aiohttp.ClientWebSocketResponse, until: str = FINAL) -> str:
    """What the viewer drew until ``until`` showed."""
    text = ""
    end = time.monotonic() + DEADLINE
    while until not in text:
        assert time.monotonic() < end, f"never drew {until!r}"
        message = await socket_.receive(timeout=DEADLINE)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        text += message.data.decode("utf-8", "replace")
    return text
