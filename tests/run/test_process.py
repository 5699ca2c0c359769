"""ProcessSource with small fake agents: success, failure, lingering, SIGINT, stubbornness."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

from streamview.core.reader import fold
from streamview.core.state import INCOMPLETE, SUCCESS
from streamview.runs.recording import Recorder, strip_timing
from streamview.sources.base import InputError
from streamview.sources.process import ProcessSource, ProcessState, exit_status, strip_escapes

AGENTS = Path(__file__).parent / "agents"


def agent(name: str) -> list[str]:
    """The command line of a fake agent."""
    return [sys.executable, str(AGENTS / f"{name}.py")]


def read_all(source: ProcessSource) -> bytes:
    return b"".join(source.chunks(threading.Event()))


def test_success_streams_stdout_and_reports_exit_zero() -> None:
    exits: list[ProcessState] = []
    source = ProcessSource(agent("success"), on_exit=exits.append)
    data = read_all(source)
    state = fold([data])
    assert state.current is not None and state.current.outcome.status == SUCCESS
    assert source.exit_code == 0 and not source.running
    assert exits and exits[0].exit_code == 0 and not exits[0].failed
    assert source.state().describe() == "exited with 0"
    assert source.summary()["exit_code"] == 0
    assert source.label.endswith("success.py")


def test_failure_keeps_exit_code_and_clean_stderr() -> None:
    source = ProcessSource(agent("failure"))
    state = fold([read_all(source)])
    assert state.current is not None and state.current.outcome.status == INCOMPLETE
    process = source.state()
    assert process.exit_code == 1 and process.failed
    assert process.stderr == "Error: authentication failed\nRun 'agent login' first.\n"
    assert "\x1b" not in process.stderr
    assert b"\x1b[31m" in source.stderr_bytes
    assert source.summary() == {
        "exit_code": 1,
        "stderr": process.stderr,
        "interrupted": False,
        "lingered": [],
    }


def test_a_failure_with_no_output_at_all() -> None:
    source = ProcessSource(agent("silent_failure"))
    assert read_all(source) == b""
    assert source.exit_code == 3
    assert source.stderr_text == "⚠ Workspace Trust Required\n"


def test_recording_a_run(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    source = ProcessSource(agent("success"), recorder=Recorder(path))
    data = read_all(source)
    recorded = path.read_bytes()
    assert recorded.count(b"streamview_recv_ms") == 6
    assert b"".join(strip_timing(line) for line in recorded.splitlines(keepends=True)) == data


def test_result_ends_reading_when_the_agent_lingers() -> None:
    source = ProcessSource(agent("linger"), linger_seconds=0.2)
    started = time.monotonic()
    data = read_all(source)
    try:
        assert time.monotonic() - started < 20
        assert source.result_seen and source.lingered and source.running
        assert source.state().describe() == "still running after its result"
        state = fold([data])
        assert state.current is not None and state.current.outcome.status == SUCCESS
    finally:
        code = source.stop(timeout=2)
    assert code == 143 and not source.running and source.interrupted


def test_without_linger_seconds_reading_continues_after_the_result() -> None:
    """The viewer keeps reading (the recording must not miss a late line)."""
    source = ProcessSource(agent("linger"))
    stop = threading.Event()
    chunks = source.chunks(stop)
    got = b""
    while b'"type":"result"' not in got:
        got += next(chunks)
    assert source.result_seen
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    assert list(chunks) == []  # ends only because of stop
    assert source.running
    source.stop(timeout=2)


def test_interrupt_sends_sigint_and_the_agent_exits_130() -> None:
    source = ProcessSource(agent("sigint"))
    stop = threading.Event()
    chunks = source.chunks(stop)
    got = b""
    while b'"tool_call"' not in got:
        got += next(chunks)
    assert source.interrupt() == "SIGINT"
    rest = b"".join(chunks)
    state = fold([got + rest])
    assert source.exit_code == 130
    assert source.stderr_text == "Aborting operation...\n"
    assert source.state().interrupted
    call = state.sessions[0].tool_calls[0]
    assert call.status == "interrupted"
    assert source.interrupt() is None  # nothing left to stop


def test_interrupt_escalates_to_sigkill_for_a_stubborn_agent() -> None:
    source = ProcessSource(agent("stubborn"))
    stop = threading.Event()
    chunks = source.chunks(stop)
    got = b""
    while b'"type":"user"' not in got:
        got += next(chunks)
    assert source.interrupt(term_after=0.2, kill_after=0.2) == "SIGINT"
    b"".join(chunks)
    assert source.wait(10) == 128 + 9
    assert source.state().describe() == "exited with 137 (SIGKILL)"
    assert "ignoring SIGINT" in source.stderr_text
    assert "ignoring SIGTERM" in source.stderr_text


def test_a_second_interrupt_goes_straight_to_the_next_signal() -> None:
    source = ProcessSource(agent("stubborn"))
    chunks = source.chunks(threading.Event())
    got = b""
    while b'"type":"user"' not in got:
        got += next(chunks)
    assert source.interrupt(term_after=60, kill_after=60) == "SIGINT"
    assert source.interrupt(term_after=60, kill_after=60) == "SIGTERM"
    assert source.interrupt(term_after=60, kill_after=60) == "SIGKILL"
    b"".join(chunks)
    assert source.wait(10) == 137


def test_a_missing_program_is_an_input_error() -> None:
    with pytest.raises(InputError, match="command not found"):
        ProcessSource(["streamview-no-such-agent-xyz"]).start()
    with pytest.raises(InputError, match="no command"):
        ProcessSource([])


def test_strip_escapes_applies_carriage_returns_and_drops_sequences() -> None:
    assert strip_escapes("\x1b[32mok\x1b[0m\r\n") == "ok\n"
    assert strip_escapes("10%\r50%\r100%\n") == "100%\n"
    assert strip_escapes("\x1b]0;title\x07bell\x07") == "bell␇"
    assert strip_escapes("a\x1b[2Kb") == "ab"


def test_exit_status_is_shell_style() -> None:
    assert exit_status(None) is None
    assert exit_status(0) == 0
    assert exit_status(-2) == 130
    assert exit_status(-15) == 143
