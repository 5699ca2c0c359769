"""Droid's fast path reads an assistant ``message``, a ``tool_call`` and a plain
``tool_result`` straight from their bytes, gives what :meth:`fast` gives for the decoded
line, and declines every line it might read otherwise (issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects.amp_tools import edit_counts
from streamview.core.dialects.droid import DroidTranslator
from streamview.core.dialects.droid_fast import decode_hot
from streamview.core.dialects.droid_tools import (
    args_of,
    call_shape,
    description_of,
    ended,
    kind_of,
    plain_result,
    success_payload,
    success_said,
)
from streamview.core.events import JSONObject
from streamview.core.fast_path import ONE_TARGET_ARG
from streamview.core.tools import Said, target_of

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "droid"
DATA = (FIXTURES / "fast-lines.jsonl").read_bytes()

TAKEN = {3, 5, 8, 9, 12, 16, 17, 19}
"""An answer (non-ASCII, escaped), calls (one stamped on arrival, one whose
``session_id`` is null, an MCP tool's) and
results (a read, an error without an ``error`` object answering the oldest open call, one
with no ``session_id``, one whose ``value`` is null); not the prompt, the reasoning nor
the answer after it, a call whose id is a number or whose parameters hold an integer
past 64 bits (``orjson`` reads a float there: the long way), a result with an ``error`` object or
an object ``value``, a time stamp that is a string or ``true``, an arrival stamp that is
a string, a text that is a number, nor the init and the ``completion``."""


def test_the_fast_path_takes_answers_calls_and_results_and_declines_the_unusual() -> None:
    assert taken_lines(DroidTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    """Each line taken as :meth:`fast` takes the decoded one (the call with an integer
    past 64 bits in its parameters read by ``fast`` from ``orjson``'s float)."""
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), DATA, said_built)


def test_a_whole_run_is_taken_but_its_prompt_thought_and_ends() -> None:
    """The success fixture: every answer, call and result after the first thought but
    the failed command's (its ``error`` object)."""
    data = (FIXTURES / "success-tools.jsonl").read_bytes()
    assert taken_lines(DroidTranslator(), data) == set(range(5, 30)) - {8}
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), data, said_built)


def _line(**record: object) -> bytes:
    return orjson.dumps({**record, "session_id": "s", "timestamp": 5})


def test_plain_results_find_their_call_as_the_general_path_does() -> None:
    """A plain result read in ``fast_line``'s own body: one naming its call, one with no
    id (the oldest open call), one with an empty id, one whose id no open call has, one
    with none open (its ``toolId`` names the tool), and an error among them."""
    call = {"type": "tool_call", "toolName": "Read", "toolId": "Read"}
    result = {"type": "tool_result", "isError": False}
    data = b"\n".join(
        [
            _line(**call, id="c1", messageId="m1", parameters={"file_path": "/a"}),
            _line(**call, id="c2", parameters={"file_path": "/b"}),
            _line(**call, id="c3", parameters={"file_path": "/c"}),
            _line(**result, id="c2", toolId="Read", value="a\nb\n"),
            _line(**result, toolId="Read", value="a\n"),
            _line(**result, id="", toolId="Read", value=""),
            _line(**result, id="c9", toolId="Grep", value="x.py\n"),
            _line(**result, id="c8", toolId="Grep", value="x.py:3: y\n"),
            _line(type="tool_result", id="c7", toolId="Read", isError=True, value="no such file"),
        ]
    )
    assert taken_lines(DroidTranslator(), data) == set(range(1, 10))
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), data, said_built)
    translator = DroidTranslator()
    records = [translator.fast_line(line, n) for n, line in enumerate(data.splitlines(), 1)]
    ended = [(r[2][2], r[2][3]) for r in records[3:] if r is not None]
    assert ended == [
        ("c2", "read"),
        ("c1", "read"),
        ("c3", "read"),
        ("c9", "grep"),
        ("c8", "grep"),
        ("c7", "read"),
    ]


