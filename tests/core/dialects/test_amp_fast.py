"""Amp's fast path reads an assistant message of one text or one ``tool_use`` and a
user message of one successful ``tool_result`` straight from their bytes, gives what
:meth:`fast` gives for the decoded line, and declines every line it might read otherwise
(issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from itertools import product
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.amp import translator
from streamview.core.dialects.amp_fast import Usage, _usage
from streamview.core.dialects.amp_tools import (
    args_of,
    call_shape,
    description_of,
    edit_counts,
    ended,
    kind_of,
    pair_said,
    read_lines,
    shell_lines,
    success_payload,
    success_said,
)
from streamview.core.dialects.claude_tools import args_of as claude_args_of
from streamview.core.dialects.tool_shapes import line_count
from streamview.core.events import JSONObject
from streamview.core.fast_path import ONE_TARGET_ARG
from streamview.core.model import ToolCall
from streamview.core.newline_count import NEWLINES_BY_MEMCHR, newlines
from streamview.core.tools import Said, output_lines, plural, target_of

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
DATA = (FIXTURES / "amp" / "fast-lines.jsonl").read_bytes()

TAKEN = {3, 5, 6, 7, 10, 14, 15, 17, 18, 19, 23, 24, 25}
"""Texts (non-ASCII, with usage, after the model was named), calls (a subagent, a
subagent's own call, an MCP tool, an edit) and their results (plain, a list of text
blocks, a subagent's, stamped on arrival, one whose ``session_id`` is null); not the
prompt, a read whose input holds an integer past 64 bits (``orjson`` reads a float
there: the long way), a usage of ``true`` or ``3.0``, a result
with Claude Code's ``tool_use_result``, an error, a time stamp, the message that names
the model, a subagent's text, two blocks, a text that is a number, nor the init and the
``result``."""


def test_the_fast_path_takes_messages_and_results_and_declines_the_unusual() -> None:
    assert taken_lines(translator(), DATA) == TAKEN


def _state(reader: Any) -> dict[str, Any]:
    """What the translator knows, as it would read it: the calls the fast path started
    given to Claude Code's translator (as :meth:`_settle` gives them, without settling
    them) and the usages it kept typed read as dicts."""
    inner_calls = dict(reader._inner._calls)
    for call_id, (name, given) in getattr(reader, "_unread", {}).items():
        inner_calls[call_id] = (name, claude_args_of(name, given))
    usage = {k: _usage(v) if isinstance(v, Usage) else v for k, v in reader._usage.items()}
    kept = {k: v for k, v in vars(reader).items() if k not in _LAZY}
    inner = vars(reader._inner) | {"_records": None, "_calls": inner_calls}
    return {**kept, "_usage": usage, "_inner": inner}


_LAZY = {"_unread", "_typed_usage", "_inner_calls", "_usage", "_inner"}
"""The fast path's own names for what :func:`_state` reads through."""


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    """An integer past 64 bits in a call's input included: read as the general path
    reads it (``orjson``: a float)."""
    assert_fast_line_agrees(translator(), translator(), DATA, said_built, _state)


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def test_an_edit_said_ends_the_call_as_its_payload_does() -> None:
    """Counted where each replacement's old and new lines share none; built otherwise."""
    counted = [
        {"path": "/w/a.py", "old_str": "a = 1", "new_str": "a = 2\nb = 3"},
        {"path": "/w/a.py", "edits": [{"old_str": "p", "new_str": "q"}, {"old_str": "r\ns"}]},
        {
            "path": "/w/a.py",
            "old_str": "x",
            "new_str": "y",
            "edits": [{"old_str": "m", "new_str": "n"}],
        },
    ]
    for args in counted:
        said = success_said("edit", args, "Edited.\nmore")
        assert isinstance(said, Said)
        built = success_payload("edit", args, "Edited.\nmore")
        for call_kind in ("edit", "task"):
            assert _ended(call_kind, said) == _ended(call_kind, built), args
    shared = {"path": "/w/a.py", "old_str": "x\ny", "new_str": "x\nz"}  # difflib's
    assert success_said("edit", shared, "Edited.") is None
    assert success_said("edit", {"path": "/w/a.py"}, "Edited.") is None  # no replacement
    json_result = {"path": "/w/a.py", "old_str": "a", "new_str": "b"}
    assert success_said("edit", json_result, '{"diff": "-a\\n+b"}') is None


