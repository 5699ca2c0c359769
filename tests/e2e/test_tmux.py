"""The real ``python -m streamview`` in a real terminal (tmux), fed by a slow producer.

Each test runs its own tmux server (``tmux -L sv-test-<uuid>``) and kills it at the
end. The screen is read with ``capture-pane -p``.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
import time
from pathlib import Path

import orjson
import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"
DENIALS = "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"
PROBE_43 = "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

PRODUCER = """\
import sys, time
path, delay, linger = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
count = int(sys.argv[4]) if len(sys.argv) > 4 else None
for number, line in enumerate(open(path, "rb")):
    if count is not None and number >= count:
        break
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(delay)
time.sleep(linger)
"""
"""Prints a capture line by line with a pause, then stays silent for ``linger`` s."""


def capture(name: str) -> Path:
    """A real capture in tests/fixtures/cursor-real."""
    path = CAPTURES / name
    assert path.is_file(), f"capture missing: {path}"
    return path


def producer(tmp_path: Path, path: Path, delay: float, linger: float, count: int = 0) -> str:
    """A shell command printing ``path`` slowly (``count`` lines, 0 for all)."""
    script = tmp_path / "producer.py"
    script.write_text(PRODUCER)
    python = shlex.quote(sys.executable)
    extra = f" {count}" if count else ""
    return f"{python} {shlex.quote(str(script))} {shlex.quote(str(path))} {delay} {linger}{extra}"


def test_piped_stream_shows_live_then_finished_and_q_quits(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, capture(DENIALS), delay=0.04, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "Composer 2.5 Fast" in s and "Transcript" in s)
    assert "Fetch https://example.com" in screen
    screen = tmux.wait_for(lambda s: "✓ success in 16.7s" in s)
    assert "Tool calls (4)" in screen
    assert "webSearch" in screen and "rejected" in screen
    assert "DONE" in screen
    # The producer is still silent-but-open: the app stays on the final state.
    time.sleep(0.5)
    assert not exit_file.exists()
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_quit_mid_stream_while_the_producer_is_silent(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, capture(PROBE_43), delay=0.02, linger=120, count=3)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "running" in s and "notes.txt" in s)
    assert "GPT-5 Mini" in screen
    tmux.wait_for(lambda s: "idle" in s and "since last event" in s and "1 call open" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 1  # the run had not finished


def test_keys_work_under_a_pipe(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, capture(DENIALS), delay=0.0, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    tmux.wait_for(lambda s: "✓ success" in s)
    tmux.keys("?")
    tmux.wait_for(lambda s: "streamview keys" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "streamview keys" not in s)
    tmux.keys("/")
    tmux.keys("-l", "Example Domain")
    tmux.keys("Enter")
    # The search goes a slice at a time: its count is whole once it stops searching.
    screen = tmux.wait_for(
        lambda s: "“Example Domain” " in s and "paused" in s and "searching" not in s
    )
    assert re.search(r"“Example Domain” [1-5]/5", screen)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_opening_a_file_directly(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    path = capture(PROBE_43)
    tmux.start(viewer_line(shlex.quote(str(path)), exit_file))
    screen = tmux.wait_for(lambda s: "✓ success in 9.9s" in s)
    assert "READ-OK" in screen
    assert "Tool calls (1)" in screen
    tmux.keys("C-q")
    assert wait_exit(exit_file) == 0


def test_cut_file_exits_1(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    cut = tmp_path / "cut.ndjson"
    cut.write_bytes(b"".join(capture(PROBE_43).read_bytes().splitlines(keepends=True)[:3]))
    tmux.start(viewer_line(shlex.quote(str(cut)), exit_file))
    tmux.wait_for(lambda s: "stream ended without a result" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 1


def test_empty_pipe_says_so_and_exits_2(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line("", exit_file, stdin_from="true"))
    tmux.wait_for(lambda s: "input is empty" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 2


def test_a_file_of_blank_lines_is_refused_before_the_viewer_opens(
    tmux: Tmux, tmp_path: Path
) -> None:
    exit_file = tmp_path / "exit"
    blank = tmp_path / "blank.ndjson"
    blank.write_bytes(b"\n   \n\r\n")
    tmux.start(viewer_line(shlex.quote(str(blank)), exit_file))
    assert wait_exit(exit_file) == 2
    screen = tmux.wait_for(lambda s: "only blank lines" in s)
    assert "Transcript" not in screen


def test_follow_a_file_that_grows(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    lines = capture(PROBE_43).read_bytes().splitlines(keepends=True)
    growing = tmp_path / "growing.ndjson"
    growing.write_bytes(b"".join(lines[:3]))
    tmux.start(viewer_line(f"--follow {shlex.quote(str(growing))}", exit_file))
    tmux.wait_for(lambda s: "running" in s and "notes.txt" in s)
    with growing.open("ab") as handle:
        handle.write(b"".join(lines[3:]))
    screen = tmux.wait_for(lambda s: "✓ success in 9.9s" in s)
    assert "READ-OK" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_tab_enter_opens_a_call_and_escape_returns(tmux: Tmux, tmp_path: Path) -> None:
    exit_file = tmp_path / "exit"
    path = capture(PROBE_43)
    tmux.start(viewer_line(shlex.quote(str(path)), exit_file))
    tmux.wait_for(lambda s: "✓ success in 9.9s" in s)
    tmux.keys("Tab")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "Transcript" not in s and "notes.txt" in s)
    assert "read" in screen
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Transcript" in s and "✓ success in 9.9s" in s)
    tmux.keys("l")
    tmux.wait_for(lambda s: "Transcript" not in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "Transcript" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_a_long_answer_streams_in_and_the_keys_never_wait_for_it(
    tmux: Tmux, tmp_path: Path
) -> None:
    """A 90 KB code fence, streamed in 300 deltas: followed live, then searchable and scrollable."""
    code = "".join(f"def handler_{n}(event):\n    return process(event)\n\n" for n in range(1_500))
    answer = "Here is the whole module:\n\n```python\n" + code + "```\n\nThat is all of it."
    step = len(answer) // 300 + 1
    records: list[dict[str, object]] = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "GPT-5", "cwd": "/w"},
        {"type": "user", "message": {"content": [{"type": "text", "text": "go"}]}},
    ]
    records += [
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": answer[start : start + step]}]},
            "timestamp_ms": 1_789_650_000_000 + start,
        }
        for start in range(0, len(answer), step)
    ]
    records += [
        {"type": "assistant", "message": {"content": [{"type": "text", "text": answer}]}},
        {"type": "result", "subtype": "success", "duration_ms": 5, "result": "ok"},
    ]
    path = tmp_path / "long-answer.ndjson"
    path.write_bytes(b"".join(orjson.dumps({**r, "session_id": "s"}) + b"\n" for r in records))
    exit_file = tmp_path / "exit"
    source = producer(tmp_path, path, delay=0.005, linger=60)
    tmux.start(viewer_line("", exit_file, stdin_from=source))
    screen = tmux.wait_for(lambda s: "✓ success" in s and "That is all of it." in s)
    assert "laying out" not in screen
    tmux.keys("Home")
    tmux.wait_for(lambda s: "Here is the whole module:" in s)
    tmux.keys("/")
    tmux.keys("-l", "handler_1499(")
    tmux.keys("Enter")
    screen = tmux.wait_for(lambda s: "“handler_1499(” 1/1" in s)
    assert "def handler_1499(event):" in screen
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
