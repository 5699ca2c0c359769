"""``streamview FILE`` on a finished recording, in a real terminal (tmux): the tool table
opens on call #1, at the top and highlighted, every time (issue 21.1 follows the
newest call for a live run only); a pipe of the same bytes follows the newest call.

The highlight is read from the screen's colours (``capture-pane -e``): the row the
cursor is on is drawn on a background no other row has.
"""

from __future__ import annotations

import re
import shlex
import shutil
import time
from pathlib import Path

import pytest

from streamview.core.reader import fold

from .terminal import REPO, Tmux, viewer_line

LONG_RUN = REPO / "recordings" / "long-run.ndjson"
OPENINGS = 3

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

TITLE = re.compile(r"Tool calls \((\d+)\)")
ROW = re.compile(r"^│\s+(\d+) ")
SGR = re.compile(r"\x1b\[([0-9;]*)m")
LOADED = re.compile(r"event ([\d,]+) of \1\b")
"""The playback bar once the whole file is read and indexed (at its end)."""
CALLS = len(fold([LONG_RUN.read_bytes()]).sessions[-1].tool_calls)
"""The recording's tool calls, as the core counts them."""


def rows_and_backgrounds(escaped: str) -> list[tuple[int, str | None]]:
    """The tool table's rows on screen, top to bottom: ``(call number, background
    the number is drawn on)``, read from ``capture-pane -e`` output (an attribute set
    on one line holds on the next until changed)."""
    background: str | None = None
    rows: list[tuple[int, str | None]] = []
    in_table = False
    for line in escaped.splitlines():
        text = SGR.sub("", line)
        if TITLE.search(text):
            in_table = True
        found = ROW.match(text) if in_table else None
        digit_at = found.start(1) if found else -1
        column = 0
        number_bg: str | None = None
        # SGR.split alternates text and an SGR's parameters: odd items are parameters.
        for index, part in enumerate(SGR.split(line)):
            if index % 2:
                background = apply_sgr(part, background)
                continue
            if column <= digit_at < column + len(part):
                number_bg = background
            column += len(part)
        if found:
            rows.append((int(found[1]), number_bg))
    return rows


def apply_sgr(parameters: str, background: str | None) -> str | None:
    """The background after one SGR sequence's ``parameters``."""
    codes = parameters.split(";") if parameters else ["0"]
    index = 0
    while index < len(codes):
        code = codes[index]
        if code in ("", "0", "49"):
            background = None
        elif code == "48" and index + 1 < len(codes):
            width = 3 if codes[index + 1] == "5" else 5
            background = ";".join(codes[index : index + width])
            index += width - 1
        elif code in ("38", "58") and index + 1 < len(codes):
            index += 2 if codes[index + 1] == "5" else 4
        index += 1
    return background


def open_viewer(tmux: Tmux, tmp_path: Path, stdin_from: str | None = None) -> str:
    """Start the viewer (on the file, or on ``stdin_from``'s pipe) and wait until the
    whole run is read; the screen with its colours."""
    args = "" if stdin_from else shlex.quote(str(LONG_RUN))
    tmux.start(viewer_line(args, tmp_path / "exit", stdin_from=stdin_from))
    if stdin_from is None:
        tmux.wait_for(lambda s: LOADED.search(s) is not None and TITLE.search(s) is not None)
    else:
        tmux.wait_for(lambda s: "success in" in s and TITLE.search(s) is not None)
    time.sleep(0.5)  # anything still to come would move the cursor by now
    return tmux.tmux("capture-pane", "-p", "-e")


def test_a_finished_file_opens_on_call_1_highlighted_every_time(tmux: Tmux, tmp_path: Path) -> None:
    for opening in range(OPENINGS):
        screen = open_viewer(tmux, tmp_path)
        rows = rows_and_backgrounds(screen)
        assert len(rows) >= 5, screen
        numbers = [number for number, _ in rows]
        assert numbers[:5] == [1, 2, 3, 4, 5], f"opening {opening}: rows {numbers}"
        cursor_bg = rows[0][1]
        assert all(bg != cursor_bg for _, bg in rows[1:]), f"opening {opening}: {rows}"
        assert len({bg for _, bg in rows[1:]}) == 1  # the other rows: one background
        tmux.keys("q")
        tmux.tmux("kill-session")


def test_a_pipe_of_the_same_run_follows_its_newest_call(tmux: Tmux, tmp_path: Path) -> None:
    screen = open_viewer(tmux, tmp_path, stdin_from=f"cat {shlex.quote(str(LONG_RUN))}")
    title = TITLE.search(SGR.sub("", screen))
    assert title is not None
    rows = rows_and_backgrounds(screen)
    assert int(title[1]) == CALLS
    assert rows and rows[-1][0] == CALLS, rows
    assert all(bg != rows[-1][1] for _, bg in rows[:-1]), rows


def test_a_playback_key_makes_the_table_follow_the_playhead(tmux: Tmux, tmp_path: Path) -> None:
    """Half way (``5``): the table shows the newest call of the run as it stood there,
    highlighted; ``G``: the run's last call."""
    screen = open_viewer(tmux, tmp_path)
    assert rows_and_backgrounds(screen)[0][0] == 1
    tmux.keys("5")
    tmux.wait_for(lambda s: "‖ paused at event" in s)
    time.sleep(0.5)
    screen = tmux.tmux("capture-pane", "-p", "-e")
    title = TITLE.search(SGR.sub("", screen))
    assert title is not None
    half = int(title[1])
    rows = rows_and_backgrounds(screen)
    assert 1 < half < CALLS and rows[-1][0] == half, rows
    assert all(bg != rows[-1][1] for _, bg in rows[:-1]), rows
    tmux.keys("G")
    tmux.wait_for(lambda s: LOADED.search(s) is not None and "paused at" not in s)
    time.sleep(0.5)
    rows = rows_and_backgrounds(tmux.tmux("capture-pane", "-p", "-e"))
    assert rows[-1][0] == CALLS and all(bg != rows[-1][1] for _, bg in rows[:-1]), rows