def test_call_shape_is_kind_args_and_description_of_the_call() -> None:
    """The fast path's one look at a tool's kind gives what the three lookups gave."""
    inputs: list[Any] = [
        None,
        [1, 2],
        {"path": "/w/a.py", "read_range": [3, 9]},
        {"cmd": "ls", "cwd": "/w"},
        {"filePattern": "*.py"},
        {"query": "q", "description": "find it"},
        {"todos": [{"content": "x", "status": "done"}]},
        {"content": "text", "path": "/w/b.py"},
        {"file_path": "/w/c.py", "path": ""},
        {"path": "", "file_path": 3},
        {"path": 7},
        {"cmd": "", "command": "make", "cwd": 1},
        {"cmd": 5, "command": ""},
        {"old_str": "a", "new_str": "b", "file_path": "/w/d.py", "description": "why"},
    ]
    names = ["Read", "Bash", "glob", "finder", "Task", "todo_write", "create_file", "edit_file"]
    for name in [*names, "mcp__srv__tool", "mcp__srv", "", "unknown", "Grep"]:
        for given in inputs:
            shape = (kind_of(name), args_of(name, given), description_of(name, given))
            got = call_shape(name, given)
            assert got == shape, (name, given)
            assert list(got[1].items()) == list(shape[1].items()), (name, given)


def test_ended_is_said_or_payload_for_every_kind_and_shape() -> None:
    """The fast path's one-step result (:func:`ended`) ends a call as
    ``success_said(...) or success_payload(...)`` does, for each kind it tells first
    (a JSON result, a blank output, an edit with a second pair, Claude Code's names, a
    text that is not a string, one that shares a line) and for the others."""
    texts = [
        "",
        "\\n",
        "a\\nb\\n",
        "a\\r\\nb",
        "x: 1\\ny: 2",
        '{"output": "o", "exitCode": 2}',
        '{"content": "c\\nd"}',
        '{"diff": "-a"}',
        "src/a.py:3:x\\n",
        "   \\n",
        "é\\u2028f",
    ]
    edits: list[JSONObject] = [
        {"path": "/w/a.py", "old_str": "a = 1", "new_str": "a = 2\nb = 3"},
        {"path": "/w/a.py", "old_str": "x\ny", "new_str": "x\nz"},
        {"path": "/w/a.py", "old_str": "", "new_str": "b"},
        {"path": "/w/a.py", "old_str": 3, "new_str": "b"},
        {
            "path": "/w/a.py",
            "old_str": "a",
            "new_str": "b",
            "old_string": "c\nd",
            "new_string": "e",
        },
        {"path": "/w/a.py", "old_str": "a", "new_str": "b", "old_string": 1},
        {
            "path": "/w/a.py",
            "old_str": "a",
            "new_str": "b",
            "edits": [{"old_str": "p", "new_str": "q"}],
        },
        {"path": "/w/a.py", "old_str": "a", "new_str": "b", "edit": {"old": "p", "new": "q"}},
        {"path": "/w/a.py"},
    ]
    cases = [
        (kind, {"path": "/w/a.py", "cmd": "ls"})
        for kind in ("shell", "read", "grep", "glob", "task")
    ]
    cases += [("edit", args) for args in edits]
    for kind, args in cases:
        for raw in texts:
            text = orjson.loads(f'"{raw}"') if not raw.startswith("{") else raw
            want = success_said(kind, args, text) or success_payload(kind, args, text)
            got = ended(kind, args, text)
            assert got.__class__ is want.__class__, (kind, args, text)
            for call_kind in (kind, "task"):
                assert _ended(call_kind, got) == _ended(call_kind, want), (kind, args, text)
            if isinstance(got, Said):
                assert isinstance(want, Said)
                assert (got.kind, got.summary, got.numbers) == (
                    want.kind,
                    want.summary,
                    want.numbers,
                )
                assert got.build() == want.build()
            else:
                assert got == want


