"""Kimi CLI's fast path reads a tool's result and an assistant message (an answer
alone, a call alone, an answer with the call it makes: issue 30.8) straight from its
bytes, gives what :meth:`fast` gives for the decoded line, and declines every line it
might read otherwise.

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import streamview.core.event_stream as event_stream
from streamview.core.dialects.kimi import KimiTranslator
from streamview.core.fast_path import ONE_TARGET_ARG
from streamview.core.tools import target_of
from tests.core.test_checkpoints import assert_seeks_match
from tests.core.test_fast_fold import assert_same_fold
from tests.events.test_fast_events import splits, told

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines
from .test_fast_json import general_summary, summary

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "kimi"
DATA = (FIXTURES / "fast-lines.jsonl").read_bytes()

RESULTS_TAKEN = {3, 5, 7, 13, 15, 16, 21}
"""Results: a read with a note and an image part, a failed command stamped on arrival,
a bare string, one without a ``tool_call_id``, a null content, a refusal after a
``think`` part; not a result before the run's first message, a text that is a number, a
part that is no object, an arrival stamp that is a string, a result with a ``type``, an
id that is a number, a line that does not start with its ``role``."""
ANSWERS_AND_CALLS = {2, 4, 6, 17, 18, 20, 26}
"""A text said with a call, calls alone (``content`` empty or ``""``) and answers alone
(a string, text parts, an empty ``tool_calls``, stamped on arrival); not a thought, two
calls, ``tool_calls`` that is no list, an empty text, a call whose ``function`` is no
object."""
TAKEN = RESULTS_TAKEN | ANSWERS_AND_CALLS


def test_the_fast_path_takes_results_and_declines_the_unusual() -> None:
    assert taken_lines(KimiTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), DATA, said_built)


def test_every_message_of_a_whole_run_is_taken_but_the_first_and_a_notification() -> None:
    data = (FIXTURES / "success-tools.jsonl").read_bytes()
    lines = data.splitlines()
    results = {n for n, line in enumerate(lines, 1) if b'"role":"tool"' in line}
    assert len(results) == 11
    assert taken_lines(KimiTranslator(), data) == set(range(2, len(lines) + 1)) - {20}
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)


def test_fast_takes_answers_and_calls_alone_or_together() -> None:
    """Through the dict (``fast``): what the long way makes one event of."""
    translator = KimiTranslator()
    taken = set()
    for number, line in enumerate(DATA.splitlines(), 1):
        record = orjson.loads(line)
        if record.get("role") == "assistant" and translator.fast(record, number) is not None:
            taken.add(number)
        elif translator.fast(record, number) is None:
            translator.translate(record, number, None)
    assert taken == ANSWERS_AND_CALLS


def _line(record: dict[str, Any]) -> bytes:
    return orjson.dumps(record)


def _call(call_id: str | None, name: str | None = "ReadFile", arguments: Any = "{}") -> Any:
    function: dict[str, Any] = {"arguments": arguments}
    if name is not None:
        function["name"] = name
    call: dict[str, Any] = {"type": "function", "function": function}
    if call_id is not None:
        call["id"] = call_id
    return call


def _said(content: Any, *calls: Any, **more: Any) -> bytes:
    return _line({"role": "assistant", "content": content, "tool_calls": list(calls), **more})


def _result(call_id: str, text: str) -> bytes:
    note = {"type": "text", "text": "<system>Command executed successfully.</system>"}
    return _line(
        {"role": "tool", "tool_call_id": call_id, "content": [note, {"type": "text", "text": text}]}
    )


TEXT = [{"type": "text", "text": "Reading."}]
ANSWER_CALL_RUN = [
    _line({"role": "user", "content": "go"}),
    _said(TEXT, _call("ReadFile:1", arguments='{"path": "a.py"}')),
    _result("ReadFile:1", "line 0: x\nline 1: y\n"),
    _said([{"type": "think", "think": "hm"}, *TEXT], _call("Grep:2", "Grep")),
    _result("Grep:2", "a.py:3:y\n"),
    _said(TEXT, _call("Shell:3", "Shell"), _call("Shell:4", "Shell")),
    _result("Shell:3", "ok\n"),
    _result("Shell:4", "ok\n"),
    _said([{"type": "text", "text": ""}], _call("Shell:5", "Shell", '{"command": "ls"}')),
    _said("Trying.", _call("Shell:6", "Shell", "not json"), streamview_recv_ms=1770000000000),
    _said([{"type": "text", "text": "Tw"}, {"type": "text", "text": "o."}], _call(None)),
    _said(TEXT, _call("X:8", None)),
    _said([*TEXT, {"type": "image_url", "image_url": {"url": "x"}}], _call("Y:9")),
    _said(TEXT, _call("ReadFile:1")),
    _result("Shell:5", "a\nb\n"),
    _said("Done."),
    _said(TEXT, _call("Shell:17", "Shell", {"command": "ls"})),
]
"""A run of answers said with a call: taken (a string, text parts, an arrival stamp,
arguments that are not JSON, no call id, no tool name, a call id already done); a call
after an empty text (a call alone); and left to the long way: a thought first, two
calls, a part that is not text. From the bytes, arguments that are an object, not a
JSON string, go the dict's way."""
ANSWER_CALLS = {2, 10, 11, 12, 14, 17}


