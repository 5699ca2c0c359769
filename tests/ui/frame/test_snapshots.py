"""What the viewer looks like, as SVG snapshots at fixed sizes with a fixed clock.

Regenerate with ``pytest tests/ui/test_snapshots.py --snapshot-update`` and look at
the pictures (``tests/ui/__snapshots__/``) before committing them.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from textual.pilot import Pilot

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, ScriptedSource, capture, lines_of, settle, wait_for

PARALLEL = "reifying_cursor-hack__experiments_parallel-sleep.jsonl"
READ_EDIT = "hcn_2026.09.10_probe-13_read-edit-composer.ndjson"
SHELL_REJECTED = "hcn_2026.09.15_probe-15s_shell-rejected.ndjson"
SHELL_OK = "hcn_2026.09.15_probe-52s_shell-success-crlf.ndjson"
DENIALS = "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"

Snap = Callable[..., bool]


def settled(extra: Callable[[Pilot[Any]], Awaitable[None]] | None = None) -> Any:
    """A ``run_before`` that waits for the whole file, then does ``extra``."""

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        if extra is not None:
            await extra(pilot)
        await pilot.pause()

    return run_before


def file_app(path: Path, **options: Any) -> StreamviewApp:
    """The viewer on a recorded file with the fixed clock."""
    return StreamviewApp(FileSource(path), clock=FakeClock(), **options)


def test_run_in_progress(snap_compare: Snap) -> None:
    """Live run quiet 8 s: `sleep 4` ✓, `sleep 6` … running 12.0s, "idle 8s since last event"."""
    clock = FakeClock()
    lines = lines_of(PARALLEL)
    source = ScriptedSource(lines[:3])
    app = StreamviewApp(source, clock=clock)

    async def run_before(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: app.state.counts.total == 3)
        source.push(b"".join(lines[3:5]))  # both calls start
        await wait_for(pilot, lambda: app.state.counts.total == 5)
        clock.advance(4_000)
        source.push(lines[5])  # `sleep 4` completes
        await wait_for(pilot, lambda: app.state.counts.total == 6)
        clock.advance(8_000)
        app.tick()
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_success(snap_compare: Snap) -> None:
    """Finished run: thinking, a read and an edit (both ✓), DONE; green success status."""
    assert snap_compare(file_app(capture(READ_EDIT)), terminal_size=(80, 24), run_before=settled())


def test_error_result(snap_compare: Snap, tmp_path: Path) -> None:
    """A result with is_error: red "✗ error after 4.1s · …" status, the shell call ✓."""
    lines = lines_of(SHELL_OK)[:-1]
    result = orjson.loads(lines_of(SHELL_OK)[-1])
    result.update(subtype="error", is_error=True, result="model quota exceeded")
    result["duration_ms"] = 4100
    path = tmp_path / "error.ndjson"
    path.write_bytes(b"".join(lines) + orjson.dumps(result) + b"\n")
    assert snap_compare(file_app(path), terminal_size=(80, 24), run_before=settled())


def test_incomplete(snap_compare: Snap, tmp_path: Path) -> None:
    """Cut stream: both sleeps ⚠ interrupted, "⚠ stream ended without a result · 2 calls…"."""
    path = tmp_path / "cut.ndjson"
    path.write_bytes(b"".join(lines_of(PARALLEL)[:5]))
    assert snap_compare(file_app(path), terminal_size=(80, 24), run_before=settled())


def test_rejected_calls(snap_compare: Snap) -> None:
    """Denied shell and web fetch calls marked ⊘ rejected (with the reason) in both panes."""
    assert snap_compare(
        file_app(capture(SHELL_REJECTED)), terminal_size=(80, 24), run_before=settled()
    )


def test_narrow_terminal(snap_compare: Snap) -> None:
    """60x20: header, transcript, table and status still fit, cut with … not wrapped."""
    assert snap_compare(file_app(capture(DENIALS)), terminal_size=(60, 20), run_before=settled())


def test_wide_terminal(snap_compare: Snap) -> None:
    """200x60: transcript left, tool calls right, nothing cut."""
    assert snap_compare(file_app(capture(DENIALS)), terminal_size=(200, 60), run_before=settled())


def test_light_theme(snap_compare: Snap) -> None:
    """textual-light: the success run readable on a light background."""
    assert snap_compare(
        file_app(capture(READ_EDIT), theme="textual-light"),
        terminal_size=(80, 24),
        run_before=settled(),
    )


def test_thinking_hidden(snap_compare: Snap) -> None:
    """After t: no thinking blocks, only the answer and the tool markers; the pane's title
    says "thinking hidden (t)"."""

    async def hide(pilot: Pilot[Any]) -> None:
        await pilot.press("t")
        await pilot.pause(1.7)  # let the "thinking hidden" toast go

    assert snap_compare(
        file_app(capture(READ_EDIT)), terminal_size=(80, 24), run_before=settled(hide)
    )


def test_search_highlight(snap_compare: Snap) -> None:
    """Search "example": every match tinted, the current one solid, "“example” 4/4" in status."""

    async def search(pilot: Pilot[Any]) -> None:
        await pilot.press("slash", *"example", "enter")

    assert snap_compare(
        file_app(capture(SHELL_REJECTED)), terminal_size=(80, 24), run_before=settled(search)
    )


def test_help_screen(snap_compare: Snap) -> None:
    """The ? screen: every key, by section, in a box over the dimmed app."""

    async def help_(pilot: Pilot[Any]) -> None:
        await pilot.press("question_mark")

    assert snap_compare(
        file_app(capture(READ_EDIT)), terminal_size=(100, 32), run_before=settled(help_)
    )


def test_two_sessions(snap_compare: Snap, tmp_path: Path) -> None:
    """Two runs in one file: the newest shown, "2/2" in the header, "[ ] Session" in the footer."""
    path = tmp_path / "two.ndjson"
    path.write_bytes(capture(SHELL_OK).read_bytes() + capture(READ_EDIT).read_bytes())
    assert snap_compare(file_app(path), terminal_size=(80, 24), run_before=settled())


def test_long_answer_being_laid_out(snap_compare: Snap, tmp_path: Path) -> None:
    """A long answer while the layout thread works: one dim "· laying out N characters…"
    line in its place, the rest of the screen as usual."""
    from ..transcript.test_transcript_layout import HeldLayouts, long_answer

    records = [
        {"type": "system", "subtype": "init", "session_id": "s", "model": "GPT-5", "cwd": "/w"},
        {"type": "user", "message": {"content": [{"type": "text", "text": "write it up"}]}},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": long_answer("")}]}},
        {"type": "result", "subtype": "success", "duration_ms": 1200, "result": "ok"},
    ]
    path = tmp_path / "long.ndjson"
    path.write_bytes(b"".join(orjson.dumps({**r, "session_id": "s"}) + b"\n" for r in records))
    app = file_app(path)
    app.transcript._layouts = HeldLayouts()  # the layout never comes back

    async def loaded(pilot: Pilot[Any]) -> None:
        await wait_for(pilot, lambda: app.state.ended)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=loaded)


RECORDINGS = Path(__file__).resolve().parents[3] / "recordings"


def test_filtered_and_sorted_calls(snap_compare: Snap) -> None:
    """tab, F, s: only the failed calls, slowest first; the title says "Tool calls 5 of
    175 · failed · slowest first"; the cursor row is the slowest failure."""

    async def filter_and_sort(pilot: Pilot[Any]) -> None:
        await pilot.press("tab", "F", "s")

    assert snap_compare(
        file_app(RECORDINGS / "long-run.ndjson"),
        terminal_size=(100, 32),
        run_before=settled(filter_and_sort),
    )


def test_search_reaching_the_tool_calls(snap_compare: Snap) -> None:
    """/jitter: the answer's matches tinted, the first from the top of the view current
    ("“jitter” 6/15 · 6 in tool calls" in the status)."""

    async def search(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, StreamviewApp)
        await pilot.press("slash", *"jitter", "enter")
        await wait_for(pilot, lambda: bool(app.call_hits))
        await wait_for(pilot, lambda: app.transcript.search_progress is None)

    assert snap_compare(
        file_app(RECORDINGS / "success-multi-tool.ndjson"),
        terminal_size=(100, 32),
        run_before=settled(search),
    )


def test_a_miss_said_in_the_status_bar(snap_compare: Snap) -> None:
    """/zebra: "no match for “zebra”" at the right of the status bar, no toast over it."""

    async def search(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, StreamviewApp)
        await pilot.press("slash", *"zebra", "enter")
        await wait_for(pilot, lambda: app.search_note is not None)

    assert snap_compare(
        file_app(RECORDINGS / "success-multi-tool.ndjson"),
        terminal_size=(100, 32),
        run_before=settled(search),
    )
