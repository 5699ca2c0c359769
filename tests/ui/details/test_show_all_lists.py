""" "Show all" on long lists and on texts that fold: grep matches, file lists, directory
trees, fetched pages and the event log's whole line. Every line is reachable, folded
right, and nothing unsafe reaches the screen."""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest
from hostile.safety import unsafe_on_screen
from rich.cells import cell_len
from rich.console import Console
from rich.style import Style
from rich.text import Text
from rich.tree import Tree
from textual.app import App
from textual.widget import Widget

from streamview.core import tools
from streamview.core.events import MalformedLine
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.sanitize import clean, has_controls
from streamview.core.state import ToolCall
from streamview.ui.details.screen import ToolCallDetailScreen
from streamview.ui.details.section_view import SectionView, render_sections
from streamview.ui.details.views import result_sections
from streamview.ui.details.views.search import TREE_LEAD_CHARS
from streamview.ui.log.event_log import EventEntryScreen, entry_for
from streamview.ui.text import capping
from streamview.ui.text.capping import FULL_MAX_LINES, MAX_CHARS, MAX_ITEMS, MAX_LINES, SHOW_ALL_KEY
from streamview.ui.text.list_rows import ListRows
from streamview.ui.text.wrap import WrapText, wrap_text

from ..conftest import settle_sections
from .test_detail import STYLESHEET

HOSTILE = "\x1b[2J\x1b]0;PWNED\x07\x1b]52;c;Y2xpcA==\x07\u202e\r\x9b31m"
"""Escape sequences, a bidi override and a C1 CSI: none may act on the terminal."""


def grep_payload(files: int, per_file: int, hostile: str = "") -> dict[str, Any]:
    """A grep result in content mode: ``files`` files of ``per_file`` matches each."""
    matches = [
        {
            "file": f"src/m{f}.py{hostile if f == 0 else ''}",
            "matches": [
                {"lineNumber": n + 1, "content": f"hit {f}.{n}{hostile if f == n == 0 else ''}"}
                for n in range(per_file)
            ],
        }
        for f in range(files)
    ]
    return {"workspaceResults": {"/w": {"content": {"matches": matches, "totalLines": 1}}}}


def grep_rows(files: int, per_file: int) -> list[str]:
    """The rows a grep of :func:`grep_payload` must show, in order."""
    rows = ["/w"]
    for f in range(files):
        rows.append(f"  src/m{f}.py")
        rows += [f"    {n + 1}: hit {f}.{n}" for n in range(per_file)]
    return rows


def all_rows(rows: ListRows) -> list[str]:
    return [rows.row(index).plain for index in range(len(rows))]


def test_show_all_lists_every_grep_match_as_rows() -> None:
    capped = result_sections("grep", {}, "success", grep_payload(300, 10))[-1]
    assert capped.truncated and not isinstance(capped.body, ListRows)
    full = result_sections("grep", {}, "success", grep_payload(300, 10), full=True)[-1]
    assert not full.truncated and not full.wrap and isinstance(full.body, ListRows)
    assert all_rows(full.body) == grep_rows(300, 10)
    last = full.body.row(len(full.body) - 1)
    assert last.plain == "    10: hit 299.9"
    assert [(last.plain[s.start : s.end], str(s.style)) for s in last.spans if s.style] == [
        ("10: ", "dim")
    ]
    file_row = full.body.row(1)
    assert [str(s.style) for s in file_row.spans if file_row.plain[s.start : s.end].strip()] == [
        "bold magenta"
    ]
    assert len(repr(full)) < 300  # worker descriptions never copy the payload


def test_a_short_grep_is_the_same_text_as_before() -> None:
    sections = result_sections("grep", {}, "success", grep_payload(3, 2))
    body = sections[-1].body
    assert isinstance(body, Text) and body.plain.split("\n") == grep_rows(3, 2)


def test_grep_shown_in_full_is_clean() -> None:
    full = result_sections("grep", {}, "success", grep_payload(300, 10, HOSTILE), full=True)[-1]
    assert isinstance(full.body, ListRows)
    assert not any(char in full.body.text for char in "\x1b\x07\x9b\u202e\r")
    assert full.body.row(1).plain.startswith("  src/m0.py␛[2J")
    assert not has_controls(full.body.text)


def test_show_all_lists_every_file_of_a_long_glob() -> None:
    files = [f"src/f{n}.py" for n in range(MAX_ITEMS * 3)] + [f"last{HOSTILE}.py"]
    payload = {"files": files, "totalFiles": len(files)}
    capped = result_sections("glob", {}, "success", payload)[-1]
    assert capped.truncated
    full = result_sections("glob", {}, "success", payload, full=True)[-1]
    assert isinstance(full.body, ListRows) and not full.truncated
    rows = all_rows(full.body)
    assert rows[:-1] == files[:-1]
    assert rows[-1] == clean(files[-1]).replace("\r", "␍") and "\x1b" not in rows[-1]