def test_an_answer_with_its_call_is_one_fast_record_of_both() -> None:
    translator = KimiTranslator()
    kinds = {}
    for number, line in enumerate(ANSWER_CALL_RUN, 1):
        record = orjson.loads(line)
        hot = translator.fast(record, number) if translator._started else None
        if hot is None:
            translator.translate(record, number, None)
        elif record["role"] == "assistant":
            kinds[number] = hot[0]
    assert {n for n, kind in kinds.items() if kind == "answer_call"} == ANSWER_CALLS
    assert kinds[9] == "tool_call" and kinds[16] == "assistant"
    assert {4, 6, 13}.isdisjoint(kinds)
    said, fields = translator.fast(orjson.loads(ANSWER_CALL_RUN[9]), 10)[2]  # type: ignore[index]
    assert (said, fields[2], fields[3], fields[4]) == (
        "Trying.",
        "Shell:6",
        "shell",
        {"arguments": "not json"},
    )


def test_an_answer_with_its_call_read_from_its_bytes_is_what_the_dict_gives() -> None:
    data = b"\n".join(ANSWER_CALL_RUN)
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)
    assert taken_lines(KimiTranslator(), data) == {2, 3, 5, 7, 8, 9, 10, 11, 12, 14, 15, 16}


def test_an_answer_with_its_call_folds_as_its_two_events(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fold, ``--json``, ``--events`` and the viewer's playback index: the same
    as the long way's text event then call event."""
    data = b"\n".join(ANSWER_CALL_RUN) + b"\n"
    assert_same_fold(data)
    path = tmp_path / "answer-calls.jsonl"
    path.write_bytes(data)
    assert_seeks_match(path, 2)
    fast_json = summary(data, "kimi")
    fast_told = [told(chunks) for chunks in splits(data)]
    assert general_summary(data, "kimi", monkeypatch) == fast_json
    monkeypatch.setattr(event_stream, "fast_line_of", lambda reader: None)
    assert [told(chunks) for chunks in splits(data)] == fast_told


def _parts_result(call_id: str, *parts: Any) -> bytes:
    return _line({"role": "tool", "tool_call_id": call_id, "content": list(parts)})


def _text(text: Any) -> dict[str, Any]:
    return {"type": "text", "text": text}


EDIT = "StrReplaceFile"
OK_NOTE = _text("<system>Command executed successfully.</system>")
LEAN_RUN = [
    _line({"role": "user", "content": "go"}),
    _said(TEXT, _call("R:1", arguments='{"path": "a.py"}')),
    _result("R:1", "a\r\nb\\n c\u2028d é\n"),  # a \r\n, an escaped backslash before n
    _said(TEXT, _call("R:2", arguments='{"path": "b.py"}')),
    _parts_result("R:2", OK_NOTE, _text("")),  # no output: the note is counted
    _said(TEXT, _call("S:3", "Shell", '{"command": "true"}')),
    _result("S:3", " \n\t\n"),  # blank: no line count
    _said(TEXT, _call("S:4", "Shell", '{"command": "ls"}')),
    _result("S:4", "ok\n\n\n"),
    _said(TEXT, _call("G:5", "Grep", '{"pattern": "x"}')),
    _result("G:5", "line 0: x\nline 1: y"),  # a colon a line: no matches
    _said(TEXT, _call("G:6", "Grep", '{"pattern": "y"}')),
    _result("G:6", "src/a.py:3:y\nsrc/b.py:1:y\n"),
    _said(TEXT, _call("G:7", "Grep", '{"pattern": "y"}')),
    _result("G:7", "File: a.py\nL3: y\n"),  # sections: the payload is built
    _said(TEXT, _call("E:8", EDIT, '{"path": "a", "edit": {"old": "x", "new": "y"}}')),
    _result("E:8", "done"),
    _said(TEXT, _call("E:9", EDIT, '{"path": "a", "edit": {"old": "x\\n", "new": "x"}}')),
    _result("E:9", "done"),  # old and new share a line: counted by the diff
    _said(TEXT, _call("S:10", "Shell", '{"command": "false"}')),
    _parts_result("S:10", _text("<system>ERROR: exit code: 1</system>"), _text("boom\n")),
    _said(TEXT, _call("R:11", arguments='{"path": "c.py"}')),
    _parts_result("R:11", _text("<system>a</system>"), _text("<system>b</system>")),
    _said(TEXT, _call("R:12", arguments='{"path": "d.py"}')),
    _parts_result("R:12", {"type": "image_url", "text": "<system>a</system>"}, _text("x\n")),
    _parts_result("Nobody:13", OK_NOTE, _text("x\n")),  # no call started
    _said(TEXT, _call("W:14", "WriteFile", '{"path": "e.py", "content": "x\\n"}')),
    _result("W:14", "written"),
    _said(TEXT, _call("R:15", arguments='{"path": "f.py"}')),
    _parts_result("R:15", _text("<system>unclosed"), _text("x\n")),
    _said(TEXT, _call("R:16", arguments='{"path": "g.py"}')),
    _parts_result("R:16", OK_NOTE, _text(None)),  # a null text: left out
    _result("R:1", "again\n"),  # a second result of a finished call
    _said(TEXT, _call("S:18", "Shell", '{"command": "x"}')),
    _parts_result("S:18", OK_NOTE, {"type": "think", "text": "x\n"}),
]
"""Results of two parts, a note then the output: most of a Kimi run, read in one go
(:func:`~streamview.core.dialects.kimi.lean_result`) where the output is a read's,
grep's, edit's or command's and the note says no error; the rest the way ``fast`` reads
them (its note and output split, the payload built where it must be)."""
LEAN = {3, 5, 7, 9, 11, 13, 17}
"""The results read in one go."""


def test_a_note_then_the_output_is_read_in_one_go_as_fast_reads_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b"\n".join(LEAN_RUN)
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)
    results = {n for n, line in enumerate(LEAN_RUN, 1) if line.startswith(b'{"role":"tool"')}
    assert taken_lines(KimiTranslator(), data) >= results
    monkeypatch.setattr(KimiTranslator, "_fast_result", lambda *_: None)
    assert taken_lines(KimiTranslator(), data) & results == LEAN


