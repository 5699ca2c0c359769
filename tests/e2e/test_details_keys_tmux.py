"""In a real terminal, a call's details and a line of the event log scroll with less's
keys: ``G`` shows the last line, ``g`` the first, ``j``/``k`` move one line; one Escape
closes one level and ``q`` quits from there."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import time
from pathlib import Path

import pytest

from .terminal import Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

LINES = 300
ENTRY = "line 4 · unknown · plasma"
"""The title of the event log's entry screen for the unknown record."""


def long_run(path: Path) -> Path:
    """A shell call printing ``out 000`` … ``out 299``, then a record nobody knows of
    200 fields (``field_000`` … ``field_199``: the event log's entry is long too)."""
    output = "".join(f"out {n:03d}\n" for n in range(LINES))
    args = {"command": f"seq {LINES}"}
    done = {"args": args, "result": {"success": {"stdout": output, "exitCode": 0}}}
    records = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "cwd": "/w"},
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "c",
            "tool_call": {"shellToolCall": {"args": args}},
        },
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "c",
            "tool_call": {"shellToolCall": done},
        },
        {"type": "plasma", **{f"field_{n:03d}": n for n in range(200)}},
        {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 5},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def steady(tmux: Tmux, unlike: str | None = None) -> str:
    """The screen once two captures 0.3 s apart agree (a key's scroll has ended); with
    ``unlike``, first wait until the screen is no longer that one (the key was read: on a
    busy machine the screen before it could hold still for 0.3 s)."""
    previous = tmux.screen() if unlike is None else tmux.wait_for(lambda s: s != unlike)
    while True:
        time.sleep(0.3)
        screen = tmux.screen()
        if screen == previous:
            return screen
        previous = screen


def numbers(screen: str, word: str) -> list[int]:
    """The numbers of the ``word NNN`` rows on screen, top to bottom."""
    return [int(n) for n in re.findall(re.escape(word) + r"(\d{3})\b", screen)]


@pytest.mark.parametrize("size", [(80, 24), (200, 50)])
def test_g_G_j_k_scroll_the_details_and_a_log_line_as_in_less(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    tmux = Tmux(*size)
    try:
        exit_file = tmp_path / "exit"
        tmux.start(viewer_line(shlex.quote(str(long_run(tmp_path / "run.ndjson"))), exit_file))
        tmux.wait_for(lambda s: "✓ success" in s)
        tmux.keys("Tab", "Enter")
        tmux.wait_for(lambda s: "Close" in s and "out 000" in s)
        tmux.keys("G")
        tmux.wait_for(lambda s: numbers(s, "out ")[-1:] == [LINES - 1])
        bottom = numbers(steady(tmux), "out ")
        assert bottom and bottom[-1] == LINES - 1
        tmux.keys("g")
        tmux.wait_for(lambda s: "out 000" in s and f"out {LINES - 1}" not in s)
        top = steady(tmux)
        assert "out 000" in top and f"out {LINES - 1}" not in top
        tmux.keys("j", "j", "j")
        down = steady(tmux, unlike=top)
        assert down.splitlines()[3:] != top.splitlines()[3:]
        tmux.keys("k", "k", "k")
        tmux.wait_for(lambda s: s == top)  # three down, three up: where it was
        assert steady(tmux) == top
        tmux.keys("Escape")  # one level: the viewer
        tmux.wait_for(lambda s: "Tool calls" in s and "Close" not in s)
        tmux.keys("l")
        tmux.wait_for(lambda s: "unknown" in s and "plasma" in s)
        steady(tmux)
        tmux.keys("Enter")
        tmux.wait_for(lambda s: ENTRY in s and '"field_000"' in s)
        tmux.keys("G")
        tmux.wait_for(lambda s: numbers(s, "field_")[-1:] == [199])
        end = steady(tmux)
        assert numbers(end, "field_")[-1] == 199, end
        tmux.keys("g", "j")
        tmux.wait_for(lambda s: numbers(s, "field_")[:1] == [0])
        after_j_screen = steady(tmux)
        after_j = numbers(after_j_screen, "field_")
        tmux.keys("k")
        after_k = numbers(steady(tmux, unlike=after_j_screen), "field_")
        assert after_k[0] == 0 and after_j[0] == 0 and after_j[-1] == after_k[-1] + 1
        tmux.keys("Escape")  # one level: back to the log
        tmux.wait_for(lambda s: "plasma" in s and ENTRY not in s)
        steady(tmux)
        tmux.keys("Enter")
        tmux.wait_for(lambda s: ENTRY in s)
        tmux.keys("q")  # quits from the line of the log
        assert wait_exit(exit_file) == 0
    finally:
        tmux.kill()
