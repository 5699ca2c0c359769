"""The export dialog's path: ready to edit at its end, whatever order events come in."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.export_dialog import ExportDialog
from tests.html_export.page_check import check_page

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
        await wait_for(pilot, lambda: target.with_suffix(".html").is_file())
        assert "Root cause" in target.read_text()
        # The page beside it: the run's ten calls, nothing but our own tags.
        page = check_page(target.with_suffix(".html").read_text(encoding="utf-8"))
        assert len(page.details) == 10


def hint(app: StreamviewApp) -> str:
    return str(app.screen.query_one("#export-hint", Static).render())


async def test_an_existing_export_is_not_overwritten_without_a_second_enter(
    tmp_path: Path,
) -> None:
    """The dialog says the files exist; Enter again overwrites both."""
    target = tmp_path / "report.md"
    target.write_text("my notes", encoding="utf-8")
    target.with_suffix(".svg").write_text("<svg/>", encoding="utf-8")
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        await pilot.press("ctrl+u", *str(target), "enter")
        await pilot.pause(0.3)
        assert isinstance(app.screen, ExportDialog)  # still asking
        assert "report.md and report.svg exist: enter overwrites them" in hint(app)
        assert target.read_text(encoding="utf-8") == "my notes"
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Root cause" in target.read_text(encoding="utf-8"))
        assert target.with_suffix(".svg").read_text(encoding="utf-8").startswith("<svg")
        assert target.with_suffix(".svg").stat().st_size > 1000


async def test_another_name_typed_after_the_warning_keeps_the_old_files(tmp_path: Path) -> None:
    """An SVG alone in the way counts too; typing another name takes the warning
    back, and the export goes to the new name."""
    old = tmp_path / "report.md"
    old.with_suffix(".svg").write_text("<svg>mine</svg>", encoding="utf-8")
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        await pilot.press("ctrl+u", *str(old), "enter")
        await pilot.pause(0.3)
        assert "report.svg exists: enter overwrites it · type another name" in hint(app)
        await pilot.press("backspace", "backspace", "backspace", *"-2.md")
        assert hint(app) == "enter: save · escape: cancel"
        await pilot.press("enter")
        fresh = tmp_path / "report-2.md"
        await wait_for(pilot, fresh.is_file)
        assert fresh.with_suffix(".svg").is_file()
        assert not old.exists()
        assert old.with_suffix(".svg").read_text(encoding="utf-8") == "<svg>mine</svg>"


async def test_the_dialog_fits_an_80_column_terminal_and_still_asks() -> None:
    """At 80x24 the box was 90 wide: its right border and the path's end were off
    screen. It fits now, and typing and the overwrite warning still work."""
    app = StreamviewApp(FileSource(RECORDINGS / "success-multi-tool.ndjson"), clock=FakeClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        box = app.screen.query_one("#export-box")
        field = app.screen.query_one("#export-path", Input)
        assert box.region.x >= 0 and box.region.right <= 80, box.region
        assert field.region.right <= box.region.right
        await pilot.press("escape")
        assert not isinstance(app.screen, ExportDialog)


def test_the_warning_names_every_file_in_the_way(tmp_path: Path) -> None:
    from streamview.ui.frame.export_dialog import existing_files, overwrite_warning

    target = tmp_path / "and.md"
    for suffix in (".md", ".svg", ".html"):
        target.with_suffix(suffix).write_text("mine", encoding="utf-8")
    warning = overwrite_warning(existing_files(target))
    assert warning.startswith("and.md, and.svg and and.html exist: enter overwrites them")
