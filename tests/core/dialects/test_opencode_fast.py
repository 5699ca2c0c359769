"""opencode's (and Kilo's) fast path reads a step's start, its text, a step that
called tools and a call that completed straight from their bytes, and declines every
line it might read otherwise than the general path does.

``fast-lines.jsonl`` (in ``opencode/`` and ``kilo/``) holds both kinds;
``test_fast_json.py`` checks that ``--json`` is the same with and without the fast
path, and this test that the fast path really takes the lines it is meant to.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson

from streamview.core.dialects.opencode import OpenCodeTranslator
from streamview.core.dialects.opencode_fast import _RENAMED, _path_args, _renamed, decode_hot_line
from streamview.core.dialects.opencode_tools import (
    Metadata,
    _grep_summary,
    _lines,
    args_for,
    kind_of,
    success_payload,
    success_said,
)
from streamview.core.model import ToolCall
from streamview.core.tools import Said, _said_summary, plural, target_of

from .fast_taken import assert_fast_line_agrees, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"

TAKEN = {*range(2, 20), 29, 32, 35, 39, *range(42, 49), 50}
"""Steps' starts, text (non-ASCII, escaped), steps that called tools and calls that
completed (a read, a grep, a command, an edit with an integer past 64 bits in its
input, a subagent, a glob named by its part's ``id``, a command whose exit is past 64
bits, edits with and without the stream's diff, a write with no times, an MCP tool, an
edit whose input has ``path`` and ``old_string`` beside opencode's names), in
the run already started; not the first record, a step after one that ended
``unknown``, a step that ends the run, a record of another session, a call of the
``invalid`` tool, one that failed or is not finished, nor one whose ``callID`` is a
number or whose start is a float."""


def test_the_fast_path_takes_steps_and_text_and_declines_the_unusual() -> None:
    data = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes()
    assert (FIXTURES / "kilo" / "fast-lines.jsonl").read_bytes() == data
    assert taken_lines(OpenCodeTranslator(), data) == TAKEN


def _plain(record: object) -> object:
    """A fast record with a said result as what it says (its payload built), and the
    target ``fast_line`` hands over (a thirteenth field) checked against the one the
    fold would find, then dropped (``fast`` leaves it to the fold)."""
    if not isinstance(record, tuple) or record[0] != "tool_call":
        return record
    fields = list(record[2])
    if len(fields) == 13:
        assert fields.pop() == target_of(fields[3], fields[4]), fields
    if isinstance(fields[4], dict):  # the arguments in their order, as a view shows them
        fields[4] = list(fields[4].items())
    said = fields[6]
    if isinstance(said, Said):
        fields[6] = (said.kind, said.status, said.summary, said.numbers, said.build())
    return (*record[:2], tuple(fields), *record[3:])


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    """Integers past 64 bits in a call's input and metadata included: read as the
    general path reads them (``orjson``: a float)."""
    data = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes()
    assert_fast_line_agrees(OpenCodeTranslator(), OpenCodeTranslator(), data, _plain)


CASES = [
    ("read", {"path": "/w/a.py"}, "", {}),
    ("read", {"path": "/w/a.py"}, "one\ntwo\n", None),
    ("grep", {"pattern": "x"}, "Found 1 match\n", {}),
    ("grep", {"pattern": "x"}, "a.py:\n  Line 3: x\n\n  Line 9: x\n", {}),
    ("shell", {"command": "make"}, "a\r\nb\r\n\r\n", {"exit": 2}),
    ("shell", {"command": "ls"}, " \n", {"exit": "0"}),
    ("shell", {"command": "ls"}, "", ["not", "an", "object"]),
    ("shell", {"command": "make"}, "a\nb\n", {"exit": True}),
    ("shell", {"command": "make"}, "a\nb", {"exit": 2.0}),
    ("shell", {"command": "make"}, "a\nb\n\n", {"exit": 2}),  # the summary kept above
    ("shell", {"command": "make"}, "a\nb", {}),
    ("grep", {"pattern": "x"}, "a.py:\n \u2028 \x0c\n  Line 3: x\r\n", {}),
    ("edit", {"path": "/w/a.py", "old_string": "a = 1", "new_string": "a = 2\nb"}, "ok", {}),
    ("edit", {"path": "/w/a.py"}, "ok", {"diff": "--- a\n+++ b\n@@ -1 +1 @@\n-p\n+q\n+r"}),
    ("edit", {"path": "/w/a.py"}, "", {"diff": "-p\n+q", "filediff": {"additions": 4.0}}),
    ("edit", {"path": "/w/a.py"}, "", {"diff": "-p", "filediff": {"additions": 3, "deletions": 1}}),
]


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def test_a_said_result_ends_the_call_as_its_payload_does() -> None:
    """Of its own kind, and of another (a call id used again: the payload is built);
    twice, the second time with the summaries kept."""
    for kind, args, output, metadata in CASES * 2:
        said = success_said(kind, args, output, metadata)
        assert said is not None
        built = success_payload(kind, args, output, metadata)
        for call_kind in (kind, "task"):
            assert _ended(call_kind, said) == _ended(call_kind, built), (kind, output)
    assert success_said("edit", {"path": "/w/a.py"}, "done", {}) is None
    shared = {"path": "/w/a.py", "old_string": "x\ny", "new_string": "x\nz"}  # difflib's
    assert success_said("edit", shared, "done", {}) is None


def _reordered(line: bytes) -> bytes:
    """The record with its keys in reverse order (as a wrapper re-serialising it may
    write them): ``type`` last, not first."""
    return orjson.dumps(dict(reversed(list(orjson.loads(line).items()))))


def test_a_record_is_taken_whatever_the_order_of_its_keys() -> None:
    """One decoder reads the four hot records, with no look at how the line starts: a
    re-serialised run is taken as the CLI's own, and read as ``fast`` reads it."""
    data = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes()
    lines = data.splitlines()
    reordered = b"\n".join([lines[0], *map(_reordered, lines[1:])])
    # Line 24's cost past 64 bits is a float once re-serialised by orjson: taken then.
    assert taken_lines(OpenCodeTranslator(), reordered) == TAKEN | {24}
    assert_fast_line_agrees(OpenCodeTranslator(), OpenCodeTranslator(), reordered, _plain)


def test_a_command_and_a_grep_keep_the_arguments_args_for_gives() -> None:
    """Their one renamed argument (``workdir``, ``include``) moved as ``shapes.rename``
    moves it: to the end, or onto a key already there; left alone when it is no
    non-empty string."""
    cases = [
        ("bash", {"command": "ls", "workdir": "/w", "description": "list"}),
        ("bash", {"command": "ls", "workdir": ""}),
        ("bash", {"command": "ls"}),
        ("grep", {"pattern": "x", "include": "*.py", "path": "/w"}),
        ("grep", {"glob": "old", "pattern": "x", "include": "*.py"}),
        ("grep", {"pattern": "x", "include": 3}),
        ("grep", ["not", "an", "object"]),
    ]
    for name, given in cases:
        kind = kind_of(name)
        expected = list(args_for(name, kind, given).items())
        assert list(_renamed(given, *_RENAMED[kind]).items()) == expected, given


def test_a_count_of_lines_is_said_as_plural_says_it() -> None:
    """Counts formatted once and kept, and counts past what is kept."""
    for count in (1, 2, 999, 1_000, 9_999, 10_000, 123_456):
        assert _lines(count) == plural(count, "line")
        assert _lines(count) == plural(count, "line")  # the kept one, if kept


GREP_OUTPUTS = [
    "a.py:3: x",
    "a.py:3: x\n",
    "a.py:3: x\nb.py:9: y",
    "a.py:3: x\nb.py:9: y\n",
    "Found 2 matches\na.py:\n  Line 3: x\n  Line 9: x",
    "a.py:3: x\n\nb.py:9: y",
    "\na.py:3: x\nb.py:9: y",
    "a.py:3: x\n   \nb.py:9: y",
    "a.py:3: x\n\t\nb.py:9: y",
    " a.py:3: x\nb.py:9: y",
    "\ta.py:3: x\nb.py:9: y",
    "\na.py:3: x",
    "a.py:3: x\nb.py:9: y\n\t",
    "",
    "a.py:3: x\nb.py:9: y\n\n\n",
    "a.py:3: x\rb.py:9: y",
    "a.py:3: x\r\nb.py:9: y\r\n",
    "a.py:3: x\x0bb.py:9: y",
    "a.py:3: x\x0cb.py:9: y",
    "a.py:3: x\x1cb.py:9: y\x1dc\x1ed",
    "a.py:3: x\n\x1f\nb.py:9: y",
    "a.py:3: x\u2028b.py:9: y\x85c",
    "a.py:3: x\n\u3000\nb.py:9: y",
    "a.py:3: é\nb.py:9: y",
    "a.py:3: x\nb.py:9: y  \nc.py:1: z\t",
    "   ",
    "\n",
    "x",
]


def test_a_grep_is_summarised_as_its_payload_would_be() -> None:
    """Plain outputs counted without a split, the others split; blank lines of every
    kind (empty, spaces, a tab, a unit separator, an ideographic space) not counted,
    lines ended by any of ``splitlines``' ends."""
    for output in GREP_OUTPUTS:
        assert _grep_summary(output) == _said_summary("grep", output), repr(output)
    many = "".join(f"a.py:{n}: x\n" for n in range(1_234))
    assert _grep_summary(many) == _said_summary("grep", many) == "1,234 matching lines"
    assert _grep_summary(many) == "1,234 matching lines"  # the kept one
    more = many * 10  # past the counts kept
    assert _grep_summary(more) == _grep_summary(more) == _said_summary("grep", more)


def test_a_read_and_an_edit_keep_the_arguments_args_for_gives() -> None:
    """Renamed in the input itself (just decoded, read by nothing else), in the order
    ``args_for`` leaves them: the path alone, the edit's three, and with others."""
    cases = [
        ("read", {"filePath": "/w/a.py"}),
        ("read", {"filePath": "/w/a.py", "offset": 10, "limit": 5}),
        ("read", {"offset": 10, "filePath": "/w/a.py", "path": "/old"}),
        ("edit", {"filePath": "/w/a.py", "oldString": "a", "newString": "b"}),
        ("edit", {"newString": "b", "filePath": "/w/a.py", "oldString": "a"}),
        ("edit", {"filePath": "/w/a.py", "oldString": "a", "newString": "b", "replaceAll": True}),
        ("edit", {"path": "/p", "filePath": "/w/a.py", "oldString": "a", "newString": "b"}),
        ("edit", {"filePath": "/w/a.py", "oldString": "", "newString": "b"}),
        ("read", {"filePath": ""}),
    ]
    for name, given in cases:
        kind = kind_of(name)
        expected = list(args_for(name, kind, dict(given)).items())
        assert list(_path_args(name, kind, given).items()) == expected, given


INPUTS = [
    {"filePath": "/w/a.py", "offset": 10, "limit": -5, "replaceAll": True, "glob": None},
    {"filePath": "/w/a.py", "limit": 9_223_372_036_854_775_807},
    {"filePath": "/w/a.py", "limit": 18_446_744_073_709_551_615},
    {"filePath": "/w/a.py", "limit": 2**70},
    {"filePath": "/w/a.py", "limit": -(2**64) - 1},
    {"filePath": "/w/a.py", "offset": 1.5},
    {"filePath": "/w/a.py", "offset": 2.0},
    {"command": "ls", "env": {"A": "1"}},
    {"todos": [{"content": "x", "status": "pending"}]},
    {"filePath": "/w/é.py", "filePath2": 'a\\nb \u2028 "q"'},
    {},
]
"""Calls' inputs: flat ones (strings, booleans, nulls, integers of 64 bits: decoded with
the line) and the others (an unsigned 64-bit integer, integers past 64 bits, floats, an
object, a list: the line decoded again, its input by ``orjson``)."""


def test_a_call_is_taken_whatever_the_shape_of_its_input_and_read_as_fast_reads_it() -> None:
    """Each input read as ``orjson`` reads it: same values, same types (``2.0`` stays a
    float, ``2**70`` becomes one, an unsigned 64-bit integer stays an ``int``), same
    key order."""
    first = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes().splitlines()[0]
    lines = [first]
    for number, given in enumerate(INPUTS):
        for tool in ("read", "bash", "todowrite", "edit", "mymcp_tool"):
            state = {"status": "completed", "input": given, "output": "a\nb", "metadata": {}}
            part = {"type": "tool", "callID": f"c{number}{tool}", "tool": tool, "state": state}
            record = {"type": "tool_use", "sessionID": "ses_fast0000000000000001", "part": part}
            lines.append(json.dumps(record, ensure_ascii=False).encode())  # 2**70 too
    data = b"\n".join(lines)
    assert taken_lines(OpenCodeTranslator(), data) == set(range(2, len(lines) + 1))

    def typed(record: object) -> object:
        # The arguments with their values' types: 2 == 2.0, but a view shows them apart.
        plain = _plain(record)
        if isinstance(plain, tuple) and plain[0] == "tool_call":
            args = plain[2][4]
            return plain, [(key, type(value)) for key, value in args]
        return plain

    assert_fast_line_agrees(OpenCodeTranslator(), OpenCodeTranslator(), data, typed)


METADATA = [
    b"{}",
    b"{ }",
    b'{"exit":0}',
    b'{"exit":3}',
    b'{"exit":184467440737095516160}',
    b'{"diff":"@@\\n+a\\n-b\\n+c"}',
    b'{"diff":"@@\\n+a","filediff":{"additions":4,"deletions":1}}',
    b'{"diff":5}',
    b'{"diff":""}',
    b"[]",
    b"null",
    b'"{}"',
    b'{"output":"a\\nb","exit":0,"description":"list","truncated":false}',
    b'{"diagnostics":{"/w/a.py":[]},"diff":"@@\\n-a\\n+b","filediff":'
    b'{"file":"/w/a.py","before":"a","after":"b","additions":1,"deletions":1}}',
    b'{"filediff":null,"count":null,"todos":null,"diff":null,"exit":null}',
    b'{"exit":1,"exit":0,"diff":"+a","diff":"+a\\n+b"}',
    b'{"exit":true}',
    b'{"exit":"2"}',
    b'{"count":3,"todos":[{"content":"x","status":"pending"}],"filediff":{"additions":2.0}}',
]
"""Calls' metadata as the line spells it: an empty object with and without a space, an
exit code (past 64 bits too), an edit's diff and its counts, a diff of another type or
empty, no object at all; as opencode writes them (a command's output again, an edit's
file before and after: skipped), fields given as null, given twice (the last stands),
an exit code that is a boolean or a string, a glob's count and a todo list."""


def test_a_call_is_read_as_fast_reads_it_whatever_its_metadata() -> None:
    """The metadata an empty object most calls give is not decoded; any other is, by
    ``orjson``, as the general path reads it (a command's exit, an edit's counts)."""
    first = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes().splitlines()[0]
    lines = [first]
    inputs = {
        "bash": {"command": "ls"},
        "edit": {"filePath": "/w/a.py", "oldString": "a\nb", "newString": "c"},
        "read": {"filePath": "/w/a.py"},
        "glob": {"pattern": "*.py"},
        "todowrite": {"todos": []},
        "grep": {"pattern": "x"},
    }
    for number, metadata in enumerate(METADATA):
        for tool, given in inputs.items():
            state = {"status": "completed", "input": given, "output": "a\nb\n", "metadata": 0}
            part = {"type": "tool", "callID": f"c{number}{tool}", "tool": tool, "state": state}
            record = {"type": "tool_use", "sessionID": "ses_fast0000000000000001", "part": part}
            lines.append(
                json.dumps(record).encode().replace(b'"metadata": 0', b'"metadata":' + metadata)
            )
    data = b"\n".join(lines)
    assert taken_lines(OpenCodeTranslator(), data) == set(range(2, len(lines) + 1))
    assert_fast_line_agrees(OpenCodeTranslator(), OpenCodeTranslator(), data, _plain)
    translator = OpenCodeTranslator()
    translator.translate(orjson.loads(first), 1, None)
    for number, line in enumerate(lines[1:], 2):
        record = translator.fast_line(line, number)
        assert record is not None
        _, _, _, kind, args, _, said, *_ = record[2]
        state = orjson.loads(line)["part"]["state"]
        built = success_payload(kind, args, state["output"], state["metadata"])
        assert _ended(kind, said) == _ended(kind, built), line
        assert (said.build() if isinstance(said, Said) else said) == built, line


SAID_CALLS = [
    ("bash", {"command": "ls"}, "a\nb", {"exit": 0}),
    ("bash", {"command": "ls"}, "a\nb\n", {"exit": 0}),
    ("bash", {"command": "ls"}, "a\r\nb\r\n", {"exit": 0}),
    ("bash", {"command": "ls"}, "a\nb\n\n", {"exit": 1}),
    ("bash", {"command": "ls"}, "a\nb", {"exit": "2"}),
    ("bash", {"command": "ls"}, "a\nb", {"exit": True}),
    ("bash", {"command": "ls"}, "a\nb", {"exit": 0.0}),
    ("bash", {"command": "ls"}, " \n\t", {"exit": 0}),
    ("bash", {"command": "ls"}, "", {"exit": 3}),
    ("bash", {"command": "ls"}, "", {}),
    ("bash", {"command": "ls", "workdir": "/w", "description": 5}, "x", {"exit": 0}),
    ("bash", ["not", "an", "object"], "x", {"exit": 0}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a = 1", "newString": "a = 2"}, "", {}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a = 1", "newString": "a = 1"}, "", {}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a\nb", "newString": "c\nd\ne"}, "", {}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a\nb", "newString": "b\nc"}, "", {}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a\r\n", "newString": "b\u2028c"}, "", {}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a", "newString": "b"}, "", {"diff": ""}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a", "newString": "b"}, "", {"diff": "+q"}),
    ("edit", {"filePath": "/w/a.py", "oldString": "a", "newString": "b"}, "", None),
    ("edit", {"filePath": "/w/a.py", "oldString": "", "newString": "b"}, "", {}),
    ("grep", {"pattern": "x", "include": "*.py"}, "a.py:1: x\nb.py:2: x", {}),
    ("grep", {"pattern": "", "include": ""}, "a.py:1: x", {}),
    ("grep", "x", "a.py:1: x", {}),
]
"""Commands, edits and greps whose summaries ``fast_line`` works out in its own body:
exit codes of every type, outputs ended or not by a newline, blank, empty; one line
replaced by another, by itself, lines with one in common, other line ends, a diff given
or empty; a grep's renamed argument present, empty, an input that is no object."""


