"""Following a live run and a replay in the real viewer, in a real terminal (tmux),
with the keys in a person's order: the tool table keeps the newest call in view while
the run streams, stays where the person puts it, and End resumes; during a playing
replay End follows the playhead while G goes to the end, and End when paused goes there
too; the playback bar and the status line count the same lines the same."""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line

LONG_RUN = REPO / "recordings" / "long-run.ndjson"

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

PRODUCER = """\
import sys, time
for line in open(sys.argv[1], "rb"):
    sys.stdout.buffer.write(line)
    sys.stdout.buffer.flush()
    time.sleep(float(sys.argv[2]))
time.sleep(120)
"""
"""Prints a recording line by line, at most 1 / argv[2] lines a second, then stays open."""

AGENT = PRODUCER.replace("time.sleep(120)\n", "")
"""The same as an agent `streamview run` starts: it ends when the recording does."""

PACE = "0.004"
"""Seconds between lines: about 250 lines (10 calls) a second, so that the 4,224 lines of
the recording last 17 s while each wait for 8 more calls takes under a second (at 100
lines a second the first test took 25 s on a busy machine)."""

TITLE = re.compile(r"Tool calls \((\d+)\)")
ROW = re.compile(r"^│\s+(\d+) ", re.MULTILINE)
POSITION = re.compile(r"([▶‖]) \S+x · event ([\d,]+) of ([\d,]+)")


def table(screen: str) -> tuple[int, list[int]]:
    """``(calls in the title, call numbers of the rows on screen)``."""
    title = TITLE.search(screen)
    assert title is not None, screen
    pane = screen[title.end() :]
    return int(title[1]), [int(n) for n in ROW.findall(pane)]


def newest_in_view(screen: str) -> bool:
    total, rows = table(screen)
    return bool(rows) and rows[-1] == total


def wait_more_calls(tmux: Tmux, than: int) -> str:
    return tmux.wait_for(lambda s: TITLE.search(s) is not None and table(s)[0] > than + 8)


def test_the_tool_table_follows_a_piped_run_until_moved_and_end_resumes(
    tmux: Tmux, tmp_path: Path
) -> None:
    script = tmp_path / "slowcat.py"
    script.write_text(PRODUCER)
    python = shlex.quote(sys.executable)
    source = f"{python} {shlex.quote(str(script))} {shlex.quote(str(LONG_RUN))} {PACE}"
    tmux.start(viewer_line("", tmp_path / "exit", stdin_from=source))
    screen = tmux.wait_for(lambda s: TITLE.search(s) is not None and table(s)[0] >= 20)
    screen = wait_more_calls(tmux, table(screen)[0])
    assert newest_in_view(screen), screen  # not rows 1-10 while the title counts on
    # Tab into the table, one row up: it stays there while the run goes on.
    tmux.keys("Tab")  # keys are read in order: Up goes to the table
    tmux.keys("Up")
    held = table(tmux.wait_for(lambda s: not newest_in_view(s)))[1]
    screen = wait_more_calls(tmux, table(tmux.screen())[0])
    assert table(screen)[1] == held and not newest_in_view(screen)
    # End in the table follows again.
    tmux.keys("End")
    screen = wait_more_calls(tmux, table(tmux.screen())[0])
    tmux.wait_for(newest_in_view)
    # Back to the transcript; a page up while it streams: the table stays with it.
    tmux.keys("BTab")
    tmux.keys("PPage")
    # (The table goes with the call the transcript shows; it no longer chases the end.)
    screen = wait_more_calls(tmux, table(tmux.screen())[0])
    screen = wait_more_calls(tmux, table(screen)[0])
    total, rows = table(screen)
    assert rows and rows[-1] < total - 10, screen
    # End in the transcript: both follow the run again.
    tmux.keys("End")
    wait_more_calls(tmux, table(tmux.screen())[0])
    tmux.wait_for(newest_in_view)
    tmux.keys("q")


def position(screen: str) -> tuple[str, int, int]:
    match = POSITION.search(screen)
    assert match is not None, screen
    return match[1], int(match[2].replace(",", "")), int(match[3].replace(",", ""))


def test_end_during_a_playing_replay_follows_the_playhead_and_g_goes_to_the_end(
    tmux: Tmux, tmp_path: Path
) -> None:
    args = f"--replay -s 10 {shlex.quote(str(LONG_RUN))}"
    tmux.start(viewer_line(args, tmp_path / "exit"))
    tmux.wait_for(lambda s: POSITION.search(s) is not None and position(s)[1] > 60)
    tmux.keys("Up")
    tmux.wait_for(lambda s: "paused (f)" in s or "new content (f)" in s)
    tmux.keys("End")
    mark, at, total = position(tmux.wait_for(lambda s: "(f)" not in s))
    assert mark == "▶" and at < total // 2, "End kept playing from where it was"
    tmux.wait_for(lambda s: position(s)[1] > at + 20 and "(f)" not in s)  # following it
    tmux.keys("G")
    tmux.wait_for(lambda s: position(s)[1] == position(s)[2] == total)
    tmux.keys("q")


