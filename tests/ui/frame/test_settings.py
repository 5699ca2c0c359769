"""Settings that persist: the theme picked, thinking hidden and the filter survive a
restart, in a TOML file in the user's config directory; flags win; a broken file is
reported and ignored."""

from __future__ import annotations

import tomllib
from pathlib import Path

from streamview.settings import Settings, settings_path
from streamview.sources import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle

REPO = Path(__file__).resolve().parents[3]
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def viewer(theme: str | None = None) -> StreamviewApp:
    return StreamviewApp(FileSource(CLAUDE), clock=FakeClock(), theme=theme)


async def test_theme_thinking_and_filter_survive_a_restart(private_settings: Path) -> None:
    app = viewer()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.theme = "textual-light"  # what the palette's theme picker sets
        await pilot.press("t")  # thinking hidden
        await pilot.press("tab", "F")  # failed calls only
        await pilot.pause()
    saved = tomllib.loads(settings_path().read_text())
    assert str(settings_path()).startswith(str(private_settings))
    assert saved["theme"] == "textual-light"
    assert saved["show_thinking"] is False
    assert saved["filter_status"] == "failed"
    again = viewer()
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert again.theme == "textual-light"
        assert again.transcript.show_thinking is False
        assert again.tool_table.border_title == "Tool calls 1 of 8 · failed"


async def test_a_flag_wins_over_the_saved_theme() -> None:
    Settings(theme="textual-light").save()
    app = viewer(theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"


async def test_a_broken_settings_file_is_reported_and_the_defaults_used() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("theme = [unclosed\n")
    app = viewer()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.transcript.show_thinking is True
        assert any(str(n.message).startswith("ignoring ") for n in app._notifications)


def test_strings_round_trip_through_the_file(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    wanted = Settings(theme='we"ird\\theme', filter_text="a\nb", filter_kind="shell")
    assert wanted.save(path) is None
    loaded, problem = Settings.load(path)
    assert problem is None and loaded == wanted
