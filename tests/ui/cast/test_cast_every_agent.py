"""``--export-cast`` of one run per agent, played back in a terminal emulator (pyte) as a
player would: the header names the agent, the status bar counts every line read, and
the last frame shows the run's summary with the headline the core gives. Fast
(speed 1000, idle limit 0.1 s: a few frames each) and small."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pyte
import pytest

from streamview.core.dialects import label_of
from streamview.core.reader import fold
from streamview.core.run_summary import run_summary
from streamview.sources.base import FileSource
from streamview.ui.cast.export import export_cast
from tests.agent_runs import demo_recordings, one_run_per_agent, run_id

from .test_cast_export import DRAWING, UNSAFE

RUNS = one_run_per_agent() + demo_recordings()
SIZE = (100, 30)


@pytest.mark.parametrize(("agent", "path"), RUNS, ids=[run_id(run) for run in RUNS])
def test_each_agents_cast_plays_to_its_summary(agent: str, path: Path) -> None:
    out = io.StringIO()
    stats = export_cast(FileSource(path), out, size=SIZE, speed=1000.0, idle_limit=0.1, agent=agent)
    header_line, *lines = out.getvalue().splitlines()
    header = json.loads(header_line)
    assert (header["width"], header["height"]) == SIZE
    assert header["title"].startswith("streamview: ") and not UNSAFE.search(header["title"])
    events = [json.loads(line) for line in lines]
    assert len(events) == stats.frames >= 2
    screen = pyte.Screen(*SIZE)
    stream = pyte.Stream(screen)
    first: list[str] = []
    for _, kind, data in events:
        assert kind == "o"
        assert not UNSAFE.search(DRAWING.sub("", data))
        stream.feed(data)
        first = first or list(screen.display)
    label = label_of(agent)
    assert label and first[0].lstrip().startswith(label), first[0]
    rows = [row.strip() for row in screen.display]
    state = fold([path.read_bytes()], agent=agent)
    summary = run_summary(state)
    assert any(re.fullmatch(r"╭─ run summary ─+╮", row) for row in rows), rows
    assert any(row.strip("│ ") == summary.headline() for row in rows), summary.headline()
    # Every line read: the status bar counts them (the playback bar may be under the summary).
    lines = len([line for line in path.read_bytes().splitlines() if line.strip()])
    assert re.search(rf"\b{lines:,} lines?\b", rows[-2]), (lines, rows[-2])