def test_the_tool_table_follows_the_agent_streamview_runs_until_moved(
    tmux: Tmux, tmp_path: Path
) -> None:
    """The same in run mode (`streamview run -- agent`): the newest call is in view
    while the agent prints; Up in the table holds the rows; End follows again."""
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    python = shlex.quote(sys.executable)
    agent = f"{python} {shlex.quote(str(script))} {shlex.quote(str(LONG_RUN))} {PACE}"
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    tmux.start(viewer_line(f"run -- {agent}", tmp_path / "exit", env=env))
    screen = tmux.wait_for(lambda s: TITLE.search(s) is not None and table(s)[0] >= 20)
    screen = wait_more_calls(tmux, table(screen)[0])
    assert "agent running" in screen and newest_in_view(screen), screen
    tmux.keys("Tab")  # keys are read in order: Up goes to the table
    tmux.keys("Up")
    held = table(tmux.wait_for(lambda s: not newest_in_view(s)))[1]
    screen = wait_more_calls(tmux, table(tmux.screen())[0])
    assert table(screen)[1] == held and not newest_in_view(screen), screen
    tmux.keys("End")
    wait_more_calls(tmux, table(tmux.screen())[0])
    tmux.wait_for(newest_in_view)
    tmux.keys("C-c")  # stop the agent: the viewer stays, on the calls it got
    tmux.wait_for(lambda s: "stopped by streamview" in s and "Tool calls (" in s)
    tmux.keys("q")


def test_end_when_paused_goes_to_the_end_of_the_run(tmux: Tmux, tmp_path: Path) -> None:
    """Paused mid-replay there is no playhead to follow: End takes it to 100 %."""
    args = f"--replay -s 10 {shlex.quote(str(LONG_RUN))}"
    tmux.start(viewer_line(args, tmp_path / "exit"))
    tmux.wait_for(lambda s: POSITION.search(s) is not None and position(s)[1] > 60)
    tmux.keys("Space")
    screen = tmux.wait_for(lambda s: position(s)[0] == "‖")
    _, at, total = position(screen)
    assert at < total // 2
    tmux.keys("End")
    tmux.wait_for(lambda s: position(s) == ("‖", total, total))
    tmux.keys("q")


LINES = re.compile(r"  ([\d,]+) lines\b")


def status_lines(screen: str) -> int | None:
    """The lines the status line counts (the line above the footer), if it says."""
    rows = screen.rstrip("\n").splitlines()
    found = LINES.search(rows[-2]) if len(rows) > 2 else None
    return int(found[1].replace(",", "")) if found else None


def test_the_playback_bar_and_the_status_line_count_alike_at_each_pause(
    tmux: Tmux, tmp_path: Path
) -> None:
    """One event a line in this recording: paused anywhere, "event N of M" and
    "N lines" read one number (they counted different things under one word)."""
    args = f"--replay -s 10 {shlex.quote(str(LONG_RUN))}"
    tmux.start(viewer_line(args, tmp_path / "exit"))
    total = len(LONG_RUN.read_bytes().splitlines())
    seen = set()
    for wait in (60, 200, 400):
        tmux.wait_for(lambda s, w=wait: POSITION.search(s) is not None and position(s)[1] > w)
        tmux.keys("Space")  # pause: the screen holds still
        # Paused, the status line catches up with the bar (one frame) and both hold still.
        tmux.wait_for(lambda s: position(s)[0] == "‖" and status_lines(s) == position(s)[1])
        screen = tmux.screen()
        _, at, of = position(screen)
        assert of == total and status_lines(screen) == at, screen
        seen.add(at)
        tmux.keys("Space")  # play on

    def there(key: str, at: int) -> bool:
        return {"G": at == total, "5": abs(at - total // 2) < total // 10, ",": at == last - 1}[key]

    last = 0
    for key in ("G", "5", ","):  # the end, half-way, one back
        tmux.keys(key)
        screen = tmux.wait_for(
            lambda s, k=key: there(k, position(s)[1]) and status_lines(s) == position(s)[1]
        )
        _, at, _ = position(screen)
        assert status_lines(screen) == at, screen
        seen.add(at)
        last = at
    assert len(seen) == 6
    tmux.keys("q")