SID = "T-019e6000-0000-7000-8000-00000000f457"


def _amp(kind: str, content: list[Any]) -> bytes:
    message = {"role": kind, "content": content}
    return orjson.dumps({"type": kind, "session_id": SID, "message": message})


def _use(call_id: str, name: str, given: JSONObject) -> bytes:
    return _amp("assistant", [{"type": "tool_use", "id": call_id, "name": name, "input": given}])


def _result(call_id: str, content: Any) -> bytes:
    block = {"type": "tool_result", "tool_use_id": call_id, "is_error": False, "content": content}
    return _amp("user", [block])


SETTLED_RUN = [
    orjson.dumps({"type": "system", "subtype": "init", "session_id": SID, "tools": []}),
    _use("c1", "Grep", {"pattern": "x"}),
    _use("c2", "Read", {"path": "/w/a.py"}),
    _amp("user", [{"type": "text", "text": "Go on."}]),  # the long way: c1, c2 settled
    _result("c1", "src/a.py:3:x\nsrc/b.py:1:x\n"),
    _result("c2", [{"type": "text", "text": "a\nb"}, {"type": "text", "text": "c"}]),
    _use("c3", "Grep", {"pattern": "y"}),
    _result("c3", "File: a.py\nL3: y\n"),  # sections: the payload built
    _use("c4", "Grep", {"pattern": "z"}),
    _result("c4", [{"type": "image"}]),  # no text at all
]
"""Results of calls Claude Code's translator was given (a line went the long way after
they started), a grep's (matches, sections), a result of text blocks and of none."""


def test_a_result_of_a_call_settled_ends_it_for_claude_codes_translator_too() -> None:
    data = b"\n".join(SETTLED_RUN)
    assert_fast_line_agrees(translator(), translator(), data, said_built, _state)
    reader = translator()
    assert taken_lines(reader, data) == {2, 3, 5, 6, 7, 8, 9, 10}
    assert reader._inner._calls == {} and reader._unread == {}


TARGET_INPUTS: list[JSONObject] = [
    {"path": "/w/a.py"},
    {"path": "", "file_path": "/w/b.py"},
    {"path": ""},
    {"path": 3},
    {"cmd": "ls"},
    {"cmd": "", "command": "make"},
    {"cmd": 5},
    {"pattern": "x"},
    {"pattern": ""},
    {"filePattern": "*.py"},
    {"query": "q"},
    {"old_str": "a", "new_str": "b", "path": "/w/c.py"},
    {},
]
"""Arguments whose target is a string, an empty one, another type or none."""


def test_a_call_hands_its_target_over_where_it_is_one_argument_as_the_fold_finds_it() -> None:
    """A call of a kind whose target is one argument (a read's path, a command, a
    grep's pattern) carries it, as :func:`~streamview.core.tools.target_of` gives it
    (``None`` for an empty one or another type); other kinds leave it to the fold."""
    handed = 0
    for name in ["Read", "Bash", "Grep", "edit_file", "create_file", "glob", "web_search"]:
        for given in TARGET_INPUTS:
            record = translator().fast_line(_use("c1", name, given), 2)
            assert record is not None, (name, given)
            fields = record[2]
            if fields[3] in ONE_TARGET_ARG:
                assert len(fields) == 13 and fields[12] == target_of(fields[3], fields[4])
                handed += fields[12] is not None
            else:
                assert len(fields) == 12, (name, given)
    assert handed == 12  # three paths each of a read, an edit and a write, two commands, a pattern


