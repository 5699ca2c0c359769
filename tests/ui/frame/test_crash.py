"""An unhandled exception in the viewer (issue 26, point 3): the app leaves with 70,
never 0, keeps the traceback off the terminal, and the one line streamview prints is
safe; ctrl+z is a key of the help. (The real process in tmux, with the terminal given
back: tests/e2e/test_ways_out_tmux.py.)"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest

from streamview.core.exit_status import EXIT_SOFTWARE
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.commands import viewer_help
from streamview.ui.frame.crash import Crash, report, thread_hook

from ..conftest import FakeClock, settle, wait_for

REPO = Path(__file__).resolve().parents[3]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"


class FailingApp(StreamviewApp):
    """The viewer with ``t`` made to fail, as a bug in an action would."""

    def action_toggle_thinking(self) -> None:
        raise KeyError("x")


async def test_an_exception_in_an_action_ends_the_viewer_with_70() -> None:
    app = FailingApp(FileSource(RECORDING), clock=FakeClock())
    with pytest.raises(KeyError):  # Pilot re-raises what the app met, after it left
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("t")
            await wait_for(pilot, lambda: app.crash is not None)
    assert app.return_code == EXIT_SOFTWARE
    assert app.crash is not None and app.crash.summary == "KeyError: 'x'"
    assert 'raise KeyError("x")' in app.crash.details
    assert not app._exit_renderables  # no traceback printed on the terminal


async def test_a_thread_that_dies_ends_the_viewer_as_a_crash() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    previous = threading.excepthook
    threading.excepthook = thread_hook(app)
    try:
        with pytest.raises(ValueError):
            async with app.run_test(size=(100, 30)) as pilot:
                await settle(pilot)

                def die() -> None:
                    raise ValueError("reader broke")

                threading.Thread(target=die).start()
                await wait_for(pilot, lambda: app.crash is not None)
    finally:
        threading.excepthook = previous
    assert app.return_code == EXIT_SOFTWARE
    assert app.crash is not None and app.crash.summary == "ValueError: reader broke"


def test_the_line_is_one_safe_line_and_the_traceback_a_private_file(tmp_path: Path) -> None:
    try:
        raise RuntimeError("bad \x1b]52;c;aGk=\x07 record\nsecond line")
    except RuntimeError as error:
        crash = Crash.of(error)
    line = report(crash, tmp_path / "crashes")
    assert "\n" not in line and "\x1b" not in line and "\x07" not in line
    assert line.startswith("internal error: RuntimeError: bad ")
    assert "record second line" in line
    (saved,) = (tmp_path / "crashes").iterdir()
    assert line.endswith(f"(details in {saved})")
    assert "Traceback" in saved.read_text() and "RuntimeError" in saved.read_text()
    assert stat.S_IMODE(os.stat(saved).st_mode) == 0o600


def test_an_unwritable_state_dir_falls_back_or_says_why(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    crash = Crash("KeyError: 'x'", "Traceback ...")
    line = report(crash, blocked / "crashes")
    assert line.startswith("internal error: KeyError: 'x' (")
    assert "details in" in line or "could not be saved" in line


def test_ctrl_z_is_in_the_help() -> None:
    app = StreamviewApp(FileSource(RECORDING), clock=FakeClock())
    rows = [row for section in viewer_help(app) for row in section.rows]
    assert any("ctrl+z" in str(row) and "suspend" in str(row) for row in rows), rows


def test_a_crash_of_the_run_viewer_is_70_whatever_the_agent_did() -> None:
    from streamview.cli.run import run_exit_code

    class FailedAgent:
        exit_code = 3
        lingered = False

    assert run_exit_code(1, FailedAgent()) == 3  # type: ignore[arg-type]
    assert run_exit_code(EXIT_SOFTWARE, FailedAgent()) == EXIT_SOFTWARE  # type: ignore[arg-type]
