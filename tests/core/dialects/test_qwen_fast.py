"""Qwen Code's calls started on the fast path: Claude Code's reading of each is made only
when a record is read the long way (``ClaudeLikeTranslator._unread``, ``_settle``), and
is then what reading every record the long way leaves (issue 30.8)."""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core.dialects import qwen

from .fixtures import FIXTURES

SID = '"session_id":"s","parent_tool_use_id":null'


def _start(call_id: str, name: str, given: str) -> bytes:
    return (
        '{"type":"assistant",' + SID + ',"message":{"role":"assistant","content":'
        f'[{{"type":"tool_use","id":"{call_id}","name":"{name}","input":{given}}}]}}}}'
    ).encode()


def _result(call_id: str, text: str, error: bool = False) -> bytes:
    return (
        '{"type":"user",' + SID + ',"message":{"role":"user","content":[{"type":'
        f'"tool_result","tool_use_id":"{call_id}","is_error":{str(error).lower()},'
        f'"content":{orjson.dumps(text).decode()}}}]}}}}'
    ).encode()


INIT = (
    b'{"type":"system","subtype":"init","session_id":"s","model":"qwen3","cwd":"/w",'
    b'"tools":[],"permission_mode":"default","qwen_code_version":"0.1"}'
)
LINES = [
    INIT,
    _start("c1", "read_file", '{"file_path":"/w/a.py"}'),
    _start("c2", "run_shell_command", '{"command":"ls","description":"list"}'),
    _start("c3", "mcp__srv__tool", '{"q":1}'),
    _result("c1", "one\ntwo"),  # fast: c1 is forgotten unread
    _start("c4", "glob", '{"pattern":"*.py","path":"/w"}'),
    _result("c2", "Exit code 2\nno such file", error=True),  # the long way: c3, c4 read
    _start("c5", "edit", '{"file_path":"/w/a.py","old_string":"a","new_string":"b"}'),
    b'{"type":"system","subtype":"model_fallback","data":{"fromModel":"a","toModel":"b"}}',
    _result("c5", "ok"),
    _result("c4", "Found 2 files"),
    b'{"type":"result","subtype":"success","session_id":"s","result":"done","is_error":false}',
]


def _inner_calls(translator: Any) -> list[Any]:
    return list(translator._inner._calls.items())


def test_the_long_way_finds_claude_codes_reading_of_every_call_started_fast() -> None:
    fast: Any = qwen.translator()
    slow: Any = qwen.translator()
    taken = 0
    for number, data in enumerate(LINES, 1):
        record = orjson.loads(data)
        from_fast = fast.fast(record, number)
        if from_fast is None:
            events = fast.translate(record, number, None)
            assert [type(e) for e in events] == [
                type(e) for e in slow.translate(record, number, None)
            ]
            # What Claude Code's translator holds when it reads a record itself.
            assert fast._unread == {}
            assert _inner_calls(fast) == _inner_calls(slow), data
        else:
            taken += 1
            slow.translate(record, number, None)
    assert taken == 8  # five starts, three results: the rest went the long way
    assert _inner_calls(fast) == _inner_calls(slow) == [("c3", _inner_calls(slow)[0][1])]


def test_a_call_started_fast_and_ended_fast_is_never_read_by_claude_code() -> None:
    translator: Any = qwen.translator()
    for number, data in enumerate(LINES[:5], 1):
        record = orjson.loads(data)
        if translator.fast(record, number) is None:
            translator.translate(record, number, None)
    assert list(translator._unread) == ["c2", "c3"]
    assert translator._inner._calls == {}


def test_every_qwen_fixture_leaves_claude_code_as_the_long_way_does() -> None:
    for path in sorted((FIXTURES / "qwen").glob("*.jsonl")):
        fast: Any = qwen.translator()
        slow: Any = qwen.translator()
        for number, data in enumerate(path.read_bytes().splitlines(), 1):
            try:
                record = orjson.loads(data)
            except orjson.JSONDecodeError:
                continue
            slow.translate(record, number, None)
            if not isinstance(record, dict) or fast.fast(record, number) is None:
                fast.translate(record, number, None)
                assert _inner_calls(fast) == _inner_calls(slow), (path.name, data)