def tree_payload(dirs: int, files: int) -> dict[str, Any]:
    """An ls result: ``dirs`` directories of ``files`` files (one nested deeper), and
    two files at the top."""
    children = [
        {
            "absPath": f"/w/d{d}",
            "childrenDirs": [{"absPath": f"/w/d{d}/inner", "childrenFiles": [{"name": "x"}]}]
            if d == 1
            else [],
            "childrenFiles": [{"name": f"f{d}.{n}"} for n in range(files)],
        }
        for d in range(dirs)
    ]
    root = {"absPath": "/w", "childrenDirs": children, "childrenFiles": ["a.txt", "b.txt"]}
    return {"directoryTreeRoot": root}


def painted(body: Any, width: int = 200) -> list[str]:
    console = Console(width=width, color_system=None, force_terminal=True)
    lines = console.render_lines(body, console.options.update(no_wrap=True), pad=False)
    return ["".join(segment.text for segment in line).rstrip() for line in lines]


def test_a_long_directory_tree_is_drawn_as_rich_draws_it(monkeypatch: pytest.MonkeyPatch) -> None:
    payload = tree_payload(4, 5)
    shown_as_tree = result_sections("ls", {}, "success", payload, full=True)[0].body
    assert isinstance(shown_as_tree, Tree)  # short: Rich draws it
    monkeypatch.setattr(capping, "MAX_ITEMS", 10)
    rows = result_sections("ls", {}, "success", payload, full=True)[0].body
    assert isinstance(rows, ListRows)
    assert all_rows(rows) == painted(shown_as_tree)
    assert all_rows(rows)[-1] == "└── b.txt"
    directory = rows.row(1)
    assert str(directory.spans[-1].style) == "bold blue" and directory.plain == "├── d0/"


def test_every_entry_of_a_huge_tree_is_a_row() -> None:
    payload = tree_payload(200, 100)
    rows = result_sections("ls", {}, "success", payload, full=True)[0].body
    assert isinstance(rows, ListRows)
    assert len(rows) == 1 + 200 + 200 * 100 + 2 + 2  # root, dirs, files, top files, inner/x
    assert rows.row(len(rows) - 3).plain == "│   └── f199.99"


def cut_rows(folded: WrapText, width: int) -> list[str]:
    rows = folded.rows(width)
    return [rows.line(index) for index in range(rows.line_count)]


WORDS = ["a", "bc", "def", "ghij", "klmnopqrstuvwxyz", "界面", "é", "\t", "  ", "x" * 30]


@pytest.mark.parametrize("seed", range(200))
def test_folded_rows_keep_every_character_and_fit_the_width(seed: int) -> None:
    chooser = random.Random(seed)
    lines = [
        " ".join(chooser.choice(WORDS) for _ in range(chooser.randint(0, 30)))
        for _ in range(chooser.randint(1, 5))
    ]
    text = "\n".join(lines)
    width = chooser.randint(1, 25)
    folded, cut = wrap_text(text)
    assert not cut
    assert "".join(cut_rows(folded, width)) == text.expandtabs(8).rstrip("\n")
    rows = folded.rows(width)
    for index in range(rows.line_count):
        shown = rows.row(index).plain
        assert cell_len(shown) <= width or len(shown) == 1, (shown, width)  # 界 in 1 cell
        line = rows.line(index)
        goes_on = not line.endswith("\n") and index + 1 < rows.line_count
        if goes_on and not line.endswith(" "):
            # A word was cut: only because it does not fit on a row of its own.
            assert " " not in line.strip(" "), (line, width)


def test_plain_words_fold_as_rich_folds_them() -> None:
    chooser = random.Random(7)
    words = ["a", "bc", "def", "ghij", "klmno", "pqrstu"]
    for width in (6, 10, 17, 40):
        text = " ".join(chooser.choice(words) for _ in range(300))
        console = Console(width=width)
        expected = [line.plain.rstrip() for line in Text(text).wrap(console, width)]
        rows = wrap_text(text)[0].rows(width)
        assert [rows.row(index).plain.rstrip() for index in range(len(rows))] == expected


