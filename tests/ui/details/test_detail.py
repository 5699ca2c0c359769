"""A tool call in full: the views per kind, and the detail screen on real captures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from rich.console import Console, RenderableType
from rich.segment import Segment
from textual.app import App
from textual.widgets import Static

from streamview.core import tools
from streamview.core.call_records import load_records
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.reader import EventReader
from streamview.core.state import StreamState, ToolCall
from streamview.ui.details.screen import ToolCallDetailScreen, escaped_id
from streamview.ui.details.section_view import SectionView
from streamview.ui.details.sections import Section
from streamview.ui.details.views import args_section, result_sections
from streamview.ui.text.capping import FULL_MAX_LINES, MAX_LINES, cap_text, more_note

from ..conftest import settle_sections

REPO = Path(__file__).resolve().parents[3]
STYLESHEET = REPO / "streamview" / "ui" / "streamview.tcss"
CAPTURES = REPO.parent / "shared" / "samples" / "cursor-real"
needs_captures = pytest.mark.skipif(
    not CAPTURES.is_dir(), reason=f"real captures folder {CAPTURES} is absent"
)


def segments(body: RenderableType, width: int = 120) -> list[Segment]:
    """What Rich would paint for ``body``."""
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    return list(console.render(body, console.options))


def text_of(sections: list[Section], width: int = 120) -> str:
    """The sections' titles and painted text."""
    out = []
    for section in sections:
        out.append(f"[{section.title}]")
        out.append("".join(s.text for s in segments(section.body, width)))
    return "\n".join(out)


def styled(sections: list[Section], fragment: str) -> list[Any]:
    """Styles of the painted segments whose text contains ``fragment``."""
    return [
        s.style
        for section in sections
        for s in segments(section.body)
        if fragment in s.text and s.style is not None
    ]