def test_a_said_command_edit_or_grep_ends_its_call_as_its_payload_does() -> None:
    """What ``fast_line`` says of each (status, summary, numbers, target, arguments,
    description) is what ``fast`` says, and what the built payload says."""
    first = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes().splitlines()[0]
    lines = [first]
    for number, (tool, given, output, metadata) in enumerate(SAID_CALLS * 2):
        state = {"status": "completed", "input": given, "output": output, "metadata": metadata}
        part = {"type": "tool", "callID": f"c{number}", "tool": tool, "state": state}
        record = {"type": "tool_use", "sessionID": "ses_fast0000000000000001", "part": part}
        lines.append(orjson.dumps(record))
    data = b"\n".join(lines)
    assert taken_lines(OpenCodeTranslator(), data) == set(range(2, len(lines) + 1))
    assert_fast_line_agrees(OpenCodeTranslator(), OpenCodeTranslator(), data, _plain)
    translator = OpenCodeTranslator()
    translator.translate(orjson.loads(first), 1, None)
    for number, line in enumerate(lines[1:], 2):
        record = translator.fast_line(line, number)
        assert record is not None
        _, _, _, kind, args, _, said, *_ = record[2]
        state = orjson.loads(line)["part"]["state"]
        built = success_payload(kind, args, state["output"], state["metadata"])
        for call_kind in (kind, "task"):
            assert _ended(call_kind, said) == _ended(call_kind, built), line


