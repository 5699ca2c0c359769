"""Faults around the real command: dead producers, closed pipes, silences, moving files."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from .helpers import REPO, assert_no_traceback, cli_env, command, real_captures, run_cli, unsafe_in
from .streams import dumps, many_calls_stream, text_message, write_lines

CAPTURES = real_captures()
WAIT = 30.0
"""Generous: how long to wait for output that should come at once (2 slow cores)."""


class Running:
    """A ``streamview`` child whose stdout lines are collected by a thread."""

    def __init__(self, *args: str, stdin: int | None = subprocess.PIPE) -> None:
        self.process = subprocess.Popen(
            command(*args),
            stdin=stdin,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=cli_env(),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8"))

    def wait_for(self, needle: str, timeout: float = WAIT) -> str:
        """Return the first output line (from now on) holding ``needle``."""
        deadline = time.monotonic() + timeout
        while True:
            for line in self.seen:
                if needle in line:
                    self.seen.remove(line)
                    return line
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{needle!r} not printed; saw {self.seen[-20:]!r}")
            try:
                self.seen.append(self.lines.get(timeout=min(left, 0.5)))
            except queue.Empty:
                continue

    def write(self, data: bytes) -> None:
        """Send bytes to the child's stdin."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def finish(self, timeout: float = WAIT) -> tuple[int, str, str]:
        """Wait for exit; return ``(code, all stdout, stderr)``."""
        code = self.process.wait(timeout)
        self._reader.join(timeout)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        assert self.process.stderr is not None
        stderr = self.process.stderr.read().decode("utf-8", "replace")
        return code, "".join(self.seen), stderr


def head_lines() -> list[bytes]:
    """An init, a prompt and a tool call start."""
    return [
        dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "GPT-5"}),
        dumps(text_message("user", "prompt here", session_id="s")),
        dumps(
            {
                "type": "tool_call",
                "subtype": "started",
                "call_id": "c1",
                "tool_call": {"shellToolCall": {"args": {"command": "sleep 100"}}},
                "session_id": "s",
            }
        ),
    ]


def test_producer_killed_mid_line(tmp_path: Path) -> None:
    """A producer SIGKILLed mid-line: received lines shown, partial line reported, exit 1."""
    sent = tmp_path / "sent.ndjson"
    sent.write_bytes(b"".join(head_lines()) + b'{"type":"assistant","mess')
    script = (
        "import sys, time\n"
        f"sys.stdout.buffer.write(open({str(sent)!r}, 'rb').read())\n"
        "sys.stdout.flush()\n"
        "time.sleep(600)\n"
    )
    producer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert producer.stdout is not None
    viewer = Running("--print", stdin=producer.stdout.fileno())
    producer.stdout.close()
    try:
        viewer.wait_for("-> shell `sleep 100`")
    finally:
        producer.kill()
        producer.wait()
    code, out, err = viewer.finish()
    assert_no_traceback(err.encode())
    assert code == 1
    assert "> prompt here" in out
    assert "?? line 4: not JSON" in out
    assert "shell `sleep 100` · interrupted" in out
    assert "incomplete" in out


def test_stdin_closed_at_once() -> None:
    """Nothing at all on stdin: one clear message, usage exit code, no traceback."""
    done = run_cli("--print", stdin=b"")
    assert done.returncode == 2
    assert_no_traceback(done.stderr)
    assert b"empty" in done.stderr
    done = run_cli("--json", stdin=b"")
    assert done.returncode == 2
    assert_no_traceback(done.stderr)


def test_stdin_closed_after_init() -> None:
    """A run that dies after init and prompt is shown as incomplete, exit 1."""
    done = run_cli("--print", stdin=b"".join(head_lines()[:2]))
    assert_no_traceback(done.stderr)
    assert done.returncode == 1
    assert b"incomplete" in done.stdout


def test_silence_then_resume() -> None:
    """Output before a silence is shown during it; output after it is shown too."""
    viewer = Running("--print")
    lines = head_lines()
    viewer.write(b"".join(lines))
    viewer.wait_for("-> shell `sleep 100`")  # printed while the producer is silent
    time.sleep(2.0)
    viewer.write(
        dumps(text_message("assistant", "back again\n", session_id="s"))
        + dumps({"type": "result", "subtype": "success", "session_id": "s", "duration_ms": 9})
    )
    viewer.wait_for("back again")
    assert viewer.process.stdin is not None
    viewer.process.stdin.close()
    code, out, err = viewer.finish()
    assert_no_traceback(err.encode())
    assert code == 0
    assert "== success" in out