def test_a_calls_parameters_are_read_with_the_line_as_orjson_reads_them() -> None:
    """Flat values, lists of them or of flat objects and flat objects are read with the
    line, each of the type ``orjson`` gives; a float, an integer past 64 bits either way,
    an object in an object, a list in a list, and parameters that are not an object
    decline the line (``orjson`` reads it then)."""
    taken = [
        b'{"command":"ls","timeout":30,"background":false,"cwd":null}',
        b'{"a":9223372036854775807,"b":-9223372036854775808}',
        b'{"patterns":["*.py",3,null],"folder":"/w"}',
        b'{"todos":[{"content":"x","status":"pending"},"y"]}',
        b'{"where":{"path":"/w","n":1}}',
        b'{"a":"x","a":"y"}',
        b'{"caf\\u00e9":"\\u00e9\\n\\"q\\""}',
        b"{}",
        b"null",
    ]
    declined = [
        b'{"a":9223372036854775808}',
        b'{"a":-9223372036854775809}',
        b'{"a":123456789012345678901234567890}',
        b'{"a":1.5,"b":1e2,"c":-0}',
        b'{"a":[1.5]}',
        b'{"a":[[1]]}',
        b'{"a":{"b":{"c":1}}}',
        b'{"a":[{"b":[1]}]}',
        b"[1, 2]",
        b'"text"',
    ]
    for data in taken:
        read = decode_hot(b'{"type":"tool_call","parameters":' + data + b"}").parameters
        assert read == orjson.loads(data), data
        assert [v.__class__ for v in _values(read)] == [
            v.__class__ for v in _values(orjson.loads(data))
        ]
    for data in declined:
        line = b'{"type":"tool_call","id":"c","toolName":"Read","parameters":' + data + b"}"
        assert DroidTranslator().fast_line(line, 1) is None, data
        assert DroidTranslator().fast(orjson.loads(line), 1) is not None, data
    assert decode_hot(b'{"type":"tool_call"}').parameters is None


def _values(value: object) -> list[object]:
    return list(value.values()) if isinstance(value, dict) else [value]


def test_ended_is_the_kind_and_said_or_payload_of_every_tool() -> None:
    """The fast path's one-step result (:func:`ended`) is the call's kind and what
    ``success_said(...) or success_payload(...)`` gives, for the kinds it tells first
    and the others, whatever the value."""
    values: list[object] = [
        "",
        "a\nb\n",
        "a\r\nb",
        "x: 1\ny: 2",
        "   \n",
        "é\u2028f",
        "src/a.py:3:x\n",
        None,
        {"diff": "+a"},
    ]
    edits: list[JSONObject] = [
        {"path": "/w/a.py", "old_str": "a = 1", "new_str": "a = 2\nb = 3"},
        {"path": "/w/a.py", "old_str": "x\ny", "new_str": "x\nz"},
        {
            "path": "/w/a.py",
            "old_str": "a",
            "new_str": "b",
            "old_string": "c\nd",
            "new_string": "e",
        },
        {"path": "/w/a.py", "old_str": "a", "new_str": "b", "edits": [{"old": "p\nq", "new": "r"}]},
        {"path": "/w/a.py", "old_str": 3, "new_str": "b"},
        {"path": "/w/a.py", "input": "*** Update File: a.py\n+x\n-y"},
        {"path": "/w/a.py"},
    ]
    cases = [
        (name, {"command": "ls", "path": "/w/a"})
        for name in ("Execute", "Read", "Grep", "LS", "Task", "mcp__s__t", "", "Other")
    ]
    cases += [(name, args) for name in ("Edit", "MultiEdit", "ApplyPatch") for args in edits]
    for name, args in cases:
        for value in values:
            kind, got = ended(name, args, value)
            want = success_said(name, args, value) or success_payload(name, args, value)
            assert kind == kind_of(name)
            assert got.__class__ is want.__class__, (name, args, value)
            if isinstance(got, Said):
                assert isinstance(want, Said)
                assert (got.kind, got.status, got.summary, got.numbers) == (
                    want.kind,
                    want.status,
                    want.summary,
                    want.numbers,
                ), (name, args, value)
                assert got.build() == want.build()
            else:
                assert got == want