def test_a_note_then_the_output_folds_as_the_long_way() -> None:
    data = b"\n".join(LEAN_RUN) + b"\n"
    assert_same_fold(data)


CALL_SHAPES = [
    _line({"role": "user", "content": "go"}),
    _said(TEXT, _call("S:1", "Shell", '{"command": "ls", "description": "list"}')),
    _said(TEXT, _call("T:2", "Agent", '{"description": "look", "prompt": "p"}')),
    _said(TEXT, _call("W:3", "WriteFile", '{"path": "a", "content": "x\\n"}')),
    _said(TEXT, _call("G:4", "Glob", '{"pattern": "*.py", "directory": "/w"}')),
    _said(TEXT, _call("Q:5", "SearchWeb", '{"query": "q"}')),
    _said(TEXT, _call("D:6", "SetTodoList", '{"todos": [{"title": "t", "status": "done"}]}')),
    _said(TEXT, _call("L:7", "ReadFile", "[1, 2]")),
    _said(TEXT, _call("N:8", "Shell", "null")),
    _said(TEXT, _call("M:9", "Shell", '{"command": 3, "description": 4}')),
    _said(TEXT, _call("U:10", "MyTool", '{"x": "y"}')),
    _said([], _call("E:11", "StrReplaceFile", '{"path": "a", "edit": [{"old": "x", "new": "y"}]}')),
]
"""Calls of every kind read from their bytes: arguments renamed (a write's, a glob's,
a search's, todos), described (a command, a subagent), not an object (a list,
``null``), of unexpected types, of a tool nobody maps."""


def test_a_call_read_from_its_bytes_has_the_arguments_the_dict_gives() -> None:
    data = b"\n".join(CALL_SHAPES)
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)
    assert taken_lines(KimiTranslator(), data) == set(range(2, len(CALL_SHAPES) + 1))
    translator = KimiTranslator()
    taken_lines(translator, data)
    assert translator._calls["W:3"] == ("write", {"path": "a", "fileText": "x\n"})
    assert translator._calls["L:7"] == ("read", {})
    ids = ("S:1", "T:2", "W:3", "G:4", "Q:5", "D:6", "L:7", "M:9", "U:10", "E:11")
    data += b"\n" + b"\n".join(_result(call_id, "x\n") for call_id in ids)
    assert_same_fold(data + b"\n")