def test_one_replacement_is_said_as_edit_counts_counts_it() -> None:
    """:func:`pair_said` (remembered by count) gives ``edit_counts`` of the one pair, in
    the payload's words: one line for another, the same line, shared lines, blank sides,
    breaks besides ``\\n``, trailing breaks, and the same counts again."""
    sides = ["", "a", "b", "a\nb", "b\na", "a\rc", "x\u2028y", "a\n", "a\n\n", "c\nd\ne"]
    said = 0
    for old in sides:
        for new in sides:
            counts = edit_counts([(old, new)])
            got = pair_said(old, new)
            if counts is None:
                assert got is None, (old, new)
                continue
            added, removed = counts
            assert got == (f"+{added} -{removed}", (added, removed, None)), (old, new)
            assert pair_said(old, new) == got  # remembered, the same
            said += 1
    assert said == 36  # of the 100 pairs: the rest share a line or have a blank side


def test_a_calls_input_is_read_with_its_line_where_msgspec_reads_it_as_orjson() -> None:
    """Flat values, lists of them or of flat objects, flat objects: read with the line,
    as ``fast`` reads the decoded one; a float, an integer past 64 bits, an object in an
    object and a list in a list decline the line (``orjson`` reads it then)."""

    def call(given: bytes) -> bytes:
        return (
            b'{"type":"assistant","session_id":"T-1","message":{"content":[{"type":"tool_use",'
            b'"id":"c1","name":"Bash","input":' + given + b"}]}}"
        )

    taken = [
        b'{"cmd":"ls","timeout":30,"background":false,"cwd":null}',
        b'{"cmd":"ls","env":["A=1",2,null],"opts":{"a":"b","n":-9223372036854775808}}',
        b'{"todos":[{"content":"x","status":"pending"},"y"]}',
        b"{}",
    ]
    declined = [
        b'{"cmd":"ls","timeout":1.5}',
        b'{"cmd":"ls","n":9223372036854775808}',
        b'{"cmd":"ls","opts":{"a":{"b":1}}}',
        b'{"cmd":"ls","argv":[["a"]]}',
        b'["ls"]',
    ]
    data = b"\n".join(call(given) for given in taken)
    assert taken_lines(translator(), data) == {1, 2, 3, 4}
    assert_fast_line_agrees(translator(), translator(), data, said_built, _state)
    for given in declined:
        assert translator().fast_line(call(given), 1) is None, given


def test_lines_counted_by_memchr_are_what_the_shared_counts_say() -> None:
    """:func:`read_lines` and :func:`shell_lines` (an ASCII text's newlines found by
    ``memchr``) say what ``plural(line_count(...))`` and ``output_lines`` say: every
    text of up to six of ``a``, ``\\n``, ``\\r``, a space, a tab, ``\\x0b`` and ``é``,
    and long ones: lines of each length about the one where :func:`newlines` stops
    and counts as ``str.count`` does, only newlines, trailing ``\\r\\n``."""
    alphabet = ["a", "\n", "\r", " ", "\t", "\x0b", "é"]
    texts = ["".join(chars) for size in range(7) for chars in product(alphabet, repeat=size)]
    texts += [("y" * width + "\n") * 50 + tail for width in range(28, 36) for tail in ("", "z")]
    texts += [("x" * 40 + "\n") * (NEWLINES_BY_MEMCHR // 41 + n) for n in range(-1, 2)]
    texts += ["\n" * 1000, "x" * 5000, "a\r\n" * 40 + "\r\n\n", "é\n" * 40, ("x" * 90 + "\n") * 70]
    for text in texts:
        assert line_count(text) == len(text.splitlines()), repr(text)
        assert read_lines(text) == plural(len(text.splitlines()), "line"), repr(text)
        assert shell_lines(text) == output_lines(text), repr(text)
        if text.isascii():
            assert newlines(text) == text.count("\n"), repr(text)