def test_a_fetched_page_past_every_limit_folds_in_full() -> None:
    line = "word " * 30 + "end"
    page = "\n".join(f"{n} {line}" for n in range(FULL_MAX_LINES + 5))
    payload = {"url": "https://e.com", "markdown": page + HOSTILE}
    capped = result_sections("webFetch", {}, "success", payload)[-1]
    assert capped.truncated
    full = result_sections("webFetch", {}, "success", payload, full=True)[-1]
    assert isinstance(full.body, WrapText) and not full.truncated and full.wrap
    assert full.body.line_count == FULL_MAX_LINES + 5
    lines, _ = render_sections([full], 40, Style())
    console = Console(width=40)
    rows_by_digits = {
        digits: len(Text(f"{10 ** (digits - 1)} {line}").wrap(console, 40))
        for digits in range(1, 7)
    }
    last = FULL_MAX_LINES + 4
    rows = sum(rows_by_digits[len(str(n))] for n in range(last))
    rows += len(Text(clean(f"{last} {line}{HOSTILE}")).wrap(console, 40))
    assert len(lines) == 1 + rows  # the title, then every line folded as Rich folds it
    assert lines[len(lines) - 2].text.startswith("end␛[2J␛]0;PWNED␇")
    assert lines[len(lines) - 1].text == "\\x9b31m"  # the C1 CSI, shown inert
    assert all(lines[index].cell_length <= 40 for index in range(1, len(lines), 997))


class CallApp(App[None]):
    """A host that opens the detail screen of one completed call."""

    CSS_PATH = STYLESHEET

    def __init__(self, kind: str, args: dict[str, Any], result: dict[str, Any]) -> None:
        super().__init__()
        line = orjson.dumps(
            {
                "type": "tool_call",
                "subtype": "completed",
                "call_id": "big",
                "tool_call": {f"{kind}ToolCall": {"args": args, "result": {"success": result}}},
            }
        )
        self.store = LineStore()
        self.store.remember(1, 0, line, parse_line(line, 1))
        self.call = ToolCall(
            index=0, call_id="big", kind=kind, status=tools.SUCCEEDED, completed_line=1
        )

    def on_mount(self) -> None:
        self.push_screen(ToolCallDetailScreen(self.call, self.store))


def page_app(page: str) -> CallApp:
    """The detail of a web fetch of ``page``."""
    url = "https://e.com"
    return CallApp("webFetch", {"url": url}, {"url": url, "markdown": page})


def rows_after(view: SectionView, title: str) -> list[str]:
    """The lines laid out after the section titled ``title``."""
    start = [strip.text for strip in view.lines].index(title) + 1
    return [view.lines[index].text.rstrip() for index in range(start, len(view.lines))]


async def test_show_all_reaches_every_grep_match_without_reading_the_line_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    app = CallApp("grep", {"pattern": "hit"}, grep_payload(300, 10, HOSTILE))
    async with app.run_test(size=(60, 15)) as pilot:
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        note = f"… {3301 - MAX_ITEMS:,} more lines (press a to show all, r for the raw JSON)"
        assert rows_after(view, "matches")[-1] == note
        monkeypatch.setattr(app.store, "get", lambda number: None)  # parsed once is enough
        await pilot.press(SHOW_ALL_KEY)
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        shown = rows_after(view, "matches")
        expected = grep_rows(300, 10)
        expected[1] = clean(f"  src/m0.py{HOSTILE}").replace("\r", "␍")
        expected[2] = clean(f"    1: hit 0.0{HOSTILE}").replace("\r", "␍")
        assert shown == expected
        await pilot.press("end")
        await pilot.pause()
        screen = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        assert [line for line in screen if line][-1] == "    10: hit 299.9"
        assert not unsafe_on_screen(app.screen.walk_children(Widget))


async def test_show_all_folds_a_long_page_to_a_narrow_screen() -> None:
    lines = MAX_LINES * 2
    page = "\n".join(f"line {n} of the page {HOSTILE} goes on" for n in range(lines))
    app = page_app(page)
    async with app.run_test(size=(30, 12)) as pilot:
        await settle_sections(app, pilot)
        await pilot.press(SHOW_ALL_KEY)
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        width = view.scrollable_content_region.width
        title = [strip.text for strip in view.lines].index("content (markdown, as text)")
        shown = [view.lines[index].text for index in range(title + 1, len(view.lines))]
        assert all(cell_len(row) <= width for row in shown)
        folded = clean(page).replace("\n", "")
        assert "".join(shown).replace(" ", "") == folded.replace(" ", "")
        await pilot.press("end")
        await pilot.pause()
        screen = [view.render_line(y).text.rstrip() for y in range(view.size.height)]
        assert screen[-1].endswith("goes on")
        assert not unsafe_on_screen(app.screen.walk_children(Widget))


