"""The sections a tool call's detail shows, per kind: shell output keeping its colours and
nothing else escaping, reads and writes highlighted, diffs, lists and trees, web, MCP and
todos, rejections and errors, capped output, the arguments table."""

from __future__ import annotations

from typing import Any

import pytest

from streamview.ui.details.views import args_section, result_sections
from streamview.ui.text.capping import MAX_LINES, cap_text

from .helpers import segments, styled, text_of

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
