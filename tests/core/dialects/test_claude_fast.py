"""Claude Code's fast path: a delta read from its bytes (``fast_line``), an assistant
message of one text or call and a call's successful result read from the dict
(``fast``) give what the events of the same lines give (issue 30.8).

Each case is a line that must be read right, or declined (a field of an unexpected
type, an escape, an event that is no delta); the fold of a stream with it is compared
field by field with the event-by-event fold (``test_fast_fold.assert_same_fold``)."""

from __future__ import annotations

from typing import Any

import msgspec
import orjson
import pytest

import streamview.core.dialects.claude_tools as tools
from streamview.core.dialects.claude import ClaudeTranslator
from streamview.core.model import ToolCall

from ..test_fast_fold import assert_same_fold
from .fast_taken import assert_fast_line_agrees, taken_lines

SID = "s-1"
INIT = {"type": "system", "subtype": "init", "session_id": SID, "model": "m", "tools": []}


def _delta(text: Any, **extra: Any) -> dict[str, Any]:
    delta = {"type": "text_delta", "text": text}
    event = {"type": "content_block_delta", "index": 0, "delta": delta}
    return {"type": "stream_event", "event": event, "session_id": SID, **extra}


def _use(name: str, call_id: Any, given: Any, **extra: Any) -> dict[str, Any]:
    block = {"type": "tool_use", "id": call_id, "name": name, "input": given}
    message = {"role": "assistant", "content": [block]}
    return {"type": "assistant", "message": message, "session_id": SID, **extra}


def _said(text: Any, **extra: Any) -> dict[str, Any]:
    message = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return {"type": "assistant", "message": message, "session_id": SID, **extra}


def _result(call_id: Any, content: Any, **extra: Any) -> dict[str, Any]:
    block = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    block.update(extra.pop("block", {}))
    message = {"role": "user", "content": [block]}
    return {"type": "user", "message": message, "session_id": SID, **extra}


def _lines(*records: Any) -> bytes:
    return b"".join((r if isinstance(r, bytes) else orjson.dumps(r)) + b"\n" for r in records)


def _same(record: Any) -> Any:
    return record


def _kept(translator: ClaudeTranslator) -> dict[str, Any]:
    """What a translator keeps between lines (its records' reader has no state the
    fast path touches)."""
    return {k: v for k, v in vars(translator).items() if k != "_records"}


DELTAS = {
    "plain": _delta("Hello "),
    "escaped newline": _delta("a\nb"),
    "escaped backslash before an n": (
        b'{"type":"stream_event","event":{"type":"content_block_delta",'
        b'"index":0,"delta":{"type":"text_delta","text":"a\\\\nb"}},"session_id":"s-1"}'
    ),
    "unicode escape": b'{"type":"stream_event","event":{"type":"content_block_delta",'
    b'"index":0,"delta":{"type":"text_delta","text":"caf\\u00e9 \\"q\\""}},"session_id":"s-1"}',
    "non-ascii": _delta("ünïcödé ✓"),
    "empty text": _delta(""),
    "text null": _delta(None),
    "text a number": _delta(3),
    "no text": {
        **_delta("x"),
        "event": {"type": "content_block_delta", "delta": {"type": "text_delta"}},
    },
    "session id a number": _delta("x", session_id=5),
    "session id null": _delta("x", session_id=None),
    "a subagent's": _delta("x", parent_tool_use_id="toolu_9"),
    "a time stamp": _delta("x", timestamp="2026-11-20T10:00:01.250Z"),
    "a bad time stamp": _delta("x", timestamp="yesterday"),
    "an arrival time": _delta("x", streamview_recv_ms=1789600000000),
    "an arrival time of text": _delta("x", streamview_recv_ms="soon"),
    "thinking": {
        **_delta("x"),
        "event": {
            "type": "content_block_delta",
            "delta": {"type": "thinking_delta", "thinking": "hm"},
        },
    },
    "signature": {
        **_delta("x"),
        "event": {
            "type": "content_block_delta",
            "delta": {"type": "signature_delta", "signature": "s"},
        },
    },
    "delta null": {**_delta("x"), "event": {"type": "content_block_delta", "delta": None}},
    "delta a list": {**_delta("x"), "event": {"type": "content_block_delta", "delta": []}},
    "event null": {**_delta("x"), "event": None},
    "no event type": {**_delta("x"), "event": {"delta": {"type": "text_delta", "text": "x"}}},
    "block start": {**_delta("x"), "event": {"type": "content_block_start", "index": 0}},
    "another type": b'{"type":"stream_eventual","event":{"type":"content_block_delta",'
    b'"index":0,"delta":{"type":"text_delta","text":"x"}},"session_id":"s-1"}',
    "type twice": b'{"type":"stream_event","event":{"type":"content_block_delta",'
    b'"index":0,"delta":{"type":"text_delta","text":"x"}},"session_id":"s-1","type":"user"}',
}


