"""The export dialog's path: ready to edit at its end, whatever order events come in."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from streamview.sources import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.export_dialog import ExportDialog

from ..conftest import RECORDINGS, FakeClock, settle, wait_for


async def test_focus_coming_back_does_not_select_what_was_typed() -> None:
    """Textual's input selects all its text on each focus: with the path half typed,
    focus leaving and coming back (a toast, another screen) let the next key replace
    everything typed. The dialog means the cursor to wait at the end."""
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        field = app.screen.query_one("#export-path", Input)
        await wait_for(pilot, lambda: field.has_focus)
        await pilot.press("ctrl+u", *"/tmp/from-pa")
        field.blur()
        field.focus()  # the late focus event
        await pilot.pause()
        await pilot.press(*"lette.md")
        assert field.value == "/tmp/from-palette.md"
        await pilot.press("escape")


async def test_a_typed_path_is_where_the_export_goes(tmp_path: Path) -> None:
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        target = tmp_path / "typed.md"
        await pilot.press("ctrl+u", *str(target), "enter")
        await wait_for(pilot, target.is_file)
        assert "Root cause" in target.read_text()