class EntryApp(App[None]):
    """A host that opens the event log's entry of one long line that is not JSON."""

    CSS_PATH = STYLESHEET

    def __init__(self, line: bytes) -> None:
        super().__init__()
        self.store = LineStore()
        event = parse_line(line, 3)
        assert isinstance(event, MalformedLine)
        self.store.remember(3, 0, line, event)
        self.entry = entry_for(event)

    def on_mount(self) -> None:
        self.push_screen(EventEntryScreen(self.entry, self.store))


async def test_show_all_shows_the_whole_of_a_huge_bad_line() -> None:
    words = MAX_CHARS // 6 + 1_000
    line = b"not json " + HOSTILE.encode() + b" " + b"lorem " * words + b"THE END"
    app = EntryApp(line)
    async with app.run_test(size=(100, 12)) as pilot:
        await settle_sections(app, pilot)
        await pilot.press(SHOW_ALL_KEY)
        await settle_sections(app, pilot)
        view = app.screen.query_one(SectionView)
        width = view.scrollable_content_region.width
        title = [strip.text for strip in view.lines].index(
            "the line (control characters shown as symbols)"
        )
        rows = len(view.lines) - title - 1
        per_row = width // 6  # "lorem " is six cells: whole words only
        assert rows == pytest.approx(words / per_row, abs=3)
        last = view.lines[len(view.lines) - 1].text.rstrip()
        assert last.endswith("lorem THE END")
        await pilot.press("end")
        await pilot.pause()
        assert not unsafe_on_screen(app.screen.walk_children(Widget))


def test_show_all_of_web_search_folds_a_long_reference_under_its_heading() -> None:
    chunk = "\n".join(f"passage {n} {HOSTILE}" for n in range(MAX_LINES * 2))
    references = [
        {"title": "big", "url": "https://e.com/a", "chunk": chunk},
        {"title": "small", "url": "https://e.com/b", "chunk": "short"},
    ]
    payload = {"references": references}
    capped = result_sections("webSearch", {}, "success", payload)
    assert any(section.truncated for section in capped)  # so "show all" is offered
    full = result_sections("webSearch", {}, "success", payload, full=True)
    folded = [section.body for section in full if isinstance(section.body, WrapText)]
    assert len(folded) == 1 and folded[0].line_count == MAX_LINES * 2
    lines, _ = render_sections(full, 40, Style())
    texts = [lines[index].text.rstrip() for index in range(len(lines))]
    first = texts.index("1. big")
    assert texts[first + 1 : first + 3] == ["   https://e.com/a", "   passage 0"]
    second = texts.index("2. small")
    assert texts[second - 1] == ""  # a blank line between two references
    body = texts[first + 2 : second - 1]
    assert all(text.startswith("   ") and cell_len(text) <= 40 for text in body)
    assert "".join(text[3:] for text in body).replace(" ", "") == clean(chunk).replace(
        " ", ""
    ).replace("\n", "")
    assert texts[texts.index("2. small") :] == ["2. small", "   https://e.com/b", "   short", ""]


def test_show_all_of_a_long_mcp_item_folds_every_line_of_its_json() -> None:
    item = {"resource": {"rows": [f"row {n} {HOSTILE}" for n in range(MAX_LINES)]}}
    payload = {"content": [item]}
    capped = result_sections("mcp", {}, "success", payload)[-1]
    assert capped.truncated
    full = result_sections("mcp", {}, "success", payload, full=True)[-1]
    assert isinstance(full.body, WrapText) and full.title == "item 1: resource"
    assert full.body.line_count == MAX_LINES + 6  # { "resource": { "rows": [
    lines, _ = render_sections([full], 50, Style())
    texts = [lines[index].text.rstrip() for index in range(len(lines))]
    assert texts[-3:] == ["    ]", "  }", "}"]
    assert all(cell_len(text) <= 50 for text in texts)
    assert not has_controls("".join(texts))


def test_a_very_deep_tree_keeps_its_rows_short(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(capping, "MAX_ITEMS", 10)
    node: dict[str, Any] = {"absPath": "/w/bottom", "childrenFiles": ["deepest.txt"]}
    for level in range(200):
        node = {"absPath": f"/w/{level}", "childrenDirs": [node], "childrenFiles": ["f"]}
    rows = result_sections("ls", {}, "success", {"directoryTreeRoot": node}, full=True)[0].body
    assert isinstance(rows, ListRows) and len(rows) == 1 + 200 * 2 + 1
    texts = all_rows(rows)
    assert all(len(text) <= TREE_LEAD_CHARS + 20 for text in texts)
    deepest = [text for text in texts if text.endswith("deepest.txt")]
    assert len(deepest) == 1 and deepest[0].startswith("…")
    assert texts[1:3] == ["├── 198/", "│   ├── 197/"]
