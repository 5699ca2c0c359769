"""Stream text on the surfaces Textual parses as markup: toasts and border titles
(issue 26, point 3), and the clipboard (point 2).

Each test presses the key a person would (``c``, ``K``, ``o``, ``/``, ``x``) on a
stream whose fields hold markup (``[@click=app.screenshot(...)]``, ``[/nope]``) or
escapes, and checks that the viewer is still there, that the toast or title shows the
text as it is, and that no action the stream chose ran.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.geometry import Offset, Region
from textual.pilot import Pilot
from textual.widgets._toast import Toast

from streamview.sources.base import FileSource
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details import handoff
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.export_dialog import ExportDialog
from tests.hostile.streams import _head, _tail, dumps, text_message, tool_record

from ..conftest import FakeClock, settle, wait_for

VICTIM = "victim.txt"


CLICK = f"[@click=app.screenshot('{VICTIM}','.')]CLICKME[/]"
"""Markup that, live, saves a screenshot over ``./victim.txt`` when clicked."""


def shell(call_id: str, command: str) -> dict[str, Any]:
    result = {"success": {"exitCode": 0, "stdout": "ok\n", "stderr": ""}}
    return tool_record("completed", call_id, "shellToolCall", {"command": command}, result)


def write_stream(path: Path, calls: list[dict[str, Any]], sessions: int = 1) -> Path:
    """A finished run (or ``sessions`` of them) holding ``calls``."""
    lines = [b"".join(_head()) + b"".join(dumps(call) for call in calls) + b"".join(_tail())]
    for number in range(1, sessions):
        session = f"other-{number}"
        said = text_message("assistant", "[/q] in the other session", session_id=session)
        lines.append(b"".join(_head(session)) + dumps(said) + b"".join(_tail(session)))
    path.write_bytes(b"".join(lines))
    return path


def toasts(app: StreamviewApp) -> list[str]:
    """The text the toasts on screen show, as painted."""
    shown = []
    for toast in app.screen.query(Toast):
        shown.append("".join(toast.render_line(y).text for y in range(toast.size.height)))
    return shown


def squash(text: str) -> str:
    """``text`` without its spaces: a toast wraps long text at spaces, and drops them."""
    return "".join(text.split())


def toast_text(app: StreamviewApp) -> str:
    """All toasts' text, without spaces (see :func:`squash`)."""
    return squash("".join(toasts(app)))


def table_title(app: StreamviewApp) -> str:
    """The tool table's border title, as it is painted (not its markup)."""
    title = app.tool_table._border_title
    return title.plain if title is not None else ""


def live_cells(app: StreamviewApp, region: Region) -> list[Offset]:
    """The cells of ``region`` (screen cells) that a click would run an action from."""
    return [
        Offset(x, y)
        for y in range(region.y, region.bottom)
        for x in range(region.x, region.right)
        if "@click" in (app.screen.get_style_at(x, y).meta or {})
    ]


async def open_on(pilot: Pilot[Any], row: int) -> StreamviewApp:
    """Settle, focus the tool table and put its cursor on ``row``."""
    app = pilot.app
    assert isinstance(app, StreamviewApp)
    await settle(pilot)
    await pilot.press("tab")
    await wait_for(pilot, lambda: isinstance(app.focused, ToolCallTable))
    await pilot.press("home", *["down"] * row)
    await pilot.pause()
    return app


