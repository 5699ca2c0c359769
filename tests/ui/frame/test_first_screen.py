"""The first screen waits for nothing it does not show (issue 21).

``bench/first_screen.py`` times it against a bare Textual app; these tests keep what
made it fast from being undone without anyone noticing, without timing anything: the
modules only other screens and modes need are not imported when the viewer starts on
a file, and no lexer thread competes with the first screen.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from streamview.sources.base import FileSource
from streamview.ui.frame import opening
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text import highlight
from streamview.ui.transcript.block_layout import BlockLayout

from ..conftest import settle, wait_for

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"

NOT_FOR_THE_FIRST_SCREEN = (
    "streamview.cli.fronts",  # --json, --print
    "streamview.cli.events_front",
    "streamview.cli.run",
    "streamview.cli.runs",
    "streamview.fronts.serve",
    "streamview.sources.replay",
    "streamview.fronts.events_api",
    "streamview.ui.details.handoff",  # o, p: the editor and the pager
    "streamview.core.editor_argv",
    "streamview.ui.details.screen",  # enter on a call
    "streamview.ui.details.views",
    "streamview.ui.log.event_log",  # l
    "streamview.ui.frame.commands",  # the palette, ?
    "streamview.ui.frame.help",
    "streamview.ui.frame.export_dialog",
    "streamview.ui.frame.svg_export",
    "streamview.sources.process",  # streamview run: the agent, its group, the recorder
    "streamview.sources.agent_group",
    "streamview.runs.recording",
    "streamview.core.markdown_export",  # x
    "streamview.core.dialects.claude",  # a Cursor file needs no other dialect
    "streamview.core.dialects.codex",
    "streamview.core.dialects.gemini",
    "streamview.core.dialects.opencode",
    "streamview.core.dialects.claude_like",
)
"""Modules only other screens, keys, modes or agents need."""

STARTS_THE_VIEWER = textwrap.dedent(
    """
    import asyncio, json, sys
    from pathlib import Path

    from streamview.cli import view  # what `streamview FILE` imports, in its order
    from streamview.ui.frame import launch
    from streamview.sources.base import FileSource
    from streamview.ui.playback.feed import PlaybackFeed

    imported = sorted(sys.modules)
    source = FileSource(Path(sys.argv[1]))
    feed = PlaybackFeed(source)  # as cli.view builds it for a FILE
    app = launch.StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)

    async def first_screen() -> None:
        async with app.run_test(headless=True, size=(120, 40)) as pilot:
            while not (app.state.ended and app.session_index is not None):
                await pilot.pause(0.02)
            await pilot.pause(0.1)
        feed.stop(timeout=0.5)

    asyncio.run(first_screen())
    print(json.dumps({"imported": imported, "shown": sorted(sys.modules)}))
    """
)


def started_viewer_modules(tmp_path: Path) -> dict[str, list[str]]:
    """A fresh interpreter starts the viewer on the recording, headless, until its
    first screen is up: the modules imported by then, and before the app ran."""
    done = subprocess.run(
        [sys.executable, "-c", STARTS_THE_VIEWER, str(RECORDING)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": str(tmp_path), "HOME": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, list[str]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_first_screen_imports_only_what_it_shows(tmp_path: Path) -> None:
    modules = started_viewer_modules(tmp_path)
    # The check can see: the panes of the first screen are there.
    for needed in ("streamview.ui.transcript.transcript", "streamview.ui.calls.table"):
        assert needed in modules["imported"]
    for name in NOT_FOR_THE_FIRST_SCREEN:
        assert name not in modules["shown"], f"{name} imported before the first screen"
    # No lexer is imported at start (rich.syntax brings Pygments' registry, not lexers).
    lexers = [name for name in modules["imported"] if name.startswith("pygments.lexers.")]
    assert lexers == ["pygments.lexers._mapping"]


async def test_no_lexer_is_built_while_the_first_screen_is_painted(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lexer built on its thread holds the interpreter's lock as the UI thread paints:
    the recording's Python block is coloured only a while after its session is first on
    screen (its frame, and the next one as the panes' heights settle, are painted)."""
    monkeypatch.setattr(highlight, "DEFER", True)
    monkeypatch.setattr(highlight, "_ready", set())
    monkeypatch.setattr(highlight, "_building", set())
    monkeypatch.setattr(highlight, "_held", None)
    events: dict[str, float] = {}
    start = highlight._start

    def started(key: tuple[str, str]) -> None:
        events.setdefault("lexer", time.monotonic())
        start(key)

    monkeypatch.setattr(highlight, "_start", started)
    source = FileSource(RECORDING)
    feed = PlaybackFeed(source)
    app = StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms)
    show_session = app.show_session

    def shown(index: int) -> None:
        events.setdefault("session shown", time.monotonic())
        show_session(index)

    monkeypatch.setattr(app, "show_session", shown)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: "lexer" in events)
        await settle(pilot)
    waited = events["lexer"] - events["session shown"]
    assert waited >= opening.HIGHLIGHT_AFTER_SECONDS


class FirstFrameApp(StreamviewApp):
    """The viewer, noting what its first frame showed: the session on show then."""

    first_frame: list[int | None]

    def on_mount(self) -> None:
        self.first_frame = []
        self.call_after_refresh(self._first_frame_painted)

    def _first_frame_painted(self) -> None:
        self.first_frame.append(self.session_index)

    def _display(self, screen: Any, renderable: Any) -> None:
        """The first screen update composed: were the answer's last lines in it?"""
        if renderable is not None and not hasattr(self, "tail_on_first_frame"):
            entries = self.transcript._entries
            self.tail_on_first_frame = bool(entries) and entries[-1].lines is not None
        super()._display(screen, renderable)


def viewer_on(path: Path) -> FirstFrameApp:
    source = FileSource(path)
    feed = PlaybackFeed(source)  # as `streamview FILE` builds it
    return FirstFrameApp(source, feed=feed, clock=feed.recorded_now_ms)


async def test_a_small_file_is_on_the_first_frame() -> None:
    """Folded before the first frame (a few ms): no empty panes are painted first."""
    app = viewer_on(RECORDING)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.first_frame == [0]
        assert app.tail_on_first_frame
        assert app.state.ended


async def test_a_big_file_is_read_after_the_first_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the limit the window comes first and the loader's thread reads the file."""
    monkeypatch.setattr(opening, "FOLD_AT_ONCE_BYTES", RECORDING.stat().st_size - 1)
    app = viewer_on(RECORDING)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.first_frame == [None]
        assert app.session_index == 0 and app.state.ended


async def test_the_transcript_lays_out_nothing_before_it_has_a_width(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first frame comes before the transcript's first resize: laying the answer
    out then, at no width, was thrown away at once (a Markdown layout for nothing); the
    first frame lays it out at the width the pane has, and shows its end."""
    widths: list[int] = []
    answer = BlockLayout.answer

    def noted(self: BlockLayout, *args: Any) -> Any:
        widths.append(args[-1])
        return answer(self, *args)

    monkeypatch.setattr(BlockLayout, "answer", noted)
    app = viewer_on(RECORDING)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "parameter later." in "\n".join(app.transcript.plain_lines())
    assert widths and min(widths) > 0
