"""A tool's result text in the payload shapes the views read, for every text-result agent."""

from __future__ import annotations

from streamview.core import tools
from streamview.core.dialects import tool_shapes
from streamview.core.dialects.claude_tools import edit_diff


def summary(kind: str, args: dict[str, object], text: str) -> str | None:
    return tools.summary_of(kind, "success", tool_shapes.success_payload(kind, args, text))


def test_grep_reads_path_line_content_and_file_sections() -> None:
    ripgrep = "src/a.py:3:x = parse(y)\nsrc/a.py:9: parse()\nsrc/b.py:1:import parse"
    assert summary("grep", {}, ripgrep) == "3 matches in 2 files"
    gemini_style = "Found 2 matches\n---\nFile: a.py\nL3: x = 1\nL9: y = 2\n---"
    assert summary("grep", {}, gemini_style) == "2 matches in 1 file"
    assert summary("grep", {}, "src/a.py\nsrc/b.py") == "2 files"
    assert summary("grep", {}, "No matches found") == "no matches"
    # A line with colons but no line number is neither a match nor a file name.
    assert summary("grep", {}, "note: see: below") == "no matches"


def test_read_takes_off_cat_n_numbers_only_when_every_line_has_one() -> None:
    numbered = "     1\tdef f():\n     2\t    return 1\n"
    payload = tool_shapes.success_payload("read", {"path": "f.py"}, numbered)
    assert payload["content"] == "def f():\n    return 1\n"
    assert payload["totalLines"] == 2
    mixed = "  12→a\nplain line"
    assert tool_shapes.success_payload("read", {}, mixed)["content"] == mixed


def test_edit_pairs_under_every_agents_names() -> None:
    for old_key, new_key in (("old_string", "new_string"), ("old_str", "new_str"),
                             ("oldText", "newText")):  # fmt: skip
        assert tool_shapes.edit_pairs({old_key: "a", new_key: "b"}) == [("a", "b")]
    kimi = {"path": "x", "edit": [{"old": "a", "new": "b"}, {"old": "c", "new": "d"}]}
    assert tool_shapes.edit_pairs(kimi) == [("a", "b"), ("c", "d")]
    assert summary("edit", {"path": "x", "edits": [{"oldText": "a", "newText": "b"}]}, "") == (
        "+1 -1"
    )


def test_errors_refusals_and_failed_commands() -> None:
    refused = tool_shapes.error_outcome("write", 'requires permission to use "write_file"')
    assert refused[0] == "rejected"
    ran = tool_shapes.error_outcome("shell", "Command exited with code 2\nboom")
    assert ran == ("success", {"stdout": "Command exited with code 2\nboom", "exitCode": 2})
    assert tool_shapes.error_outcome("read", "File not found: x") == (
        "error",
        {"message": "File not found: x"},
    )


def test_todos_read_as_the_todo_view_does() -> None:
    kimi = tool_shapes.todo({"title": "Fix it", "status": "done"})
    assert (kimi["content"], kimi["status"]) == ("Fix it", "completed")
    assert tool_shapes.todo("not a dict") == "not a dict"


def _difflib_edit_diff(path: str, edits: list[tuple[str, str]]) -> tuple[str, int, int]:
    """``edit_diff`` as it was written before its shortcut: difflib for every edit."""
    import difflib

    name = path.lstrip("/")
    lines = [f"--- a/{name}", f"+++ b/{name}"]
    added = removed = 0
    for old, new in edits:
        body = list(difflib.unified_diff(old.splitlines(), new.splitlines(), lineterm="", n=3))[2:]
        lines.extend(body)
        added += sum(1 for line in body if line.startswith("+"))
        removed += sum(1 for line in body if line.startswith("-"))
    return "\n".join(lines), added, removed


def test_an_edit_with_no_line_in_common_reads_as_difflib_writes_it() -> None:
    """The edit diff's shortcut (no line shared by the two texts) gives difflib's hunk,
    counts included, on edits with and without lines in common, blank lines,
    diff-looking lines and other line breaks."""
    import random

    rng = random.Random(7)
    pieces = ["a = 1", "a = 2", "-x", "+y", " z", "", "q\r", "w\u2028v", "@@"]
    for _ in range(3000):

        def text() -> str:
            body = "\n".join(rng.choice(pieces) for _ in range(rng.randint(0, 5)))
            return body + rng.choice(["", "\n"])

        edits = [(text(), text()) for _ in range(rng.randint(1, 3))]
        assert edit_diff("/src/m.py", edits) == _difflib_edit_diff("/src/m.py", edits), edits
    assert edit_diff("m.py", [("return None", "return []")]) == (
        "--- a/m.py\n+++ b/m.py\n@@ -1 +1 @@\n-return None\n+return []",
        1,
        1,
    )
