"""An Arize Phoenix server of one's own, on free ports, its data in a folder given:
for tests/otlp/test_phoenix.py and screenshots/make_phoenix_screenshot.py."""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
START_SECONDS = 240.0
"""Phoenix's first start makes its database: 12-16 s here, far more on a busy machine."""


def phoenix_program() -> Path | None:
    """``STREAMVIEW_PHOENIX``, else ``.venv-phoenix/bin/phoenix`` (``.ci/run`` makes it);
    ``None`` when it is not there."""
    named = os.environ.get("STREAMVIEW_PHOENIX")
    program = Path(named) if named else REPO / ".venv-phoenix" / "bin" / "phoenix"
    return program if program.exists() else None


def free_port() -> int:
    """A local port nothing listens on (bound, then let go)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class Phoenix:
    """A running Phoenix's address and its REST API."""

    def __init__(self, port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.started_in = 0.0
        """Seconds it took to answer."""

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.url + path, timeout=10) as answer:
            return json.loads(answer.read())

    def spans(self, project: str) -> list[dict[str, Any]]:
        """Every span of a project (none while the project does not exist)."""
        found: list[dict[str, Any]] = []
        cursor = ""
        while True:
            try:
                page = self.get(f"/v1/projects/{project}/spans?limit=1000{cursor}")
            except urllib.error.HTTPError as error:
                if error.code == 404:
                    return []
                raise
            found.extend(page["data"])
            if not page.get("next_cursor"):
                return found
            cursor = f"&cursor={page['next_cursor']}"

    def wait_for_spans(self, project: str, count: int) -> list[dict[str, Any]]:
        """The project's spans once it holds ``count`` of them (Phoenix ingests later)."""
        deadline = time.monotonic() + 60
        while True:
            spans = self.spans(project)
            if len(spans) >= count:
                return spans
            assert time.monotonic() < deadline, f"{len(spans)} of {count} spans in Phoenix"
            time.sleep(0.2)


@contextlib.contextmanager
def running_phoenix(program: Path, folder: Path) -> Iterator[Phoenix]:
    """Start ``phoenix serve`` with its data in ``folder``, wait until its REST API
    answers, and stop it on leaving.

    Raises:
        RuntimeError: It exited or did not answer within :data:`START_SECONDS` (the
            message ends with its log's tail).
    """
    port = free_port()
    env = dict(os.environ)
    env.update(
        PHOENIX_WORKING_DIR=str(folder / "data"),
        PHOENIX_PORT=str(port),
        PHOENIX_GRPC_PORT=str(free_port()),
        PHOENIX_HOST="127.0.0.1",
        PHOENIX_TELEMETRY_ENABLED="false",
    )
    log = folder / "phoenix.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [str(program), "serve"], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    backend = Phoenix(port)
    started = time.monotonic()
    try:
        while True:
            with contextlib.suppress(OSError, ValueError):
                backend.get("/v1/projects")
                break
            if server.poll() is not None or time.monotonic() - started > START_SECONDS:
                tail = log.read_text(errors="replace")[-2000:]
                raise RuntimeError(f"Phoenix did not start (exit {server.poll()}):\n{tail}")
            time.sleep(0.25)
        backend.started_in = time.monotonic() - started
        yield backend
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
