"""The run's summary screen (``S``): what it shows of a recording, and when it opens by
itself: once at the end of a replay, never for a file opened at its end, a toast at the
end of a live run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.summary_screen import SummaryScreen
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import RECORDINGS, FakeClock, ScriptedSource, settle, wait_for
from .pilot_helpers import screen_lines

RECORDING = RECORDINGS / "success-multi-tool.ndjson"
SIZE = (120, 40)


def recorded_facts(path: Path) -> tuple[list[tuple[str, int, int]], list[tuple[str, int]]]:
    """Each edit's file name with its +/- lines, each command with its exit code, as
    the recording's JSON has them."""
    edits, commands = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        call = record.get("tool_call", {})
        if record.get("subtype") != "completed":
            continue
        if "editToolCall" in call:
            done = call["editToolCall"]["result"]["success"]
            name = Path(call["editToolCall"]["args"]["path"]).name
            edits.append((name, done["linesAdded"], done["linesRemoved"]))
        if "shellToolCall" in call:
            body = call["shellToolCall"]
            code = next(iter(body["result"].values()))["exitCode"]
            commands.append((body["args"]["command"], code))
    return edits, commands


def on_top(app: StreamviewApp) -> bool:
    return isinstance(app.screen, SummaryScreen)


def kept_toasts(app: StreamviewApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every toast the app shows from now on, as text."""
    said: list[str] = []
    shown = app.notify

    def keep(message: Any, *args: Any, **kwargs: Any) -> None:
        said.append(str(message))
        shown(message, *args, **kwargs)

    monkeypatch.setattr(app, "notify", keep)
    return said


async def test_s_opens_the_summary_of_a_file_and_closes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file opened at its end shows no summary by itself, nor a toast; S shows the
    outcome, each edited file with its +/- lines and each command with its exit code;
    S or escape closes it."""
    edits, commands = recorded_facts(RECORDING)
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    said = kept_toasts(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.pause(0.1)
        assert not on_top(app)
        assert not [s for s in said if s.startswith("run ended")]
        await pilot.press("S")
        await wait_for(pilot, lambda: on_top(app))
        body = app.screen.query_one("#summary-body")
        await wait_for(pilot, lambda: body.size.height > 5)
        text = screen_lines(body)
        assert text[0].startswith("success in ")
        assert f"Files changed ({len(edits)})" in text
        assert f"Commands run ({len(commands)})" in text
        for name, added, removed in edits:
            row = next(line for line in text if name in line)
            assert row.split()[-2:] == [f"+{added}", f"-{removed}"]
        for command, code in commands:
            row = next(line for line in text if line.endswith(command))
            assert f"exit {code}" in row
        await pilot.press("S")
        await wait_for(pilot, lambda: not on_top(app))
        await pilot.press("S")
        await wait_for(pilot, lambda: on_top(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not on_top(app))


async def test_a_replay_shows_its_summary_once_at_its_end() -> None:
    """``--replay`` played to its end opens the summary; closed, a second play to the
    end (r) does not bring it back."""
    source = FileSource(RECORDING)
    feed = PlaybackFeed(source, playing=True, speed=1000.0, idle_limit=0.05)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: on_top(app), timeout=15)
        assert feed.position == feed.total
        await pilot.press("escape")
        await wait_for(pilot, lambda: not on_top(app))
        first = app.state
        await pilot.press("r")  # played again from the start: a new fold, ended again
        await wait_for(pilot, lambda: app.state is not first and app.state.ended, 15)
        await pilot.pause(0.2)
        assert not on_top(app)


async def test_a_live_run_ends_without_covering_its_status(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At the end of a live run nothing opens and no toast covers the status line, which
    says the outcome; S still opens the summary."""
    source = ScriptedSource(RECORDING.read_bytes().splitlines(keepends=True))
    app = StreamviewApp(source, clock=FakeClock())
    said = kept_toasts(app, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        source.close()
        await settle(pilot)
        await pilot.pause(0.2)
        assert not on_top(app) and not said
        await pilot.press("S")
        await wait_for(pilot, lambda: on_top(app))


def test_a_refused_call_keeps_its_mark_and_kind_whole_beside_a_long_target() -> None:
    """The denied-tools recording at the summary's width: each refused call reads
    ``⊘ webFetch`` and its command ``⊘ rejected``, not ``⊘ we…`` and ``⊘ r…`` (a grid
    that shares the width gives the long target everything)."""
    from rich.console import Console

    from streamview.core.reader import fold
    from streamview.core.run_summary import run_summary
    from streamview.core.state import StreamState
    from streamview.ui.frame.summary_screen import summary_renderable

    state = fold([(RECORDINGS / "denied-tools.ndjson").read_bytes()], StreamState())
    summary = run_summary(state)
    console = Console(width=96, record=True, color_system=None)
    console.print(summary_renderable(summary))
    lines = console.export_text().splitlines()
    failed = lines[lines.index("Failed or refused (4)") + 1 :][:4]
    kinds = [call.kind for call in summary.failed]
    assert [line.split()[:2] for line in failed] == [["⊘", kind] for kind in kinds]
    command = lines[lines.index("Commands run (1)") + 1]
    assert command.startswith("⊘ rejected  curl ")
