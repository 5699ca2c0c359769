"""An Arize Phoenix server of one's own, on free ports, its data in a folder given:
for tests/otlp/test_phoenix.py and screenshots/make_phoenix_screenshot.py."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
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


def start_phoenix(program: Path, folder: Path) -> tuple[subprocess.Popen[bytes], Phoenix]:
    """Start ``phoenix serve`` with its data and its log in ``folder``, on free ports."""
    port = free_port()
    env = dict(os.environ)
    env.update(
        PHOENIX_WORKING_DIR=str(folder / "data"),
        PHOENIX_PORT=str(port),
        PHOENIX_GRPC_PORT=str(free_port()),
        PHOENIX_HOST="127.0.0.1",
        PHOENIX_TELEMETRY_ENABLED="false",
    )
    with (folder / "phoenix.log").open("wb") as output:
        server = subprocess.Popen(
            [str(program), "serve"], env=env, stdout=output, stderr=subprocess.STDOUT
        )
    return server, Phoenix(port)


def wait_until_it_answers(backend: Phoenix, pid: int, log: Path) -> None:
    """Wait until Phoenix's REST API answers.

    Raises:
        RuntimeError: Its process ended or it did not answer within
            :data:`START_SECONDS` (the message ends with its log's tail).
    """
    started = time.monotonic()
    while True:
        with contextlib.suppress(OSError, ValueError):
            backend.get("/v1/projects")
            break
        if not _alive(pid) or time.monotonic() - started > START_SECONDS:
            tail = log.read_text(errors="replace")[-2000:]
            raise RuntimeError(f"Phoenix did not start:\n{tail}")
        time.sleep(0.25)
    backend.started_in = time.monotonic() - started


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    with contextlib.suppress(OSError):  # a zombie: ended, not yet waited for
        return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z"
    return True


EARLY = "STREAMVIEW_PHOENIX_EARLY"
"""``URL PID LOG`` of the Phoenix :func:`start_early` started for the run."""
_early: list[tuple[subprocess.Popen[bytes], Path]] = []


def start_early(args: list[str], here: Path) -> None:
    """In pytest's main process, before xdist starts its workers: if the run includes
    tests/otlp/test_phoenix.py (``args``, relative to ``here``), start Phoenix now, so
    its 12-30 s of start overlap the tests before it instead of counting as the setup
    of one test (36 s at load 8); the workers inherit its address in :data:`EARLY`."""
    program = phoenix_program()
    target = REPO / "tests" / "otlp" / "test_phoenix.py"
    reached = any(
        target.is_relative_to((here / arg.split("::")[0]).resolve()) for arg in args or ["."]
    )
    if program is None or not reached or os.environ.get(EARLY):
        return
    folder = Path(tempfile.mkdtemp(prefix="streamview-phoenix-"))
    server, backend = start_phoenix(program, folder)
    _early.append((server, folder))
    os.environ[EARLY] = f"{backend.url} {server.pid} {folder / 'phoenix.log'}"


def stop_early() -> None:
    """Stop the Phoenix :func:`start_early` started, and remove its folder."""
    while _early:
        server, folder = _early.pop()
        os.environ.pop(EARLY, None)
        _stop(server)
        shutil.rmtree(folder, ignore_errors=True)


def _stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


@contextlib.contextmanager
def phoenix_for_tests(program: Path, folder: Path) -> Iterator[Phoenix]:
    """The Phoenix :func:`start_early` started for the run, once it answers; else one
    started in ``folder`` (:func:`running_phoenix`)."""
    early = os.environ.get(EARLY)
    if not early:
        with running_phoenix(program, folder) as backend:
            yield backend
        return
    url, pid, log = early.split(" ", 2)
    backend = Phoenix(int(url.rpartition(":")[2]))
    wait_until_it_answers(backend, int(pid), Path(log))
    yield backend


@contextlib.contextmanager
def running_phoenix(program: Path, folder: Path) -> Iterator[Phoenix]:
    """Start ``phoenix serve`` with its data in ``folder``, wait until its REST API
    answers, and stop it on leaving.

    Raises:
        RuntimeError: It exited or did not answer within :data:`START_SECONDS` (the
            message ends with its log's tail).
    """
    server, backend = start_phoenix(program, folder)
    try:
        wait_until_it_answers(backend, server.pid, folder / "phoenix.log")
        yield backend
    finally:
        _stop(server)
