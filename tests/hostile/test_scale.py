"""The size of a single thing: huge lines, results, answers, call counts, session counts."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import orjson
import pytest

from streamview.ui.calls.table import ToolCallTable

from . import streams
from .helpers import assert_no_traceback, run_cli
from .mutate import expected_total
from .tui import make_app, screen_problems, settled, wait_until

CASES: dict[str, Callable[[], Iterator[bytes]]] = {
    "line-50mb": lambda: streams.huge_line_stream(50_000_000),
    "output-1m-lines": lambda: streams.million_line_output_stream(1_000_000),
    "answer-10mb": lambda: streams.big_answer_stream(10_000_000),
    "calls-10k": lambda: streams.many_calls_stream(10_000),
    "sessions-100": lambda: streams.many_sessions_stream(100),
    "odd-lines-20mb": lambda: streams.huge_odd_lines_stream(20_000_000),
}


@pytest.fixture(scope="module")
def scale_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the big files, shared by the tests of this module."""
    return tmp_path_factory.mktemp("scale")


def scale_file(folder: Path, name: str) -> Path:
    """The file of case ``name``, written once."""
    path = folder / f"{name}.ndjson"
    if not path.exists():
        streams.write_lines(path, CASES[name]())
    return path


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
def test_json_summary_at_scale(scale_dir: Path, name: str) -> None:
    """``--json`` folds each case: exit 0, every line counted, the right shape found."""
    path = scale_file(scale_dir, name)
    done = run_cli("--json", str(path), timeout=300)
    assert_no_traceback(done.stderr)
    assert done.returncode == 0, done.stderr.decode()[-500:]
    summary = orjson.loads(done.stdout)
    lines = summary["lines"]
    assert lines["total"] == expected_total(path.read_bytes())
    odd = name == "odd-lines-20mb"
    assert (lines["malformed"], lines["unknown"]) == ((1, 1) if odd else (0, 0))
    sessions = summary["sessions"]
    if name == "sessions-100":
        assert len(sessions) == 100
        assert [s["session_id"] for s in sessions] == [f"session-{n}" for n in range(100)]
    elif name == "calls-10k":
        calls = sessions[0]["tool_calls"]
        assert len(calls) == 10_000
        assert {call["status"] for call in calls} == {"succeeded"}
    elif name == "output-1m-lines":
        assert sessions[0]["tool_calls"][0]["summary"] == "exit 0, 1,000,000 lines"
    elif name == "answer-10mb":
        assert len(sessions[0]["text"]) == 10_000_000 + len("done")


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CASES))
async def test_viewer_at_scale(scale_dir: Path, name: str) -> None:
    """Each case opens headless; keys, the first call's detail and the event log work."""
    path = scale_file(scale_dir, name)
    app = make_app(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await settled(pilot, timeout=240)
        counts = app.state.counts
        assert counts.total == expected_total(path.read_bytes())
        assert counts.events == counts.total - (2 if name == "odd-lines-20mb" else 0)
        for key in ("end", "pagedown", "pageup", "home", "[", "]"):
            await pilot.press(key)
            await pilot.pause()
        assert app.session_index is not None
        if app.state.sessions[app.session_index].tool_calls:
            main = app.screen
            app.post_message(ToolCallTable.OpenDetail(0))
            await wait_until(pilot, lambda: app.screen is not main, 60)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), 120)
            await pilot.press("end")
            await pilot.pause()
            assert screen_problems(app, svg=False) == []
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is main, 60)
        main = app.screen
        await pilot.press("l")
        await wait_until(pilot, lambda: app.screen is not main, 60)
        for key in ("end", "enter"):
            await pilot.press(key)
            await pilot.pause(0.5)
        assert screen_problems(app, svg=False) == []
        await pilot.press("escape", "escape")
        await wait_until(pilot, lambda: app.screen is main, 60)
        assert screen_problems(app) == []
