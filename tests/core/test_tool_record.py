"""A ``tool_call`` record's fields as the fold's fast path takes them: each loosely typed
field reads as :mod:`streamview.core.fields` reads it, whatever its type."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core.fields import as_int, as_str
from streamview.core.tool_record import tool_call_fields

LOOSE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.integers(0, 10**25).map(str),
    st.text(alphabet="0123456789-+ .\u0661\u00b2x", max_size=22),
    st.text(max_size=5),
    st.lists(st.integers(), max_size=1),
    st.dictionaries(st.text(max_size=1), st.integers(), max_size=1),
)


class _Str(str):
    """A string of a subclass: ``as_str`` keeps it."""


@settings(max_examples=1000, deadline=None)
@given(
    started=LOOSE,
    completed=LOOSE,
    session=st.one_of(LOOSE, st.just(_Str("s"))),
    description=st.one_of(LOOSE, st.just(_Str("d"))),
    model_call=LOOSE,
    stamp=LOOSE,
)
def test_loose_fields_read_as_the_field_readers_read_them(
    started: Any, completed: Any, session: Any, description: Any, model_call: Any, stamp: Any
) -> None:
    record = {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": "c1",
        "session_id": session,
        "timestamp_ms": stamp,
        "model_call_id": model_call,
        "tool_call": {
            "readToolCall": {
                "args": {"path": "a.py"},
                "result": {"success": {"totalLines": 3}},
                "description": description,
            },
            "startedAtMs": started,
            "completedAtMs": completed,
        },
    }
    fields = tool_call_fields(record, 7)
    expected = (
        as_str(session),
        as_int(stamp),
        "c1",
        "read",
        {"path": "a.py"},
        "success",
        {"totalLines": 3},
        as_str(model_call),
        as_int(started),
        as_int(completed),
        as_str(description),
        None,
    )
    assert fields == expected
    assert [value.__class__ for value in fields] == [value.__class__ for value in expected]