def load_capture(name: str) -> tuple[StreamState, LineStore]:
    """Fold a real capture, keeping its lines in a memory store."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    data = (CAPTURES / name).read_bytes()
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


# -- views ------------------------------------------------------------------------------


def test_shell_output_keeps_colour_and_nothing_else_escapes() -> None:
    output = "ok \x1b[31mred\x1b[0m done\r\n\x1b]52;c;ZXZpbA==\x07clip \x1b[2Jcleared\x1b[H\n\x9bx"
    sections = result_sections(
        "shell",
        {"command": "make", "workingDirectory": "/w"},
        "success",
        {"exitCode": 0, "interleavedOutput": output, "executionTime": 1510},
    )
    painted = [s for section in sections for s in segments(section.body)]
    assert painted
    for segment in painted:
        assert "\x1b" not in segment.text and "\x07" not in segment.text
        assert "\x9b" not in segment.text and "\r" not in segment.text
    red = styled(sections, "red")
    assert any(style.color is not None and style.color.number == 1 for style in red)  # SGR 31
    text = text_of(sections)
    assert "␛]52;c;ZXZpbA==␇clip" in text and "␛[2Jcleared␛[H" in text
    assert "exit code  0" in text and "1.5s" in text


def test_shell_without_interleaved_output_shows_stdout_and_stderr() -> None:
    sections = result_sections(
        "shell",
        {"command": "false"},
        "failure",
        {"exitCode": 1, "stdout": "partial\n", "stderr": "\x1b[1mboom\x1b[0m\n"},
    )
    titles = [s.title for s in sections]
    assert titles == ["result", "stdout", "stderr"]
    assert "boom" in text_of(sections) and "␛" not in text_of(sections)


def test_read_is_highlighted_with_line_numbers_from_the_read_offset() -> None:
    sections = result_sections(
        "read",
        {"path": "src/app.py", "offset": 40},
        "success",
        {"content": "def main():\n    return 1\n", "totalLines": 2, "fileSize": 27},
    )
    assert sections[1].title == "content (python)"
    lines = text_of([sections[1]]).splitlines()[1:]
    assert lines == ["40 │ def main():", "41 │     return 1"]
    keyword = styled(sections, "def")
    assert any(style.color is not None for style in keyword)


def test_read_range_wins_over_the_offset_argument() -> None:
    sections = result_sections(
        "read",
        {"path": "notes.txt", "offset": 3},
        "success",
        {"content": "a\nb", "readRange": {"startLine": 7, "endLine": 8}},
    )
    assert text_of([sections[-1]]).splitlines()[1:] == ["7 │ a", "8 │ b"]


def test_write_shows_the_file_text_highlighted() -> None:
    sections = result_sections(
        "write",
        {"path": "x.json", "fileText": '{"a": 1}'},
        "success",
        {"linesCreated": 1, "fileSize": 8},
    )
    assert sections[-1].title == "content (json)"
    assert '1 │ {"a": 1}' in text_of(sections)


def test_edit_diff_is_coloured() -> None:
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n keep\n-old\n+new"
    sections = result_sections("edit", {"path": "f.txt"}, "success", {"diffString": diff})
    assert sections[-1].title == "diff"
    assert any(s.color is not None and s.color.name == "green" for s in styled(sections, "+new"))
    assert any(s.color is not None and s.color.name == "red" for s in styled(sections, "-old"))
    assert any(s.color is not None and s.color.name == "cyan" for s in styled(sections, "@@"))


def test_edit_without_diff_string_diffs_before_and_after() -> None:
    sections = result_sections(
        "edit",
        {"path": "f.txt"},
        "success",
        {"beforeFullFileContent": "a\nb\n", "afterFullFileContent": "a\nc\n"},
    )
    text = text_of([sections[-1]])
    assert "-b" in text and "+c" in text and "--- a/f.txt" in text


def test_edit_with_only_stream_content_shows_the_new_content() -> None:
    sections = result_sections(
        "edit", {"path": "n.txt", "streamContent": "DONE"}, "success", {"message": "ok"}
    )
    assert sections[-1].title == "new content" and "1 │ DONE" in text_of(sections)


def test_grep_glob_and_ls_are_lists_and_trees() -> None:
    grep = result_sections(
        "grep",
        {"pattern": "TODO"},
        "success",
        {
            "workspaceResults": {
                "/repo": {
                    "content": {
                        "matches": [
                            {"file": "a.py", "matches": [{"lineNumber": 3, "content": "# TODO x"}]}
                        ]
                    }
                }
            }
        },
    )
    text = text_of(grep)
    assert "a.py" in text and "3: # TODO x" in text
    glob = result_sections("glob", {"globPattern": "**/*.ts"}, "success", {"files": ["./a.ts"]})
    assert "./a.ts" in text_of(glob)
    ls = result_sections(
        "ls",
        {"path": "/r"},
        "success",
        {
            "directoryTreeRoot": {
                "absPath": "/r",
                "childrenDirs": [{"absPath": "/r/src", "childrenFiles": [{"name": "m.py"}]}],
                "childrenFiles": [{"name": "README.md"}],
            }
        },
    )
    text = text_of(ls)
    assert "src/" in text and "m.py" in text and "README.md" in text


def test_web_search_fetch_mcp_and_todos() -> None:
    search = result_sections(
        "webSearch",
        {"searchTerm": "q"},
        "success",
        {"references": [{"title": "T\x1b[2J", "url": "https://e.x/", "chunk": "body"}]},
    )
    text = text_of(search)
    assert "1. T␛[2J" in text and "https://e.x/" in text and "body" in text
    fetch = result_sections(
        "webFetch", {"url": "https://e.x"}, "success", {"markdown": "# Title\n[link](https://evil)"}
    )
    assert "[link](https://evil)" in text_of(fetch)  # shown as text, never a live link
    assert not any(s.style and s.style.link for sec in fetch for s in segments(sec.body))
    mcp = result_sections(
        "mcp",
        {"toolName": "t"},
        "success",
        {
            "content": [
                {"text": {"text": "hello"}},
                {"image": {"mimeType": "image/png", "data": "xx"}},
            ]
        },
    )
    text = text_of(mcp)
    assert "hello" in text and "image/png" in text and "error" not in text
    failed = result_sections("mcp", {}, "success", {"isError": True, "content": []})
    assert "the tool reported an error" in text_of(failed)
    todos = result_sections(
        "updateTodos",
        {},
        "success",
        {
            "todos": [
                {"content": "write tests", "status": "completed"},
                {"content": "ship", "status": "in_progress"},
                {"content": "rest", "status": "pending"},
            ]
        },
    )
    assert text_of(todos).splitlines()[1:] == ["☑ write tests", "◐ ship", "☐ rest"]


def test_rejected_error_and_unknowns() -> None:
    rejected = result_sections(
        "shell", {"command": "rm"}, "rejected", {"reason": ""}, approval="rejected"
    )
    text = text_of(rejected)
    assert "no reason given" in text and "approval" not in text  # it would say the same
    policy = result_sections(
        "webFetch", {}, "rejected", {"reason": "User Rejected"}, approval="approved"
    )
    assert "User Rejected" in text_of(policy) and "approved" in text_of(policy)
    same = result_sections("webFetch", {}, "rejected", {"reason": "No"}, approval="rejected: No")
    assert "approval" not in text_of(same)
    error = result_sections("read", {}, "error", {"error": {"message": "ENOENT: gone"}})
    assert "ENOENT: gone" in text_of(error)
    unknown_kind = result_sections("teleport", {"to": "mars"}, "success", {"eta\x1b": "soon"})
    assert unknown_kind[-1].title == "raw JSON" and '"eta␛": "soon"' in text_of(unknown_kind)
    unknown_key = result_sections("read", {}, "deferred", {"until": 3})
    assert "deferred" in text_of(unknown_key) and '"until": 3' in text_of(unknown_key)
    odd_shape = result_sections("glob", {}, "success", {"files": "not a list"})
    assert odd_shape  # no exception, something shown


def test_huge_output_is_capped_with_a_note_and_full_shows_all() -> None:
    output = "\n".join(f"line {n}" for n in range(20_000))
    payload = {"exitCode": 0, "interleavedOutput": output}
    sections = result_sections("shell", {"command": "seq"}, "success", payload)
    out = sections[-1]
    assert out.truncated
    text = text_of([out])
    assert f"line {MAX_LINES - 1}" in text and f"line {MAX_LINES}\n" not in text
    assert "\n… 15,000 more lines (press a to show all, r for the raw JSON)" in text
    full = result_sections("shell", {"command": "seq"}, "success", payload, full=True)
    assert not full[-1].truncated and "line 19999" in text_of([full[-1]])
    one_long_line = cap_text("x" * 100_000)
    assert len(one_long_line.text) < 6_000 and "95,000 more characters" in one_long_line.text


def test_arguments_table_hides_bookkeeping_and_big_texts() -> None:
    section = args_section(
        "shell",
        {"command": "ls", "toolCallId": "x", "parsingResult": {"a": 1}, "closeStdin": True},
        "List files",
    )
    text = text_of([section])
    assert "List files" in text and "ls" in text and "toolCallId" not in text
    assert "2 more" in text and "parsingResult" in text
    edit = args_section("edit", {"path": "a", "streamContent": "x\ny"}, None)
    assert "2 lines, 3 characters" in text_of([edit])


# -- detail screen ----------------------------------------------------------------------


class DetailApp(App[None]):
    """A host that opens the detail screen of one call."""

    CSS_PATH = STYLESHEET

    def __init__(self, call: ToolCall, store: LineStore | None, cwd: str | None = None) -> None:
        super().__init__()
        self.call = call
        self.store = store
        self.cwd = cwd

    def on_mount(self) -> None:
        self.push_screen(ToolCallDetailScreen(self.call, self.store, cwd=self.cwd))


async def shown_text(app: App[None], pilot: Any) -> str:
    """Wait for the workers, then return the title bars and every laid-out line."""
    await settle_sections(app, pilot)
    screen = app.screen
    parts = []
    for widget in screen.query(Static):
        content = widget.content
        if isinstance(content, str):
            parts.append(content)
        else:
            parts.append("".join(s.text for s in segments(content, 200)))  # type: ignore[arg-type]
    for view in screen.query(SectionView):
        parts.append(view.text)
    return "\n".join(parts)


@needs_captures
async def test_detail_of_a_real_edit_shows_the_diff() -> None:
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    calls = state.sessions[0].tool_calls
    assert [c.kind for c in calls] == ["read", "edit"]
    app = DetailApp(calls[1], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "+probe13" in text and "@@ -1,2 +1,3 @@" in text
        assert "loading…" not in text
        await pilot.press("r")
        text = await shown_text(app, pilot)
        assert '"editToolCall"' in text and '"diffString"' in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ToolCallDetailScreen)


@needs_captures
async def test_detail_of_a_real_read_starts_at_line_one() -> None:
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    app = DetailApp(state.sessions[0].tool_calls[0], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "1 │ alpha" in text and "2 │ beta" in text


@needs_captures
async def test_detail_of_a_real_shell_call_with_crlf_output() -> None:
    state, store = load_capture("hcn_2026.09.15_probe-52s_shell-success-crlf.ndjson")
    call = state.sessions[0].tool_calls[0]
    assert "\n" in call.call_id
    app = DetailApp(call, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "HTTP/2 200" in text and "cf-cache-status: HIT" in text
        assert "\r" not in text and "␍" not in text
        assert "exit code" in text and "curl -sI https://example.com" in text
        assert "call_8qXsc566qQDgNuht3JE6Zx5z\\nfc_0fe82f95" in text


@needs_captures
async def test_detail_of_real_rejected_calls() -> None:
    state, store = load_capture(
        "hcn_2026.09.10_probe-15_denials-and-completion-without-started.ndjson"
    )
    calls = state.sessions[0].tool_calls
    assert [c.status for c in calls] == [tools.REJECTED] * len(calls)
    fetch, shell = calls[0], calls[1]
    app = DetailApp(fetch, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "User Rejected" in text and "https://example.com" in text
    app = DetailApp(shell, store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "no reason given" in text and "isReadonly" in text


@needs_captures
async def test_detail_of_the_real_glob_and_a_completion_without_started() -> None:
    state, store = load_capture("unknownrepo_cursor-agent-2026.07.23_test-fixture-lines.ndjson")
    calls = state.sessions[0].tool_calls
    app = DetailApp(calls[0], store)
    async with app.run_test(size=(100, 30)) as pilot:
        text = await shown_text(app, pilot)
        assert "**/app.ts" in text and "./app.ts" in text
    records = load_records(calls[1], store)
    assert records.outcome == "success" and records.args == {
        "path": "/tmp/cursor-probe/note.txt",
        "streamContent": "DONE",
    }


async def test_detail_without_a_store_falls_back_to_the_fold() -> None:
    call = ToolCall(
        index=0,
        call_id="c\n1",
        kind="read",
        args={"path": "a.py"},
        target="a.py",
        status=tools.SUCCEEDED,
        summary="3 lines",
        completed_line=9,
    )
    app = DetailApp(call, None)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "a.py" in text and "3 lines" in text and "not kept" in text
        assert escaped_id("c\n1") == "c\\n1"


async def test_big_payload_offers_show_all() -> None:
    store = LineStore()
    content = "\n".join(f"row {n}" for n in range(MAX_LINES + 50))
    line = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "big",
            "tool_call": {
                "readToolCall": {
                    "args": {"path": "big.txt"},
                    "result": {"success": {"content": content}},
                }
            },
        }
    )
    store.remember(1, 0, line, parse_line(line, 1))
    call = ToolCall(index=0, call_id="big", kind="read", status=tools.SUCCEEDED, completed_line=1)
    app = DetailApp(call, store)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "50 more lines" in text and f"row {MAX_LINES + 49}" not in text
        await pilot.press("a")
        text = await shown_text(app, pilot)
        assert f"row {MAX_LINES + 49}" in text and "more lines" not in text


@needs_captures
def test_snapshot_detail_of_an_edit_diff(snap_compare: Any) -> None:
    """Title bar (edit, path, ✓ succeeded, 147ms), call id and line numbers, the
    arguments, the file facts, and the diff with '+probe13' in green, its headers
    relative to the session's directory ('--- a/notes.txt', as git writes them)."""
    state, store = load_capture("hcn_2026.09.10_probe-13_read-edit-composer.ndjson")
    session = state.sessions[0]
    app = DetailApp(session.tool_calls[1], store, cwd=session.cwd)

    async def loaded(pilot: Any) -> None:
        await settle_sections(app, pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=loaded)


