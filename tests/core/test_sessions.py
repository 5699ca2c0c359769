"""Sessions: several runs in one stream, and how each ends."""

from __future__ import annotations

import orjson

from streamview.core import tools
from streamview.core.state import ERROR, INCOMPLETE, SUCCESS

from .helpers import (
    assistant,
    completed,
    delta,
    fold_bytes,
    init,
    line,
    only_session,
    result,
    started,
    stream,
    summary,
    user,
)

A = "aaaaaaaa-0000-0000-0000-000000000001"
B = "bbbbbbbb-0000-0000-0000-000000000002"


def run(session_id: str, prompt: str, answer: str) -> bytes:
    """One whole successful run."""
    return stream(
        init(session_id),
        user(prompt, session_id=session_id),
        assistant(answer, session_id=session_id),
        result(answer, session_id=session_id),
    )


def test_several_runs_appended_are_several_sessions() -> None:
    state = fold_bytes(run(A, "first?", "one") + run(B, "second?", "two") + run(A, "third?", "3"))
    assert [s.session_id for s in state.sessions] == [A, B, A]
    assert [s.prompt for s in state.sessions] == ["first?", "second?", "third?"]
    assert [s.text for s in state.sessions] == ["one", "two", "3"]
    assert all(s.outcome.status == SUCCESS for s in state.sessions)
    assert [s.index for s in state.sessions] == [0, 1, 2]


def test_a_new_init_with_the_same_session_id_starts_a_new_session() -> None:
    state = fold_bytes(run(A, "p1", "a1") + run(A, "p2", "a2"))
    assert len(state.sessions) == 2
    assert [s.prompt for s in state.sessions] == ["p1", "p2"]


def test_a_different_session_id_without_init_starts_a_new_session() -> None:
    data = stream(
        init(A),
        user("p1", session_id=A),
        result("r1", session_id=A),
        user("p2", session_id=B),
        assistant("a2", session_id=B),
        result("a2", session_id=B),
    )
    state = fold_bytes(data)
    assert [s.session_id for s in state.sessions] == [A, B]
    assert state.sessions[1].prompt == "p2"
    assert state.sessions[1].model is None


def test_records_without_session_id_stay_in_the_current_session() -> None:
    record = orjson.loads(assistant("no id"))
    del record["session_id"]
    session = only_session(stream(init(A), user("p", session_id=A), line(record)))
    assert session.text == "no id"


def test_session_header_fields_come_from_init() -> None:
    session = only_session(run(A, "p", "a"))
    assert (session.model, session.cwd, session.permission_mode, session.api_key_source) == (
        "GPT-5 Mini",
        "/work/project",
        "default",
        "login",
    )


def test_a_session_without_result_is_incomplete() -> None:
    session = only_session(stream(init(A), user("p", session_id=A), assistant("a", session_id=A)))
    assert session.outcome.status == INCOMPLETE
    assert session.finished


def test_an_earlier_session_without_result_is_incomplete_when_the_next_starts() -> None:
    data = stream(
        init(A),
        user("cut short", session_id=A),
        started("c", "shell", {"command": "sleep 60"}, session_id=A),
        *[run(B, "next", "ok")],
    )
    state = fold_bytes(data)
    first, second = state.sessions
    assert first.outcome.status == INCOMPLETE
    assert first.tool_calls[0].status == tools.INTERRUPTED
    assert second.outcome.status == SUCCESS


def test_end_of_stream_interrupts_open_calls_and_keeps_finished_ones() -> None:
    session = only_session(
        stream(
            init(),
            user("p"),
            started("done", "read", {"path": "a"}),
            completed("done", "read", {"success": {"totalLines": 2}}),
            started("open", "shell", {"command": "sleep 100"}),
        )
    )
    statuses = {call.call_id: call.status for call in session.tool_calls}
    assert statuses == {"done": tools.SUCCEEDED, "open": tools.INTERRUPTED}
    assert session.outcome.status == INCOMPLETE


def test_result_with_is_error_true_is_an_error() -> None:
    session = only_session(stream(init(), user("p"), result("it broke", is_error=True)))
    assert session.outcome.status == ERROR
    assert session.outcome.result == "it broke"


def test_result_with_a_subtype_other_than_success_is_an_error() -> None:
    record = orjson.loads(result("x"))
    record["subtype"] = "error_max_turns"
    session = only_session(stream(init(), line(record)))
    assert session.outcome.status == ERROR


def test_result_fills_the_outcome() -> None:
    usage = {"inputTokens": 7120, "outputTokens": 354, "cacheReadTokens": 36864}
    session = only_session(stream(init(), user("p"), result("ok", usage=usage)))
    outcome = session.outcome
    assert (outcome.status, outcome.duration_ms, outcome.request_id) == (SUCCESS, 1234, "req-1")
    assert outcome.usage == usage
    assert outcome.result == "ok"


def test_a_lone_result_object_is_a_session_whose_text_is_the_result() -> None:
    """``--output-format json`` prints only the result record."""
    data = (
        b'{"type":"result","subtype":"success","is_error":false,"duration_ms":5623,'
        b'"duration_api_ms":5623,"result":"pong41 --continue",'
        b'"session_id":"f0083303-4d76-4e22-904a-70b0437c354a","request_id":"6d77"}'
    )
    state = fold_bytes(data)
    assert len(state.sessions) == 1
    session = state.sessions[0]
    assert session.text == "pong41 --continue"
    assert session.outcome.status == SUCCESS
    assert session.session_id == "f0083303-4d76-4e22-904a-70b0437c354a"
    out = summary(data)["sessions"][0]
    assert out["text"] == "pong41 --continue"
    assert out["prompt"] is None and out["model"] is None


def test_malformed_and_unknown_lines_do_not_start_or_end_sessions() -> None:
    data = stream(
        init(A),
        b"Not logged in\n",
        user("p", session_id=A),
        b'{"type":"hologram","subtype":"beam","session_id":"' + A.encode() + b'"}\n',
        result("r", session_id=A),
    )
    state = fold_bytes(data)
    assert len(state.sessions) == 1
    assert state.sessions[0].outcome.status == SUCCESS
    assert (state.counts.total, state.counts.events) == (5, 3)
    assert (state.counts.malformed, state.counts.unknown) == (1, 1)
    assert state.malformed[0].line == 2
    assert state.unknown[0].line == 4


def test_an_unknown_record_is_kept_for_the_event_log_never_painted_in_the_transcript() -> None:
    """Issue 22.2: "unknown record system/task_started" was painted inside the answer."""
    data = stream(
        init(),
        delta("Hel"),
        b'{"type":"hologram","subtype":"beam"}\n',
        delta("lo"),
    )
    state = fold_bytes(data)
    (session,) = state.sessions
    assert [(u.type, u.subtype, u.line) for u in state.unknown] == [("hologram", "beam", 3)]
    assert [b.kind for b in session.blocks] == ["text"]
    assert session.text == "Hello"


def test_connection_and_retry_notices_are_kept_in_order() -> None:
    data = stream(
        init(),
        b'{"type":"connection","subtype":"reconnecting","attempt":1,"endpoint_url":"u"}\n',
        b'{"type":"retry","subtype":"starting","attempt":1,"is_resume":true}\n',
        result(),
    )
    state = fold_bytes(data)
    assert [(n.type, n.subtype) for n in state.notices] == [  # type: ignore[attr-defined]
        ("connection", "reconnecting"),
        ("retry", "starting"),
    ]
