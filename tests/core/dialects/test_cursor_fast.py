"""Cursor's fast path (``cursor_fast``): deltas read from their bytes give what the
decoded record gives, an assistant record says by the format guide's rule whether it
is a delta, a tool call carries the twelve fields the fold takes, and the fold is the
same with the fast path off (issue 30.8)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from streamview.core.dialects.cursor import CursorTranslator
from streamview.core.dialects.cursor_fast import fast_line, fast_record
from streamview.core.reader import fold
from streamview.core.state import StreamState

LINES = [
    b'{"type":"system","subtype":"init","session_id":"s1","model":"m","cwd":"/w",'
    b'"apiKeySource":"login","permissionMode":"default"}',
    b'{"type":"thinking","subtype":"delta","text":"a\\\\n","session_id":"s1","timestamp_ms":1}',
    b'{"type":"thinking","subtype":"delta","text":"\\u00e9","session_id":"s1","timestamp_ms":2}',
    b'{"type":"thinking","subtype":"completed","session_id":"s1","timestamp_ms":3}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Hel"}]},"session_id":"s1","timestamp_ms":4}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"lo"}]},"session_id":"s1","timestamp_ms":5,"streamview_recv_ms":6}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Hello"}]},"session_id":"s1","model_call_id":"mc1","timestamp_ms":7}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Again"}]},"session_id":"s1"}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":7}]},"session_id":"s1","timestamp_ms":8}',
    b'{"type":"tool_call","subtype":"started","call_id":"c1","tool_call":{"readToolCall":'
    b'{"args":{"path":"a.py"}}},"session_id":"s1","timestamp_ms":9}',
    b'{"type":"tool_call","subtype":"completed","call_id":"c1","tool_call":{"readToolCall":'
    b'{"args":{"path":"a.py"},"result":{"success":{"totalLines":3}}}},"session_id":"s1",'
    b'"timestamp_ms":10}',
    b'{"type":"assistant","message":{"role":"assistant","content":[{"type":"text",'
    b'"text":"Done"}]},"session_id":"s1","timestamp_ms":11}',
]
"""Thinking deltas (an escaped backslash before an ``n``, a unicode escape), its end,
assistant deltas (one stamped on arrival), a whole message (a ``model_call_id``), one
with no time, a text that is a number, a read call started and ended, a delta after."""


def test_fast_line_gives_what_fast_record_gives_and_says_which_text_is_a_delta() -> None:
    said = []
    for number, data in enumerate(LINES, 1):
        from_dict = fast_record(orjson.loads(data), number)
        from_bytes = fast_line(data, number)
        if from_bytes is not None:
            assert from_bytes == from_dict, data
        if from_dict is not None and from_dict[0] == "assistant":
            said.append(from_dict[1])
    assert said == [True, True, False, False, True]
    assert fast_line(LINES[8], 9) is None and fast_record(orjson.loads(LINES[8]), 9) is None


def test_a_tool_call_carries_twelve_fields_the_last_no_parent() -> None:
    for number in (10, 11):
        hot = fast_record(orjson.loads(LINES[number - 1]), number)
        assert hot is not None and hot[0] == "tool_call"
        assert len(hot[2]) == 12 and hot[2][11] is None


def _folded(data: bytes) -> list[Any]:
    state = fold([data], StreamState(track_changes=False), agent="cursor")
    return [
        (
            [(b.kind, b.line, b.text, b.deltas, b.open) for b in session.blocks],
            [(c.call_id, c.kind, c.status, c.summary) for c in session.tool_calls],
            session.events,
            session.first_time_ms,
            session.last_time_ms,
        )
        for session in state.sessions
    ] + [state.counts]


def test_the_fold_is_the_same_with_the_fast_path_off(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"\n".join(LINES)
    folded = _folded(data)
    monkeypatch.setattr(CursorTranslator, "fast", staticmethod(lambda *_: None))
    monkeypatch.setattr(CursorTranslator, "fast_line", staticmethod(lambda *_: None))
    assert _folded(data) == folded