@needs_captures
def test_snapshot_detail_of_a_shell_call(snap_compare: Any) -> None:
    """The command and description, bookkeeping arguments folded into one line, the
    exit code and time, and the HTTP header output with no stray carriage returns."""
    state, store = load_capture("hcn_2026.09.15_probe-52s_shell-success-crlf.ndjson")
    app = DetailApp(state.sessions[0].tool_calls[0], store)

    async def loaded(pilot: Any) -> None:
        await settle_sections(app, pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=loaded)


def test_show_all_still_stops_at_the_full_limit() -> None:
    text = "\n".join("y" for _ in range(FULL_MAX_LINES + 5))
    capped = cap_text(text, full=True)
    assert capped.truncated and capped.lines_left == 5
    note = more_note(capped).plain
    assert note == "… 5 more lines (too long to lay out; r for the raw JSON)"


async def test_a_running_call_on_show_updates_when_it_completes() -> None:
    started = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "started",
            "call_id": "live",
            "tool_call": {"shellToolCall": {"args": {"command": "make test"}}},
        }
    )
    completed = orjson.dumps(
        {
            "type": "tool_call",
            "subtype": "completed",
            "call_id": "live",
            "tool_call": {
                "shellToolCall": {
                    "args": {"command": "make test"},
                    "result": {"success": {"exitCode": 0, "interleavedOutput": "all green"}},
                }
            },
        }
    )
    store = LineStore()
    store.remember(1, 0, started, parse_line(started, 1))
    call = ToolCall(index=0, call_id="live", kind="shell", target="make test", started_line=1)
    app = DetailApp(call, store)
    async with app.run_test(size=(80, 20)) as pilot:
        text = await shown_text(app, pilot)
        assert "… running" in text and "no result (yet)" in text
        store.remember(2, len(started) + 1, completed, parse_line(completed, 2))
        call.status, call.summary, call.completed_line = tools.SUCCEEDED, "exit 0", 2
        await pilot.pause(0.7)  # the screen looks at its call twice a second
        text = await shown_text(app, pilot)
        assert "✓ succeeded" in text and "all green" in text and "lines 1, 2" in text


@pytest.mark.parametrize(
    ("kind", "args", "payload"),
    [
        ("read", {"path": "evil\u202etxt.py"}, {"content": "x = 1\u202e # \x1b[2J\u2028y\x9b[1m"}),
        ("edit", {"path": "a"}, {"diffString": "+ok\u202e\x1b]0;title\x07\n-\x1b[31mno"}),
        ("webFetch", {"url": "https://e.x/\u202e"}, {"markdown": "# \x1b]8;;https://evil\x07x"}),
        ("teleport", {"\x1b[2Jk": "v"}, {"\u202ekey": ["\x1b[31m", "\x9b"]}),
        ("updateTodos", {}, {"todos": [{"content": "\x1b[5mblink\u2029", "status": "\x1b"}]}),
    ],
)
def test_no_control_character_reaches_the_screen(kind: str, args: Any, payload: Any) -> None:
    sections = [
        args_section(kind, args),
        *result_sections(kind, args, "success", payload),
    ]
    for section in sections:
        for segment in segments(section.body):
            for char in segment.text:
                assert char in "\n\t" or not (
                    ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 or char in "\u202e\u2028\u2029"
                ), (kind, repr(segment.text))