def test_a_record_of_another_type_or_of_none_goes_the_long_way() -> None:
    """The four hot records are told apart by ``type``: a reasoning, an error, a
    ``done``, a type nobody knows, a type that is no string, and a record without one
    are each declined (and the next hot record still taken), as is a record that names
    two types (``orjson`` reads the last)."""
    first = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes().splitlines()[0]
    sid = b'"sessionID":"ses_fast0000000000000001"'
    others = [
        b'{"type":"reasoning",' + sid + b',"part":{"text":"hm"}}',
        b'{"type":"error",' + sid + b',"error":{"name":"E"}}',
        b'{"type":"done",' + sid + b',"reason":"idle"}',
        b'{"type":"step_begin",' + sid + b',"part":{}}',
        b'{"type":5,' + sid + b',"part":{"text":"x"}}',
        b"{" + sid + b',"part":{"text":"x"}}',
        b'{"type":"text",' + sid + b',"part":{"text":5}}',
        b'{"type":"step_start",' + sid + b',"timestamp":"5"}',
        b'{"type":"text","type":"step_start",' + sid + b"}",
        b'{"type":"step_start","type":"text",' + sid + b',"part":{"text":"x"}}',
    ]
    hot = b'{"type":"step_start",' + sid + b',"timestamp":7}'
    translator = OpenCodeTranslator()
    translator.translate(orjson.loads(first), 1, None)
    for number, line in enumerate(others, 2):
        assert translator.fast_line(line, number) is None, line
        record = translator.fast_line(hot, number)
        assert record == ("thinking", "completed", None, None, "ses_fast0000000000000001", 7, None)


def test_metadata_as_opencode_writes_it_is_read_with_the_line_not_again() -> None:
    """A command's, an edit's, a glob's and a todo list's metadata are read into the
    struct with the line (what they repeat skipped), not by a second decode."""
    for metadata in METADATA[12:15] + METADATA[-1:]:
        line = (
            b'{"type":"tool_use","part":{"callID":"c","tool":"edit","state":'
            b'{"status":"completed","input":{},"metadata":' + metadata + b"}}}"
        )
        state = decode_hot_line(line).part.state  # type: ignore[union-attr]
        assert state is not None and state.metadata.__class__ is Metadata, metadata
        read = state.metadata.as_dict()  # type: ignore[union-attr]
        given = orjson.loads(metadata)
        for key in ("exit", "diff", "filediff", "count", "todos"):
            assert read.get(key) == given.get(key), (metadata, key)