@pytest.mark.parametrize("name", DELTAS)
def test_a_delta_line_reads_as_its_dict_and_folds_as_its_events(name: str) -> None:
    data = _lines(INIT, _delta("before "), DELTAS[name], _delta(" after"), _said("done"))
    assert_fast_line_agrees(ClaudeTranslator(), ClaudeTranslator(), data, _same, _kept)
    assert_same_fold(data)


def test_a_plain_delta_is_taken_from_its_bytes_and_an_escaped_one_as_read() -> None:
    data = _lines(INIT, DELTAS["plain"], DELTAS["escaped backslash before an n"])
    assert taken_lines(ClaudeTranslator(), data) == {2, 3}
    record = ClaudeTranslator().fast_line(data.splitlines()[2], 3)
    assert record is not None and record[2] == "a\\nb"
    assert ClaudeTranslator().fast_line(orjson.dumps(DELTAS["text a number"]), 1) is None


CALLS = {
    "read": (
        _use("Read", "toolu_1", {"file_path": "/w/a.py"}),
        _result("toolu_1", "     1→x\n     2→y\n"),
    ),
    "read, structured": (
        _use("Read", "toolu_1", {"file_path": "/w/a.py"}),
        _result(
            "toolu_1",
            "x",
            tool_use_result={"type": "text", "file": {"content": "x\ny\n", "totalLines": 2}},
        ),
    ),
    "bash, stdout": (
        _use("Bash", "toolu_2", {"command": "ls", "description": "list"}),
        _result("toolu_2", "a\nb", tool_use_result={"stdout": "a\nb", "stderr": "oops"}),
    ),
    "edit, patch": (
        _use("Edit", "toolu_3", {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"}),
        _result(
            "toolu_3",
            "The file /w/a.py has been updated.",
            tool_use_result={"structuredPatch": [{"oldStart": 1, "lines": ["-a", "+b"]}]},
        ),
    ),
    "grep, content": (
        _use("Grep", "toolu_4", {"pattern": "x", "output_mode": "content"}),
        _result("toolu_4", "a.py:1:x\nb.py:2:x\n3:y\nplain"),
    ),
    "grep, a digit int() cannot read": (
        _use("Grep", "toolu_4", {"pattern": "x", "output_mode": "content"}),
        _result("toolu_4", "a.py:\u00b2:x\n\u00b2:y"),
    ),
    "grep, a patch of no hunks": (
        _use("Edit", "toolu_4", {"file_path": "/w/a.py", "old_string": "a", "new_string": "b"}),
        _result("toolu_4", "ok", tool_use_result={"structuredPatch": ["no hunk"]}),
    ),
    "mcp, text blocks": (
        _use("mcp__gh__get_issue", "toolu_5", {"n": 1}),
        _result("toolu_5", [{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}]),
    ),
    "an error": (
        _use("Bash", "toolu_6", {"command": "false"}),
        _result("toolu_6", "Exit code 1\nno", block={"is_error": True}),
    ),
    "refused": (
        _use("Bash", "toolu_6", {"command": "rm"}),
        _result("toolu_6", "The user doesn't want to proceed", block={"is_error": True}),
    ),
    "a result of no call": (_said("x"), _result("toolu_404", "lost")),
    "a result twice": (
        _use("Read", "toolu_7", {"file_path": "/w/a.py"}),
        _lines(_result("toolu_7", "x"), _result("toolu_7", "y")),
    ),
    "a call twice": (
        _lines(
            _use("Read", "toolu_8", {"file_path": "/a"}),
            _use("Read", "toolu_8", {"file_path": "/b"}),
        ),
        _result("toolu_8", "x"),
    ),
    "an id that is no string": (_use("Read", 8, {"file_path": "/a"}), _result(8, "x")),
    "an empty id": (_use("Read", "", {"file_path": "/a"}), _result("", "x")),
    "input no object": (_use("Write", "toolu_9", "text"), _result("toolu_9", "ok")),
    "a subagent's call": (
        _use("Read", "toolu_10", {"file_path": "/a"}, parent_tool_use_id="toolu_task"),
        _result("toolu_10", "x", parent_tool_use_id="toolu_task"),
    ),
    "a subagent's text": (_said("thinking aloud", parent_tool_use_id="toolu_task"), _said("x")),
    "time stamps": (
        _use("Read", "toolu_11", {"file_path": "/a"}, timestamp="2026-11-20T10:00:01.250Z"),
        _result("toolu_11", "x", timestamp="2026-11-20T10:00:03.000Z"),
    ),
    "arrival times": (
        _use("Read", "toolu_12", {"file_path": "/a"}, streamview_recv_ms=1789600000000),
        _result("toolu_12", "x", streamview_recv_ms=1789600001000),
    ),
    "an arrival time of text": (
        _use("Read", "toolu_13", {"file_path": "/a"}, streamview_recv_ms="soon"),
        _result("toolu_13", "x", streamview_recv_ms=[1]),
    ),
    "text no string": (_said(["x"]), _said(None)),
    "a prompt": (_said("x"), {"type": "user", "message": {"role": "user", "content": "hi"}}),
    "two blocks": (
        {
            "type": "assistant",
            "message": {"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        },
        _result("toolu_1", "x"),
    ),
    "content a string": ({"type": "assistant", "message": {"content": "hi"}}, _said("x")),
    "a block no object": ({"type": "assistant", "message": {"content": ["x"]}}, _said("x")),
    "a session id that is no string": (
        _said("x", session_id=3),
        _result("toolu_1", "x", session_id=3),
    ),
}


@pytest.mark.parametrize("name", CALLS)
def test_a_message_or_result_folds_as_its_events(name: str) -> None:
    started, ended = CALLS[name]
    data = _lines(INIT, _delta("Let me look. "), started, _delta("So "), ended, _said("done"))
    assert_same_fold(data)
    assert_same_fold(_lines(INIT, started, ended))


def test_a_stream_without_init_names_its_model_the_long_way() -> None:
    named = _said("x")
    named["message"]["model"] = "claude-x"
    for data in (
        _lines(named, *CALLS["read"]),
        _lines(
            _use("Read", "toolu_1", {"file_path": "/a"})
            | {
                "message": {
                    "model": "claude-y",
                    "content": [{"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {}}],
                }
            },
            _said("x"),
        ),
    ):
        assert_same_fold(data)
        assert ClaudeTranslator().fast(orjson.loads(data.splitlines()[0]), 1) is None


def test_the_common_messages_and_results_are_taken_fast() -> None:
    translator = ClaudeTranslator()
    for number, record in enumerate(
        [
            _said("x"),
            _use("Grep", "toolu_1", {"pattern": "x"}),
            _result("toolu_1", "a.py\nb.py", tool_use_result={"filenames": ["a.py", "b.py"]}),
        ],
        1,
    ):
        assert translator.fast(record, number) is not None, record
    assert not translator._calls  # the result ended the call
    assert translator.fast(_result("toolu_2", "x", block={"is_error": True}), 4) is None


GREP_TEXTS = [
    "",
    "No matches found",
    "\n\n",
    "a.py:1:x\nb.py:2:x\n3:y\nplain",
    "a.py:1:x\na.py:2:y:z\n",
    ":5:empty path\n7:\n  \n",
    "a.py:x:y\nb.py::z\nc.py:12",
    "a.py:\u0663:arabic digit\nb.py:\u00b2:superscript",
    "\u00b2:only\n",
    "a.py:1:x\r\nb.py:1:y\r\n",
    "Found 2 files\na.py\nb.py",
    "x\u2028y.py:3:z",
]


@pytest.mark.parametrize("text", GREP_TEXTS)
@pytest.mark.parametrize(
    "given", [{"output_mode": "content"}, {"output_mode": "content", "path": "src"}]
)
def test_a_content_grep_said_is_what_its_payload_says(text: str, given: dict[str, Any]) -> None:
    args = tools.args_of("Grep", {"pattern": "x", **given})
    try:
        payload = tools.success_payload("grep", args, text, None)
    except ValueError:
        with pytest.raises(ValueError):
            tools.success_said("grep", args, text, None)
        return
    said = tools.success_said("grep", args, text, None)
    assert said is not None
    by_said, by_payload = ToolCall(0, "c", "grep"), ToolCall(0, "c", "grep")
    by_said.complete("success", said)
    by_payload.complete("success", payload)
    assert msgspec.structs.asdict(by_said) == msgspec.structs.asdict(by_payload)
    assert said.build() == payload
    data = _lines(
        INIT, _use("Grep", "toolu_1", {"pattern": "x", **given}), _result("toolu_1", text)
    )
    assert_same_fold(data)


def test_only_a_content_grep_is_said() -> None:
    for name, given in (("Grep", {"pattern": "x"}), ("Read", {"file_path": "/a"})):
        args = tools.args_of(name, given)
        assert tools.success_said(tools.kind_of(name), args, "a.py:1:x", None) is None