def test_call_shape_is_kind_args_and_description_of_the_call() -> None:
    """The usual calls shaped in one step give what the kind's general reading gives."""
    inputs: list[Any] = [
        None,
        [1, 2],
        {"file_path": "/w/a.py"},
        {"file_path": "", "path": "/w/b.py"},
        {"file_path": "", "path": ""},
        {"file_path": 3, "path": 4},
        {"path": "/w/c.py", "directory_path": "/w"},
        {"command": "ls", "riskLevelReason": "reads", "riskLevel": "low"},
        {"command": "ls", "riskLevelReason": 2},
        {"pattern": "def", "path": "/w"},
        {"old_str": "a", "new_str": "b", "file_path": "/w/d.py", "description": "why"},
        {"input": "*** Update File: a.py\n+x", "content": "c", "patterns": ["*.py"]},
    ]
    names = ["Read", "Edit", "MultiEdit", "Execute", "Grep", "LS", "Create", "Glob", "Task"]
    for name in [*names, "ApplyPatch", "mcp__srv__tool", "", "Other"]:
        for given in inputs:
            shape = (kind_of(name), args_of(name, given), description_of(name, given))
            got = call_shape(name, given)
            assert got == shape, (name, given)
            assert list(got[1].items()) == list(shape[1].items()), (name, given)
            # parameters decoded for the call alone may become its arguments, unchanged
            # in what they say, and never the caller's when they are not its own
            kept = orjson.dumps(given)
            owned = orjson.loads(kept)
            mine = call_shape(name, owned, True)
            assert mine == shape and list(mine[1].items()) == list(shape[1].items())
            assert orjson.dumps(given) == kept, (name, given)


TYPED_LINES = [
    b'{"type":"system","subtype":"init","session_id":"s","model":"m","reasoning_effort":"low"}',
    b'{"type":"message","role":"assistant","id":"m1","text":"a","value":5,"parameters":7}',
    b'{"role":"assistant","text":"type last","session_id":"s","type":"message"}',
    b'{"type":"message","role":"assistant","text":"two types","type":"reasoning"}',
    b'{"type":"tool_call","id":"c1","toolName":"Read","text":5,"role":[1],'
    b'"parameters":{"file_path":"/w/a.py"}}',
    b'{"type":"tool_use","id":"c2","toolName":"Read","parameters":{}}',
    b'{"type":"tool_result","id":"c1","toolId":"Read","isError":false,"role":5,'
    b'"value":"a \\\\n b\\n\\u00e9"}',
    b'{"type":"reasoning","id":"r1","text":"hm"}',
    b'{"type":"message","role":"assistant","text":"after a thought"}',
    b'{"type":"message","role":"assistant","text":"then fast"}',
    b'{"type":"tool_call","id":"c3","toolName":"Execute","parameters":{"command":"ls"},'
    b'"timestamp":1.5}',
    b'{"type":"completion","finalText":"done","session_id":"s"}',
]


def test_lines_are_told_apart_by_their_type_and_read_as_fast_reads_them() -> None:
    """The hot lines are told apart by ``type`` wherever it is written (a second one
    that differs declines: the general path reads the last, a thought, so the call
    after it goes the long way too); fields another type's line would hold are not read
    (a message's ``value``, a result's ``role``); a thought, the answer after it, an
    unknown type, a float stamp and the ends go the long way."""
    data = b"\n".join(TYPED_LINES)
    assert taken_lines(DroidTranslator(), data) == {2, 3, 7, 10}
    assert_fast_line_agrees(DroidTranslator(), DroidTranslator(), data, said_built)