@pytest.fixture(scope="module")
def long_stream(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file whose ``--print`` output is far bigger than a pipe buffer."""
    path = tmp_path_factory.mktemp("long") / "calls.ndjson"
    write_lines(path, many_calls_stream(5_000))
    return path


@pytest.mark.parametrize("mode", ["--print", "--json"])
def test_sigpipe_when_the_reader_leaves(long_stream: Path, mode: str) -> None:
    """``streamview --print file | head -1``: no traceback, exit 0."""
    shell = f"{' '.join(command(mode, str(long_stream)))} | head -c 100 >/dev/null"
    done = subprocess.run(
        ["bash", "-c", shell + '; echo "status=${PIPESTATUS[0]}" >&2'],
        capture_output=True,
        cwd=REPO,
        env=cli_env(),
        timeout=120,
        check=False,
    )
    err = done.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    assert "status=0" in err, err[-2000:]


def test_sigpipe_from_a_live_pipe(tmp_path: Path) -> None:
    """``producer | streamview --print | head -1`` while the producer keeps writing: the
    run has not ended, so the status is 141 (SIGPIPE's), never 0 (issue 20.8)."""
    script = tmp_path / "producer.py"
    script.write_text(
        "import sys\n"
        f"sys.stdout.buffer.write({b''.join(head_lines())!r})\n"
        'line = b\'{"type":"user","message":{"content":"x"},"session_id":"s"}\\n\'\n'
        "for n in range(200000):\n"
        "    sys.stdout.buffer.write(line)\n"
    )
    shell = (
        f"{sys.executable} {script} 2>/dev/null | {' '.join(command('--print'))} | head -1"
        ' >/dev/null; echo "status=${PIPESTATUS[1]}" >&2'
    )
    done = subprocess.run(
        ["bash", "-c", shell], capture_output=True, cwd=REPO, env=cli_env(), timeout=120
    )
    err = done.stderr.decode()
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    assert "status=141" in err, err


def test_json_on_truncated_input(tmp_path: Path) -> None:
    """``--json`` on a capture cut mid-line: valid JSON, incomplete, counts add up, exit 1."""
    data = max((p.read_bytes() for p in CAPTURES), key=len)
    cut = data[: len(data) * 2 // 3]
    path = tmp_path / "cut.ndjson"
    path.write_bytes(cut)
    done = run_cli("--json", str(path))
    assert_no_traceback(done.stderr)
    assert done.returncode == 1
    summary = orjson.loads(done.stdout)
    lines = summary["lines"]
    assert lines["total"] == lines["events"] + lines["malformed"] + lines["unknown"]
    assert lines["total"] == len([x for x in cut.split(b"\n") if x.strip()])
    assert summary["sessions"][-1]["outcome"]["status"] == "incomplete"
    assert lines["malformed"] >= (0 if cut.endswith(b"\n") else 1)


def _lines_of(text: str, count: int) -> Iterator[bytes]:
    yield dumps({"type": "system", "subtype": "init", "session_id": text, "model": "M"})
    for n in range(count):
        yield dumps(text_message("user", f"{text} prompt {n}", session_id=text))


def test_followed_file_truncated_and_replaced(tmp_path: Path) -> None:
    """``--follow``: appended lines show; a truncated or replaced file is read afresh."""
    path = tmp_path / "run.ndjson"
    path.write_bytes(b"".join(_lines_of("first", 3)))
    viewer = Running("--print", "--follow", str(path), stdin=subprocess.DEVNULL)
    try:
        viewer.wait_for("first prompt 0")
        with path.open("ab") as out:
            out.write(dumps(text_message("user", "appended", session_id="first")))
        viewer.wait_for("appended")
        # Truncate in place and write something shorter.
        with path.open("wb") as out:
            out.write(b"".join(_lines_of("second", 1)))
        viewer.wait_for("second")
        # Replace by rename (a new inode), as editors and log rotation do.
        fresh = tmp_path / "fresh.ndjson"
        fresh.write_bytes(b"".join(_lines_of("third", 2)))
        os.replace(fresh, path)
        viewer.wait_for("third prompt 1")
        # Deleted for a while, then back.
        path.unlink()
        time.sleep(0.5)
        path.write_bytes(b"".join(_lines_of("fourth", 1)))
        viewer.wait_for("fourth")
    finally:
        viewer.process.send_signal(signal.SIGINT)
    code, _, err = viewer.finish()
    assert_no_traceback(err.encode())
    assert code == 130


def test_unreadable_and_odd_inputs(tmp_path: Path) -> None:
    """A directory, a missing file, an unreadable file: one line each, exit 2."""
    secret = tmp_path / "secret.ndjson"
    secret.write_bytes(b"{}\n")
    secret.chmod(0)
    cases = [str(tmp_path), str(tmp_path / "missing.ndjson")]
    if os.geteuid() != 0:
        cases.append(str(secret))
    for name in cases:
        done = run_cli("--print", name)
        assert done.returncode == 2, name
        assert_no_traceback(done.stderr)
        assert done.stderr.count(b"\n") == 1
        assert unsafe_in(done.stderr.decode()) == []


def test_dev_null_and_binary_garbage(tmp_path: Path) -> None:
    """``/dev/null`` is an empty input; random binary is reported line by line."""
    done = run_cli("--print", "/dev/null")
    assert done.returncode == 2 and b"empty" in done.stderr
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(os.urandom(200_000))
    done = run_cli("--print", str(garbage))
    assert_no_traceback(done.stderr)
    assert done.returncode == 1
    text = done.stdout.decode("utf-8")
    assert unsafe_in(text) == []
    expected = len([x for x in garbage.read_bytes().split(b"\n") if x.rstrip(b"\r").strip()])
    assert text.count("?? line ") == expected


# -- Recording faults ---------------------------------------------------------------------


def _run_lines() -> bytes:
    return b"".join(
        [
            *head_lines(),
            dumps(
                {
                    "type": "tool_call",
                    "subtype": "completed",
                    "call_id": "c1",
                    "tool_call": {
                        "shellToolCall": {
                            "args": {"command": "sleep 100"},
                            "result": {"success": {"exitCode": 0}},
                        }
                    },
                    "session_id": "s",
                }
            ),
            dumps(text_message("assistant", "all done", session_id="s")),
            dumps({"type": "result", "subtype": "success", "session_id": "s", "duration_ms": 5}),
        ]
    )


@pytest.mark.parametrize("where", ["dev-full", "parent-is-a-file", "missing-directory"])
def test_recording_that_cannot_be_written(tmp_path: Path, where: str) -> None:
    """Disk full or an impossible path: one clear message, the run is still shown in full."""
    blocker = tmp_path / "a-file"
    blocker.write_bytes(b"")
    target = {
        "dev-full": Path("/dev/full"),
        "parent-is-a-file": blocker / "run.ndjson",
        "missing-directory": tmp_path / "no" / "such" / "run.ndjson",
    }[where]
    if where == "dev-full" and not target.exists():
        pytest.skip("no /dev/full on this system")
    done = run_cli("--print", "--record", str(target), stdin=_run_lines())
    assert_no_traceback(done.stderr)
    err = done.stderr.decode()
    expected = "recording cut: disk full" if where == "dev-full" else "recording stopped"
    assert expected in err, err
    assert str(target) in err
    out = done.stdout.decode()
    assert "all done" in out and "== success" in out
    assert done.returncode == 0


def test_recording_keeps_every_complete_line_of_a_killed_producer(tmp_path: Path) -> None:
    """Producer killed mid-line: the recording holds every complete line, in order."""
    from streamview.runs.recording import strip_timing

    complete = b"".join(head_lines())
    sent = tmp_path / "sent.ndjson"
    sent.write_bytes(complete + b'{"type":"assistant","mess')
    script = (
        "import sys, time\n"
        f"sys.stdout.buffer.write(open({str(sent)!r}, 'rb').read())\n"
        "sys.stdout.flush()\n"
        "time.sleep(600)\n"
    )
    recording = tmp_path / "rec.ndjson"
    producer = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    assert producer.stdout is not None
    viewer = Running("--print", "--record", str(recording), stdin=producer.stdout.fileno())
    producer.stdout.close()
    try:
        viewer.wait_for("-> shell `sleep 100`")
    finally:
        producer.kill()
        producer.wait()
    code, _, err = viewer.finish()
    assert_no_traceback(err.encode())
    assert code == 1
    recorded = recording.read_bytes().splitlines(keepends=True)
    wanted = complete.splitlines(keepends=True)
    assert [strip_timing(line) for line in recorded[: len(wanted)]] == wanted
