"""Settings that persist: the theme picked, thinking hidden and the filter survive a
restart, in a TOML file in the user's config directory; flags win; a broken file is
reported and ignored."""

from __future__ import annotations

import tomllib
from pathlib import Path

from streamview.config.settings import Settings, settings_path
from streamview.sources.base import FileSource
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
    assert saved["filter_run"] == str(CLAUDE.resolve())  # the run it was set on
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


async def test_a_broken_file_is_kept_beside_before_a_toggle_writes_new_settings() -> None:
    """The person's file had a syntax error; pressing t (a setting that persists) keeps
    it byte for byte beside the new one, and the viewer says where."""
    path = settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    broken = 'theme = "textual-light"\n[cwd_map\n"/home/dev" = "/work"\n'
    path.write_text(broken)
    app = viewer()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")  # thinking hidden: saved
        await pilot.pause()
        messages = [str(n.message) for n in app._notifications]
    kept = sorted(path.parent.glob("settings.toml.broken-*"))
    assert len(kept) == 1 and kept[0].read_text() == broken
    assert tomllib.loads(path.read_text())["show_thinking"] is False
    assert any(f"kept it as {kept[0]}" in message for message in messages)
    again = viewer()  # the file is good now: the next save keeps nothing more
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await pilot.pause()
    assert len(list(path.parent.glob("settings.toml.broken-*"))) == 1


def test_a_second_broken_file_never_overwrites_the_first_backup(tmp_path: Path) -> None:
    path = tmp_path / "settings.toml"
    for text in ("a = [\n", "b = {\n"):
        path.write_text(text)
        settings = Settings()
        assert settings.save(path) is None and settings.kept_as is not None
    kept = sorted(p.read_text() for p in tmp_path.glob("settings.toml.broken-*"))
    assert kept == ["a = [\n", "b = {\n"]


def test_the_cwd_map_written_by_hand_survives_the_viewers_saves(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('theme = "x"\n\n[cwd_map]\n"/home/dev/src" = "/work/src"\n')
    loaded, problem = Settings.load(path)
    assert problem is None and loaded.cwd_map == {"/home/dev/src": "/work/src"}
    loaded.show_thinking = False
    assert loaded.save(path) is None and loaded.kept_as is None
    again, _ = Settings.load(path)
    assert again.cwd_map == {"/home/dev/src": "/work/src"} and again.show_thinking is False


RECORDINGS = REPO / "recordings"
WITH_EDITS = RECORDINGS / "success-multi-tool.ndjson"
NO_EDITS = RECORDINGS / "denied-tools.ndjson"


async def test_a_filter_belongs_to_its_run_another_run_opens_unfiltered() -> None:
    """K until edit on a run with edits, quit, open a run with none: all its calls show;
    open the first run again: its filter is back."""
    first = StreamviewApp(FileSource(WITH_EDITS), clock=FakeClock())
    async with first.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("tab")
        for _ in range(12):
            if first.tool_table.call_filter.kind == "edit":
                break
            await pilot.press("K")
        assert first.tool_table.border_title == "Tool calls 2 of 10 · edit"
    other = StreamviewApp(FileSource(NO_EDITS), clock=FakeClock())
    async with other.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert other.tool_table.border_title == "Tool calls (5)"
        assert other.tool_table.row_count == 5
    again = StreamviewApp(FileSource(WITH_EDITS), clock=FakeClock())
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert again.tool_table.border_title == "Tool calls 2 of 10 · edit"


async def test_a_filter_that_keeps_nothing_says_so_and_how_to_show_all() -> None:
    """The run's file was rewritten with a run that has no edits: the saved filter
    applies to it, and the body says what is filtered and that escape shows all."""
    Settings(filter_kind="edit", filter_run=str(NO_EDITS.resolve())).save()
    app = StreamviewApp(FileSource(NO_EDITS), clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        table = app.tool_table
        assert table.border_title == "Tool calls 0 of 5 · edit"
        assert table.render_line(1).text.strip() == "no edit calls · esc shows all 5"
        await pilot.press("tab", "escape")
        await pilot.pause()
        assert table.row_count == 5


async def test_a_pipe_never_overwrites_a_runs_filter() -> None:
    """A filter set on a pipe lives as long as the pipe: the file's filter stays saved."""
    from ..conftest import ScriptedSource

    Settings(filter_status="failed", filter_run=str(WITH_EDITS.resolve())).save()
    source = ScriptedSource([NO_EDITS.read_bytes()])
    source.close()
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert app.tool_table.border_title == "Tool calls (5)"
        await pilot.press("tab", "F", "F")
        await pilot.pause()
        assert app.tool_table.call_filter.status == "rejected"
    saved, _ = Settings.load()
    assert saved.filter_status == "failed" and saved.filter_run == str(WITH_EDITS.resolve())


def test_a_settings_path_that_is_no_file_is_refused_at_once(tmp_path: Path) -> None:
    """``/dev/zero`` took 7.7 GB in 15 s and a FIFO hung before the first frame (issue
    26.9b): settings are a regular file of at most 1 MiB, else ignored with the reason,
    and never written over."""
    import os

    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    cases = [
        (fifo, "it is a named pipe (FIFO), not a regular file"),
        (zero, "it is a character device, not a regular file"),
        (tmp_path, "it is a directory, not a regular file"),
        (big, "it is over 1 MiB, not a settings file"),
    ]
    for path, why in cases:
        settings, problem = Settings.load(path)
        assert settings == Settings()
        assert problem == f"ignoring {path}: {why} (nothing is saved over it)"
        assert Settings(theme="x").save(path) == f"not saving settings to {path}: {why}"
    assert zero.is_symlink() and big.stat().st_size == 2 << 20
    good = tmp_path / "settings.toml"
    good.write_text('theme = "textual-light"\n')
    assert Settings.load(good) == (Settings(theme="textual-light"), None)