def test_a_call_hands_its_target_over_where_it_is_one_argument_as_the_fold_finds_it() -> None:
    """A call of a kind whose target is one argument (a read's path, a command, a
    grep's pattern) carries it, as :func:`~streamview.core.tools.target_of` gives it
    (``None`` for an empty one or another type); other kinds leave it to the fold."""
    inputs: list[JSONObject] = [
        {"file_path": "/w/a.py"},
        {"file_path": "", "path": "/w/b.py"},
        {"file_path": ""},
        {"file_path": 3},
        {"command": "ls"},
        {"command": ""},
        {"command": 5},
        {"pattern": "x"},
        {"pattern": ""},
        {},
    ]
    handed = 0
    for name in ["Read", "Edit", "Execute", "Grep", "Create", "LS", "Glob", "Task"]:
        for given in inputs:
            line = _line(type="tool_call", id="c1", toolName=name, parameters=given)
            record = DroidTranslator().fast_line(line, 2)
            assert record is not None, (name, given)
            fields = record[2]
            if fields[3] in ONE_TARGET_ARG:
                assert len(fields) == 13 and fields[12] == target_of(fields[3], fields[4])
                handed += fields[12] is not None
            else:
                assert len(fields) == 12, (name, given)
    assert handed == 8  # two paths each of a read, an edit and a write, a command, a pattern


def test_a_plain_result_said_in_the_fast_path_is_what_ended_says() -> None:
    """:func:`plain_result` (the call's kind known) gives what ``success_said(...) or
    success_payload(...)`` gives for every text value: the same summary, numbers and
    built payload, or the same payload;
    edits of one pair counted as ``edit_counts`` counts them (shared lines, blank sides,
    breaks other than ``\\n``, one line for the same line)."""
    values = ["", "a\nb\n", "a\r\nb", "x: 1\ny: 2", "   \n", "é\u2028f", "src/a.py:3:x\n"]
    pairs = [
        ("a", "b"),
        ("a", "a"),
        ("a\nb", "a\nc"),
        ("a\nb", "c\nd\ne"),
        ("", "b"),
        ("a", ""),
        ("a\rb", "c"),
        ("x\u2028y", "z"),
        ("a\n", "b\n\n"),
        ("same\n" * 3, "other"),
    ]
    cases: list[tuple[str, JSONObject]] = [
        (name, {"command": "ls", "path": "/w/a", "pattern": "x"})
        for name in ("Execute", "Read", "Grep", "LS", "Task", "mcp__s__t", "", "Other")
    ]
    cases += [("Edit", {"path": "/w/a.py", "old_str": old, "new_str": new}) for old, new in pairs]
    cases += [
        ("Edit", {"path": "/w/a.py", "old_str": "a", "new_str": "b", "edits": []}),
        ("Edit", {"path": "/w/a.py", "old_str": "a", "new_str": "b", "old_string": "c"}),
        ("Edit", {"path": "/w/a.py", "old_str": 3, "new_str": "b"}),
        ("MultiEdit", {"path": "/w/a.py", "old_str": "a", "new_str": "b"}),
        ("ApplyPatch", {"path": "/w/a.py", "input": "*** Update File: a.py\n+x\n-y"}),
    ]
    counted = 0
    for name, args in cases:
        for value in values:
            kind = kind_of(name)
            want = success_said(name, args, value) or success_payload(name, args, value)
            got = plain_result(name, kind, args, value)
            assert got.__class__ is want.__class__, (name, args, value)
            if isinstance(got, Said):
                assert isinstance(want, Said)
                assert (got.kind, got.status, got.summary, got.numbers) == (
                    want.kind,
                    want.status,
                    want.summary,
                    want.numbers,
                ), (name, args, value)
                assert got.build() == want.build()
                if name in ("Edit", "MultiEdit") and not {"edits", "old_string"} & set(args):
                    pair = [(args["old_str"], args["new_str"])]
                    assert got.numbers[:2] == edit_counts(pair), (args, got.numbers)
                    counted += 1
            else:
                assert got == want, (name, args, value)
    assert counted == 7 * 7  # six pairs of no common line and a MultiEdit, each value