def test_an_answer_of_one_part_that_is_no_text_goes_the_long_way() -> None:
    lines = [
        _line({"role": "user", "content": "go"}),
        _said([{"type": "text", "text": "One part."}]),
        _said([{"type": "think", "think": "hm", "text": "x"}]),
        _said([{"type": "text", "text": None}], _call("S:4", "Shell")),
        _said([{"type": "image_url", "text": "x"}], _call("S:5", "Shell")),
    ]
    data = b"\n".join(lines)
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)
    assert taken_lines(KimiTranslator(), data) == {2}


NOTES_RUN = [
    _line({"role": "user", "content": "go"}),
    _said(TEXT, _call("R:1", arguments='{"path": "a.py"}')),
    _parts_result("R:1", _text("<system>ERROR</system>"), _text("x\ny\n")),  # no colon: no error
    _said(TEXT, _call("R:2", arguments='{"path": "b.py"}')),
    _parts_result("R:2", _text("<system></system>"), _text("")),  # an empty note, no output
    _said(TEXT, _call("R:3", arguments='{"path": "c.py"}')),
    _parts_result("R:3", _text("<system>ERROR: not found</system>"), _text("")),
    _said(TEXT, _call("G:4", "Grep", '{"pattern": "x"}')),
    _parts_result("G:4", _text("<system>ERROR:</system>"), _text("a.py:1:x\n")),
    _said(TEXT, _call("E:5", EDIT, '{"path": "a", "edit": {"old": "x", "new": "y"}}')),
    _parts_result("E:5", _text("<system>ERROR: no match</system>"), _text("")),
    _said(TEXT, _call("S:6", "Shell", '{"command": "ls"}')),
    _parts_result("S:6", _text("<system>Done</system>"), _text("<system>x</system>")),
    _said(TEXT, _call("S:7", "Shell", '{"command": "ls"}')),
    _parts_result("S:7", _text("<system>Done</system>"), _text("<system>x")),  # not a note
    _said(TEXT, _call("S:8", "Shell", '{"command": "ls"}')),
    _parts_result("S:8", _text("<system>Done</system>"), {"type": "text"}),  # no text
    _said(TEXT, _call("S:9", "Shell", '{"command": "ls"}')),
    _parts_result("S:9", {"text": "<system>Done</system>"}, _text("a\n")),  # a part of no type
]
"""Notes read in one go or not: ``ERROR`` with no colon says no error, an empty note is
one; an ``ERROR:`` note of a read, a grep (nothing after the colon) and an edit is a
failure (the long way's); an output that is a note itself, a part with no text or no
type goes the long way too."""


def test_only_a_note_that_says_no_error_is_read_in_one_go(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    data = b"\n".join(NOTES_RUN)
    assert_fast_line_agrees(KimiTranslator(), KimiTranslator(), data, said_built)
    assert_same_fold(data + b"\n")
    monkeypatch.setattr(KimiTranslator, "_fast_result", lambda *_: None)
    results = {n for n, line in enumerate(NOTES_RUN, 1) if line.startswith(b'{"role":"tool"')}
    assert taken_lines(KimiTranslator(), data) & results == {3, 5, 15}


def test_a_call_hands_its_target_over_where_it_is_one_argument_as_the_fold_finds_it() -> None:
    """A call of a kind whose target is one argument (a read's path, a command, a
    grep's pattern) carries it, alone or after an answer, as
    :func:`~streamview.core.tools.target_of` gives it (``None`` for an empty one or
    another type); other kinds leave it to the fold."""
    inputs = [
        {"path": "/w/a.py"},
        {"path": ""},
        {"path": 3},
        {"command": "ls"},
        {"command": ""},
        {"pattern": "x"},
        {"pattern": None},
        {},
    ]
    handed = 0
    names = ["ReadFile", "Shell", "Grep", "StrReplaceFile", "WriteFile", "Glob", "SearchWeb"]
    for name in names:
        for given in inputs:
            for content in (TEXT, []):
                translator = KimiTranslator()
                translator.translate({"role": "user", "content": "Go."}, 1, None)
                line = _said(content, _call("c1", name, orjson.dumps(given).decode()))
                record = translator.fast_line(line, 2)
                assert record is not None, (name, given)
                fields = record[2] if record[0] == "tool_call" else record[2][1]
                if fields[3] in ONE_TARGET_ARG:
                    assert len(fields) == 13 and fields[12] == target_of(fields[3], fields[4])
                    handed += fields[12] is not None
                else:
                    assert len(fields) == 12, (name, given)
    assert handed == 10  # a path each of a read, an edit, a write; a command; a pattern: twice