async def test_c_on_a_command_with_click_markup_copies_it_literally_and_no_click_runs_it(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.chdir(tmp_path)
    victim = tmp_path / VICTIM
    victim.write_text("mine", encoding="utf-8")
    command = CLICK
    app = StreamviewApp(
        FileSource(write_stream(tmp_path / "s.ndjson", [shell("c1", command)])), clock=FakeClock()
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("c")
        await wait_for(pilot, lambda: "CLICKME" in toast_text(app))
        assert app.clipboard == command
        assert squash(f"Copied command {CLICK}") in toast_text(app)
        toast = app.screen.query(Toast).last()
        assert not live_cells(app, toast.region)
        # A click on the word: live, it saved a screenshot over the victim; inert, it
        # closes the toast.
        row = next(y for y in range(toast.size.height) if "CLICKME" in toast.render_line(y).text)
        column = toast.render_line(row).text.index("CLICKME") + 2
        at = toast.content_region.offset - toast.region.offset + Offset(column, row)
        await pilot.click(toast, offset=at)
        await wait_for(
            pilot,
            lambda: not app.screen.query(Toast) or victim.read_text(encoding="utf-8") != "mine",
        )
        assert app.is_running
    assert victim.read_text(encoding="utf-8") == "mine"


async def test_c_on_a_command_holding_a_closing_tag_shows_it_and_the_viewer_stays(
    tmp_path: Path,
) -> None:
    command = "grep '[/nope]' notes.txt"
    app = StreamviewApp(
        FileSource(write_stream(tmp_path / "s.ndjson", [shell("c1", command)])), clock=FakeClock()
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(toasts(app)))
        assert app.is_running
        assert squash("Copied command grep '[/nope]' notes.txt") in toast_text(app)
        assert app.clipboard == command


async def test_c_copies_a_command_without_its_escapes_and_says_so_and_marks_its_lines(
    tmp_path: Path,
) -> None:
    """OSC 52 and the bracketed-paste end marker in a command: the toast shows neither
    (as escapes: only their pictures), the clipboard gets the command without them,
    and the toast says characters were left out and that the command has two lines."""
    command = "echo hi\x1b]52;c;SGVsbG8=\x07\x1b[201~\x07\u202e\x9b\nrm -rf ~/work"
    app = StreamviewApp(
        FileSource(write_stream(tmp_path / "s.ndjson", [shell("c1", command)])), clock=FakeClock()
    )
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("c")
        await wait_for(pilot, lambda: bool(toasts(app)))
        assert app.clipboard == "echo hi\nrm -rf ~/work"
        shown = toast_text(app)
        assert squash("2-line command") in shown
        assert squash("control characters left out") in shown
        assert not any(char in shown for char in "\x1b\x07\x9b\u202e")


async def test_k_on_a_tool_named_like_markup_titles_the_table_literally(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """``[/k]`` crashed the viewer from the title and the toast; click markup was live."""
    monkeypatch.chdir(tmp_path)
    victim = tmp_path / VICTIM
    victim.write_text("mine", encoding="utf-8")
    named = CLICK
    calls = [
        tool_record("completed", "c1", "[/k]ToolCall", {"x": 1}, {"success": {}}),
        tool_record("completed", "c2", f"{named}ToolCall", {"x": 1}, {"success": {}}),
    ]
    app = StreamviewApp(FileSource(write_stream(tmp_path / "s.ndjson", calls)), clock=FakeClock())
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("K")
        await wait_for(pilot, lambda: "[/k]" in table_title(app))
        assert squash("[/k]: 1 of 2 calls") in toast_text(app)
        await pilot.press("K")  # the next kind: the click markup
        await wait_for(pilot, lambda: "CLICKME" in table_title(app))
        assert table_title(app) == f"Tool calls 1 of 2 · {named}"
        assert app.is_running
        region = app.tool_table.region
        assert not live_cells(app, Region(region.x, region.y, region.width, 1))  # the title
    assert victim.read_text(encoding="utf-8") == "mine"
    # The filter is remembered for this run: the next viewer titles the table with it.
    again = StreamviewApp(FileSource(tmp_path / "s.ndjson"), clock=FakeClock())
    async with again.run_test(size=(160, 40), notifications=True) as pilot:
        await settle(pilot)
        await wait_for(pilot, lambda: "CLICKME" in table_title(again))
        assert table_title(again) == f"Tool calls 1 of 2 · {named}"


async def test_o_on_a_path_holding_a_closing_tag_says_so_literally(tmp_path: Path) -> None:
    path = "/nowhere/[/x]/parse.py"
    read = tool_record(
        "completed", "c1", "readToolCall", {"path": path}, {"success": {"content": "x"}}
    )
    app = StreamviewApp(FileSource(write_stream(tmp_path / "s.ndjson", [read])), clock=FakeClock())
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("o")
        await wait_for(pilot, lambda: bool(toasts(app)))
        assert app.is_running
        assert squash(path) in toast_text(app)


async def test_o_says_which_file_it_opened_literally(tmp_path: Path, monkeypatch: Any) -> None:
    """The note after the editor: the path as it is, with its ``[/x]``."""
    target = tmp_path / "[" / "x]" / "parse.py"
    target.parent.mkdir(parents=True)
    target.write_text("print()\n", encoding="utf-8")
    handed: list[list[str]] = []
    monkeypatch.setattr(handoff, "run_suspended", lambda _app, command, **_: handed.append(command))
    monkeypatch.setenv("EDITOR", "vi")
    read = tool_record(
        "completed",
        "c1",
        "readToolCall",
        {"path": "/rec/[/x]/parse.py"},
        {"success": {"content": "x"}},
    )
    source = FileSource(write_stream(tmp_path / "s.ndjson", [read]))
    app = StreamviewApp(source, clock=FakeClock(), cwd_map=[("/rec", str(tmp_path))])
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await open_on(pilot, 0)
        await pilot.press("o")
        await wait_for(pilot, lambda: bool(toasts(app)))
        assert handed and handed[0][-1] == str(target)
        assert app.is_running
        assert squash(f"opened {target}") in toast_text(app)


async def test_a_search_query_holding_markup_is_shown_literally_in_another_session(
    tmp_path: Path,
) -> None:
    """``/`` with ``[/q]``: the hit is in the other session, and the toast that says so
    names the query as typed."""
    app = StreamviewApp(
        FileSource(write_stream(tmp_path / "s.ndjson", [], sessions=2)), clock=FakeClock()
    )
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("[", "/", *"[/q]", "enter")
        await pilot.pause()
        await pilot.press("n")
        await wait_for(pilot, lambda: squash("session 2 of 2") in toast_text(app))
        assert app.is_running
        assert squash("“[/q]”") in toast_text(app)


async def test_x_to_a_path_holding_markup_says_where_it_wrote_literally(tmp_path: Path) -> None:
    app = StreamviewApp(
        FileSource(write_stream(tmp_path / "s.ndjson", [shell("c1", "ls")])), clock=FakeClock()
    )
    folder = tmp_path / "[" / "x]"
    folder.mkdir(parents=True)
    target = folder / "[b]report.md"
    async with app.run_test(size=(160, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportDialog))
        await pilot.press("ctrl+u", *str(target), "enter")
        await wait_for(pilot, lambda: "exported" in toast_text(app), timeout=20)
        assert target.is_file()
        assert app.is_running
        assert squash(f"exported {target}, [b]report.svg and [b]report.html") in toast_text(app)
