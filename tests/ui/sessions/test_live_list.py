"""The sessions list while runs go on: three agents' files appended at once, their
states change in the list as the files grow; a run that finishes or waits for the
person is marked and rings the bell once; ctrl+l shows only the live runs."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from streamview.runs.session_discovery import discover
from streamview.runs.session_live import LiveTracker
from streamview.ui.sessions.list_app import (
    ACTIVITY_COLUMN,
    ATTENTION_MARK,
    LIVE_MARK,
    MARK_COLUMN,
    SessionsApp,
)
from streamview.ui.sessions.runs_table import RunsTable
from tests.sessions.live_lines import ThreeRuns
from tests.ui.conftest import wait_for


async def test_three_runs_change_live_and_the_ones_that_need_you_ring(tmp_path: Path) -> None:
    """Claude, Codex and Gemini sessions appended at once: each row says its call, then
    Claude's question and the others' finished turns, marked ◆ with the bell rung once
    a poll (not again for lines that change nothing); the cursor on a marked run clears
    its mark; ctrl+l leaves the live runs only. (Measured: each change shown 0.49-0.50 s
    after the append, the poll being every 0.5 s.)"""
    runs = ThreeRuns(tmp_path)
    runs.start(time.time())
    env = runs.env()
    app = SessionsApp(lambda: discover(env=env), refresh_seconds=None, bell=True)
    rang: list[float] = []
    app.bell = lambda: rang.append(time.monotonic())  # type: ignore[method-assign]

    def cell(agent: str, column: int) -> str:
        table = app.query_one("#runs", RunsTable)
        return str(table.get_cell(str(runs.files[agent]), column))

    def states() -> dict[str, str]:
        return {agent: cell(agent, ACTIVITY_COLUMN) for agent in runs.files}

    async with app.run_test(size=(140, 20)) as pilot:
        await wait_for(pilot, lambda: app.loaded and len(app.shown) == 4)
        await wait_for(pilot, lambda: all(s.startswith("thinking") for s in states().values()))
        runs.work(time.time())
        await wait_for(pilot, lambda: all(": " in said for said in states().values()))
        said = states()
        assert said["claude"].startswith("shell: npm test ")
        assert said["codex"].startswith("shell: pytest -q ")
        assert said["gemini"].startswith("glob: **/*.py ")
        assert not rang
        runs.need_you(time.time())
        await wait_for(
            pilot,
            lambda: (
                "npm test" not in str(states())
                and "pytest" not in str(states())
                and "glob" not in str(states())
            ),
        )
        assert states() == {
            "claude": "needs you: AskUserQuestion",
            "codex": "✓ finished",
            "gemini": "✓ finished",
        }
        assert {cell(agent, MARK_COLUMN) for agent in runs.files} == {ATTENTION_MARK}
        assert 1 <= len(rang) <= 3  # once a poll that brought news, never per repaint
        heard = len(rang)
        runs.chatter(time.time())
        size = runs.files["codex"].stat().st_size
        await wait_for(pilot, lambda: app.tracker.offset(runs.files["codex"]) == size)
        await pilot.pause(0.1)  # that poll shown: no bell again
        assert len(rang) == heard
        table = app.query_one("#runs", RunsTable)
        top = str(app.shown[0].path)
        await pilot.press("down", "up")  # the cursor on a marked run: looked at
        assert str(table.get_cell(top, MARK_COLUMN)) == LIVE_MARK
        assert len(app.shown) == 4
        await pilot.press("ctrl+l")
        await wait_for(pilot, lambda: len(app.shown) == 3)
        assert runs.old not in {entry.path for entry in app.shown}


def test_the_bell_is_off_in_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``sessions_bell = false`` in settings.toml: the list rings for nothing."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    (tmp_path / "streamview").mkdir()
    (tmp_path / "streamview" / "settings.toml").write_text("sessions_bell = false\n")
    assert SessionsApp(lambda: []).bell_on is False
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "none"))
    assert SessionsApp(lambda: []).bell_on is True


async def test_a_run_that_waits_while_another_is_open_is_marked_when_the_list_comes_back(
    tmp_path: Path,
) -> None:
    """`streamview sessions` shows a new list after each run the person opened, with the
    same tracker and marks: a run that started waiting or finished while the viewer was
    open is news when the list comes back. The tracker is handed over when it holds no
    run yet too (a tracker with none is falsy: ``tracker or LiveTracker()`` gave each
    list its own, which read every run afresh as its past and marked nothing)."""
    runs = ThreeRuns(tmp_path)
    runs.start(time.time())
    env = runs.env()
    tracker = LiveTracker()
    marked: set[Path] = set()

    def listed() -> SessionsApp:
        return SessionsApp(
            lambda: discover(env=env), refresh_seconds=None, tracker=tracker, attention=marked
        )

    first = listed()
    async with first.run_test(size=(140, 20)) as pilot:
        await wait_for(pilot, lambda: first.loaded and len(first.shown) == 4)
        runs.work(time.time())
        await wait_for(
            pilot,
            lambda: all(
                (state := tracker.state(path)) is not None and state.calls
                for path in runs.files.values()
            ),
        )
    assert first.tracker is tracker
    runs.need_you(time.time())  # while the person looks at another run
    again = listed()
    async with again.run_test(size=(140, 20)) as pilot:
        table = again.query_one("#runs", RunsTable)

        def marks() -> set[str]:
            return {str(table.get_cell(str(path), MARK_COLUMN)) for path in runs.files.values()}

        await wait_for(pilot, lambda: again.loaded and marks() == {ATTENTION_MARK})
    assert marked == set(runs.files.values())
