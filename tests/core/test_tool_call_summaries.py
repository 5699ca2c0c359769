"""What the table shows of a tool call: its target, its summary (per kind; on failure,
rejection and error; whatever the order of the result's keys), its duration, relative
paths and the counts a summary gives."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from streamview.core import tools

from .helpers import completed, line, one_call, started

# -- targets -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "args", "target"),
    [
        ("read", {"path": "/w/a.py", "offset": 1, "limit": 20}, "/w/a.py"),
        ("write", {"path": "/w/new.py", "fileText": "x"}, "/w/new.py"),
        ("edit", {"path": "/w/e.py", "streamContent": "y"}, "/w/e.py"),
        ("delete", {"path": "/w/old.py"}, "/w/old.py"),
        ("ls", {"path": "/w", "ignore": []}, "/w"),
        ("shell", {"command": "pytest -x", "workingDirectory": "/w"}, "pytest -x"),
        ("grep", {"pattern": "TODO", "path": "/w", "glob": "*.py"}, "TODO"),
        ("glob", {"globPattern": "**/app.ts", "targetDirectory": "/w"}, "**/app.ts"),
        ("webFetch", {"url": "https://example.com"}, "https://example.com"),
        ("webSearch", {"searchTerm": "textual line api"}, "textual line api"),
        (
            "semSearch",
            {"query": "where is the parser", "targetDirectories": []},
            "where is the parser",
        ),
    ],
)
def test_target_per_kind(kind: str, args: dict[str, Any], target: str) -> None:
    call = one_call(started("c", kind, args), completed("c", kind, {"success": {}}))
    assert call.target == target


def test_target_of_an_mcp_call_is_its_tool_name() -> None:
    args = {"name": "srv-search", "toolName": "search", "providerIdentifier": "docs", "args": {}}
    call = one_call(started("m", "mcp", args), completed("m", "mcp", {"success": {}}))
    assert call.target is not None and "search" in call.target
    assert "docs" in call.target


def test_target_is_none_without_args() -> None:
    call = one_call(completed("c", "read", {"success": {}}))
    assert call.target is None


# -- summaries ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "payload", "summary"),
    [
        ("read", {"content": "a\nb\nc", "totalLines": 3, "fileSize": 5}, "3 lines"),
        ("read", {"totalLines": 1}, "1 line"),
        ("read", {"isEmpty": True, "content": ""}, "empty file"),
        ("write", {"path": "p", "linesCreated": 12}, "12 lines written"),
        ("edit", {"linesAdded": 4, "linesRemoved": 2, "diffString": "..."}, "+4 -2"),
        ("edit", {"linesAdded": 1, "linesRemoved": 0}, "+1 -0"),
        ("shell", {"exitCode": 0, "stdout": "", "interleavedOutput": ""}, "exit 0"),
        ("shell", {"exitCode": 0, "interleavedOutput": "a\nb\n"}, "exit 0, 2 lines"),
        ("shell", {"exitCode": 7, "stderr": "boom"}, "exit 7, 1 line"),
        ("shell", {"exitCode": 0, "stdout": "HTTP/2 200 \r\nage: 1\r\n\r\n"}, "exit 0, 2 lines"),
        ("shell", {"exitCode": 0, "stdout": "HTTP/2 200 \nage: 1\n\n"}, "exit 0, 2 lines"),
        ("glob", {"files": ["./a", "./b"], "totalFiles": 2}, "2 files"),
        ("glob", {"files": ["./a"]}, "1 file"),
        ("webSearch", {"references": [{"title": "t", "url": "u", "chunk": "c"}] * 3}, "3 results"),
        ("updateTodos", {"todos": [{"status": "completed"}, {"status": "pending"}]}, "1/2 done"),
    ],
)
def test_success_summary_per_kind(kind: str, payload: dict[str, Any], summary: str) -> None:
    call = one_call(completed("c", kind, {"success": payload}))
    assert call.summary == summary


def test_failure_summary_of_a_shell_call_says_its_exit_code() -> None:
    call = one_call(completed("c", "shell", {"failure": {"exitCode": 127, "stderr": "not found"}}))
    assert call.summary is not None and call.summary.startswith("exit 127")


def test_rejection_summary_carries_the_reason() -> None:
    call = one_call(completed("c", "webFetch", {"rejected": {"reason": "User Rejected"}}))
    assert call.summary == "rejected: User Rejected"


def test_rejection_summary_with_an_empty_reason() -> None:
    call = one_call(completed("c", "shell", {"rejected": {"reason": "", "command": "curl"}}))
    assert call.summary == "rejected"


@pytest.mark.parametrize(
    "payload",
    [
        {"message": "File not found: a.py"},
        {"error": "File not found: a.py"},
        {"path": "a.py", "error": "File not found: a.py"},
    ],
)
def test_error_summary_is_the_error_message(payload: dict[str, Any]) -> None:
    call = one_call(completed("c", "read", {"error": payload}))
    assert call.status == tools.ERROR
    assert call.summary == "File not found: a.py"


def test_unknown_result_variant_is_shown_by_its_key() -> None:
    call = one_call(completed("c", "read", {"deferred": {"until": "later"}}))
    assert call.status == tools.COMPLETED
    assert call.summary == "deferred"


# -- duration ----------------------------------------------------------------------------------


def test_duration_from_started_and_completed_at_ms() -> None:
    call = one_call(
        started("c", "read", {"path": "p"}, after={"startedAtMs": "1000"}, timestamp_ms=1),
        completed(
            "c",
            "read",
            {"success": {}},
            after={"startedAtMs": "1000", "completedAtMs": "1750"},
            timestamp_ms=99_999,
        ),
    )
    assert call.duration_ms == 750


def test_duration_from_event_timestamps_when_the_call_has_no_times() -> None:
    call = one_call(
        started("c", "shell", {"command": "sleep 5"}, timestamp_ms=1770823845357),
        completed("c", "shell", {"success": {"exitCode": 0}}, timestamp_ms=1770823850766),
    )
    assert call.duration_ms == 1770823850766 - 1770823845357


def test_duration_from_arrival_times_when_nothing_else_is_known() -> None:
    start = orjson.loads(started("c", "shell", {"command": "x"}))
    end = orjson.loads(completed("c", "shell", {"success": {"exitCode": 0}}))
    start["streamview_recv_ms"] = 5_000
    end["streamview_recv_ms"] = 7_500
    call = one_call(line(start), line(end))
    assert call.duration_ms == 2_500


def test_duration_is_none_when_no_time_is_known() -> None:
    call = one_call(
        started("c", "shell", {"command": "x"}),
        completed("c", "shell", {"success": {"exitCode": 0}}),
    )
    assert call.duration_ms is None


def test_duration_is_none_for_a_call_that_never_completed() -> None:
    call = one_call(started("c", "shell", {"command": "x"}, timestamp_ms=5))
    assert call.duration_ms is None


@pytest.mark.parametrize(
    "union",
    [
        {"success": {"exitCode": 0}, "isBackground": False},
        {"isBackground": False, "success": {"exitCode": 0}},
    ],
)
def test_result_variant_is_found_whatever_the_order_of_its_siblings(
    union: dict[str, Any],
) -> None:
    """Shell results carry ``isBackground`` beside the variant (reifying captures)."""
    call = one_call(completed("c", "shell", union))
    assert call.outcome == "success"
    assert call.status == tools.SUCCEEDED
    assert call.summary == "exit 0"


def test_unknown_result_variant_beside_a_flag_is_still_shown_by_its_key() -> None:
    call = one_call(completed("c", "shell", {"isBackground": True, "deferred": {"pid": 4}}))
    assert call.status == tools.COMPLETED
    assert call.summary == "deferred"


@pytest.mark.parametrize(
    ("path", "cwd", "shown"),
    [
        ("/home/dev/proj/src/app.py", "/home/dev/proj", "src/app.py"),
        ("/home/dev/proj/src/app.py", "/home/dev/proj/", "src/app.py"),
        ("/home/dev/project2/app.py", "/home/dev/proj", "/home/dev/project2/app.py"),
        ("/home/dev/proj", "/home/dev/proj", "/home/dev/proj"),
        ("/etc/hosts", None, "/etc/hosts"),
        ("relative/x.py", "/home/dev/proj", "relative/x.py"),
    ],
)
def test_paths_below_the_working_directory_are_shown_relative(
    path: str, cwd: str | None, shown: str
) -> None:
    assert tools.relative_path(path, cwd) == shown


@given(st.text(alphabet="a \t\r\n", max_size=40))
def test_a_shells_line_count_is_counted_in_place_as_the_plain_rule_says(output: str) -> None:
    """Lines of output: \\r\\n read as \\n, trailing newlines not counted (no copy made)."""
    summary = tools.summary_of("shell", "success", {"stdout": output})
    if not output.strip():
        assert summary is None
    else:
        lines = output.replace("\r\n", "\n").rstrip("\n").count("\n") + 1
        assert summary == f"{lines:,} line{'' if lines == 1 else 's'}"


def _count_matches_by_walking_every_node(value: Any) -> tuple[int, int]:
    """The plain rule: every dict with a ``matches`` list is a file with that many
    matches; any other dict counts a ``file`` string and ``totalMatches`` numbers."""
    files = matches = 0
    if isinstance(value, dict):
        found = value.get("matches")
        if isinstance(found, list):
            files, matches = 1, len(found)
        else:
            files = int(isinstance(value.get("file"), str))
            for key in ("totalMatchedLines", "totalMatches"):
                count = tools.as_int(value[key]) if key in value else None
                matches += count or 0
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return 0, 0
    for child in children:
        more_files, more_matches = _count_matches_by_walking_every_node(child)
        files, matches = files + more_files, matches + more_matches
    return files, matches


_GREP_KEYS = st.sampled_from(
    ["matches", "file", "totalMatches", "totalMatchedLines", "lineNumber", "content", "x"]
)
_GREP_TREES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 5) | st.text(max_size=3) | st.just("7"),
    lambda inner: (
        st.lists(inner, max_size=6)
        | st.dictionaries(_GREP_KEYS, inner, max_size=4)
        # a file's match lines, and lists that only look like them
        | st.lists(st.dictionaries(_GREP_KEYS, inner, max_size=3), min_size=3, max_size=6)
    ),
    max_leaves=40,
)


@given(_GREP_TREES)
@example([{"content": "a"}, {"x": {"file": "f", "totalMatches": 2}}, {"lineNumber": 3}])
@example([{"content": "a"}, {"content": "b"}, {"x": [{"matches": [1, 2]}]}])
def test_grep_counts_agree_with_walking_every_node(tree: Any) -> None:
    """Lists of plain match lines are skipped in C: the counts stay the plain rule's."""
    assert tools._count_matches(tree) == _count_matches_by_walking_every_node(tree)


def _lines_as_counted_before(output: str) -> int:
    """``tools._line_count`` as it was before it counted by ``memchr``: the reference."""
    end = len(output)
    while end and output[end - 1] == "\n":
        end -= 1
        if end and output[end - 1] == "\r":
            end -= 1
    return output.count("\n", 0, end) + 1


def test_a_long_outputs_lines_are_counted_as_before() -> None:
    """A command's output of :data:`NEWLINES_BY_MEMCHR` characters or more, ASCII, is
    counted by ``memchr``: the same count as before for lines long and short (past one
    newline in 32 characters the count falls back), either side of the size it starts
    at, with trailing newlines, ``\\r\\n`` and a character beyond ASCII."""
    from streamview.core.newline_count import NEWLINES_BY_MEMCHR
    from streamview.core.tools import _line_count

    checked = 0
    for width in (3, 20, 31, 33, 60, 140):
        line = "y" * width + "\n"
        for size in range(NEWLINES_BY_MEMCHR - 2 * len(line), NEWLINES_BY_MEMCHR + 2 * len(line)):
            body = (line * (size // len(line) + 1))[:size]
            for tail in ("", "\n", "\n\n", "\r\n", "\r\n\r\n", "\n\r\n", "é\n", "z"):
                output = body + tail
                assert _line_count(output) == _lines_as_counted_before(output), (width, size, tail)
                checked += output.isascii() and len(output) >= NEWLINES_BY_MEMCHR
    assert checked > 1000
