"""The fold's lean call path (``StreamState.apply_fast`` of a ``tool_call`` record:
``CallFold._call_record``) against the general one (the same
call applied as a :class:`ToolCallEvent` with ``apply``): every field of every call,
the transcript's blocks and what changed, in a viewer's state and a compact one."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

import streamview.core.tools as tools
from streamview.core.events import (
    AnyEvent,
    AssistantMessage,
    InteractionQuery,
    SessionStarted,
    ThinkingDelta,
    ToolCallEvent,
)
from streamview.core.model import LEAN_TOOL_BLOCK, TEXT
from streamview.core.state import StreamState
from streamview.core.tools import Said

SID = "s-1"

Step = tuple[Any, ...]
"""``("call", completed, fields)`` (the twelve fields of a fast ``tool_call`` record,
or eleven: Cursor's and Codex's) or ``("event", event)``."""


def call(completed: bool, call_id: str, kind: str, **given: Any) -> Step:
    """A call step: its fields in the fast record's order."""
    fields = (
        None,
        None,
        call_id,
        kind,
        given.get("args"),
        given.get("outcome"),
        given.get("payload"),
        given.get("model_call_id"),
        given.get("started_at_ms"),
        given.get("completed_at_ms"),
        given.get("description"),
        given.get("parent_call_id"),
    )
    if given.get("eleven"):
        return ("call", completed, fields[:11])
    if "target" in given:  # the dialect hands the target over: the thirteenth field
        return ("call", completed, (*fields, given["target"]))
    return ("call", completed, fields)


def as_event(step: Step, line: int) -> AnyEvent:
    """What the general path is fed for a step."""
    if step[0] == "event":
        return msgspec.structs.replace(step[1], line=line)
    _, completed, fields = step
    _, _, call_id, kind, args, outcome, payload, model_call_id, started, ended, described = fields[
        :11
    ]
    return ToolCallEvent(
        line,
        SID,
        line * 10,
        line * 10 + 1,
        completed=completed,
        call_id=call_id,
        kind=kind,
        args=args,
        outcome=outcome,
        payload=payload,
        model_call_id=model_call_id,
        started_at_ms=started,
        completed_at_ms=ended,
        description=described,
        parent_call_id=fields[11] if len(fields) > 11 else None,
    )


def fold_both(
    steps: list[Step], compact: bool, track: bool = True
) -> tuple[StreamState, StreamState, list[Any]]:
    """The steps folded the general way and the fast way, with what each step changed
    (a compact state tracking no changes is a lean one: ``--json``'s)."""
    general = StreamState(track_changes=track, compact=compact)
    fast = StreamState(track_changes=track, compact=compact)
    changes = []
    for line, step in enumerate(steps, 1):
        general.apply(as_event(step, line))
        if step[0] == "event":
            fast.apply(as_event(step, line))
        else:
            subtype = "completed" if step[1] else "started"
            fast.apply_fast(
                ("tool_call", subtype, step[2], None, SID, line * 10, line * 10 + 1), line
            )
        changes.append((general.take_changes(), fast.take_changes()))
    return general, fast, changes


def assert_same(general: StreamState, fast: StreamState, changes: list[Any]) -> None:
    """Every call field by field, the blocks, the counts and each step's changes."""
    assert len(general.sessions) == len(fast.sessions)
    for mine, theirs in zip(general.sessions, fast.sessions, strict=True):
        assert len(mine.tool_calls) == len(theirs.tool_calls)
        for one, other in zip(mine.tool_calls, theirs.tool_calls, strict=True):
            for name in one.__struct_fields__:
                assert getattr(one, name) == getattr(other, name), (one.call_id, name)
        assert [c.index for c in mine.calls_by_id.values()] == [
            c.index for c in theirs.calls_by_id.values()
        ]
        assert mine.blocks == theirs.blocks
        assert (mine.open_text, mine.open_thinking) == (theirs.open_text, theirs.open_thinking)
        assert mine.pending_approval == theirs.pending_approval
        assert mine.pending_args == theirs.pending_args
        assert (mine.events, mine.last_line, mine.first_time_ms, mine.last_time_ms) == (
            theirs.events,
            theirs.last_line,
            theirs.first_time_ms,
            theirs.last_time_ms,
        )
    assert general.counts == fast.counts
    for step, (mine_changed, theirs_changed) in enumerate(changes, 1):
        assert mine_changed == theirs_changed, step


def query(call_id: str, approved: bool | None = None, args: Any = None) -> Step:
    """A permission request (with ``args``) or its answer (``approved``)."""
    subtype = "request" if approved is None else "response"
    event = InteractionQuery(
        0,
        SID,
        subtype=subtype,
        query_id=call_id,
        tool_call_id=call_id,
        args=args,
        approved=approved,
    )
    return ("event", event)


READ = {"path": "/a.py"}
SHELL = {"command": "ls -l"}
SAID = Said("read", "success", "3 lines", lambda: {"content": "a\nb\nc"}, (None, None, None))
SAID_REJECTED = Said("shell", "rejected", "rejected", lambda: {"reason": "no"}, (1, 2, 3))
"""A summary whose status is ``rejected`` (an approval's words replace it) and numbers set."""

CASES: dict[str, list[Step]] = {
    "a start, then its result": [
        call(False, "c1", "read", args=READ, model_call_id="m1", description="look"),
        call(True, "c1", "read", outcome="success", payload={"content": "x\ny"}),
    ],
    "a result counted without its payload": [
        call(False, "c1", "read", args=READ, parent_call_id="task-1", started_at_ms=5),
        call(True, "c1", "read", outcome="success", payload=SAID, completed_at_ms=9),
    ],
    "a repeated result": [
        ("event", SessionStarted(0, SID, agent="claude")),
        call(False, "c1", "shell", args=SHELL),
        call(True, "c1", "shell", outcome="success", payload={"stdout": "one", "exitCode": 0}),
        call(True, "c1", "shell", outcome="error", payload={"message": "two"}),
    ],
    "a repeated result ignored (Kimi)": [
        ("event", SessionStarted(0, SID, agent="kimi")),
        call(False, "c1", "shell", args=SHELL),
        call(True, "c1", "shell", outcome="success", payload={"stdout": "one", "exitCode": 0}),
        call(True, "c1", "unknown", outcome="error", payload={"message": "two"}),
    ],
    "a reused id opens a new call (opencode)": [
        ("event", SessionStarted(0, SID, agent="opencode")),
        call(False, "c1", "read", args=READ),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
        call(False, "c1", "shell", args=SHELL),
        call(True, "c1", "shell", outcome="success", payload={"stdout": "b", "exitCode": 1}),
    ],
    "an approval before the call": [
        query("c1", approved=False),
        call(False, "c1", "shell", args=SHELL),
        call(True, "c1", "shell", outcome="rejected", payload={"reason": "no"}),
    ],
    "arguments asked about before the call, which has none": [
        query("c1", args=SHELL),
        call(False, "c1", "shell"),
        call(True, "c1", "shell", outcome="success", payload={"stdout": "", "exitCode": 0}),
    ],
    "a call of unknown kind its result names": [
        call(False, "c1", "unknown", args={"x": "y"}),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
    ],
    "whole calls, seen first completed (opencode's)": [
        ("event", SessionStarted(0, SID, agent="opencode")),
        ("event", AssistantMessage(0, SID, 5, text="so", delta=True)),
        call(True, "c1", "read", args=READ, outcome="success", payload=SAID, started_at_ms=2),
        call(True, "c2", "shell", args=SHELL, outcome="error", payload={"message": "x"}),
        call(True, "c3", "read", args={"limit": 1}, outcome="success", payload={}),
        call(True, "c1", "read", args=READ, outcome="success", payload={"content": "b"}),
    ],
    "a rejection counted without its payload, after an approval": [
        query("c1", approved=False),
        call(False, "c1", "shell", args=SHELL),
        query("c1", approved=False),
        call(True, "c1", "shell", outcome="rejected", payload=SAID_REJECTED),
    ],
    "a whole call an approval waited for": [
        query("c1", approved=False),
        call(True, "c1", "shell", args=SHELL, outcome="rejected", payload={"reason": "no"}),
    ],
    "a result with no start": [
        call(True, "c9", "read", outcome="success", payload={"content": "a"}),
    ],
    "a result that brings arguments": [
        call(False, "c1", "read", args={}),
        call(True, "c1", "read", args=READ, outcome="success", payload={"content": "a"}),
    ],
    "a result that brings the same arguments again (Cursor's)": [
        call(False, "c1", "read", args=READ),
        call(True, "c1", "read", args=dict(READ), outcome="success", payload={"content": "a"}),
    ],
    "a result that brings empty arguments": [
        call(False, "c1", "read", args=READ),
        call(True, "c1", "read", args={}, outcome="success", payload={"content": "a"}),
    ],
    "arguments with no target": [
        call(False, "c1", "read", args={"limit": 3}),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
        call(True, "c1", "read", outcome="success", payload={"content": "b"}),
    ],
    "empty ids and names": [
        call(False, "c1", "read", args=READ, model_call_id="", description="", parent_call_id=""),
        call(True, "c1", "read", outcome="success", payload={}, model_call_id="m"),
    ],
    "a start named twice": [
        call(False, "c1", "read", args=READ),
        call(False, "c1", "read", args={"path": "/b.py"}),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
    ],
    "text and thinking before a call close": [
        ("event", ThinkingDelta(0, SID, text="hm")),
        ("event", AssistantMessage(0, SID, 5, text="so", delta=True)),
        call(False, "c1", "read", args=READ),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
    ],
    "a target handed over (Codex's thirteen fields)": [
        call(False, "c1", "shell", args=SHELL, target="ls -l"),
        call(True, "c1", "shell", outcome="success", payload={"stdout": ""}, target="ls -l"),
        call(True, "c2", "read", args=READ, outcome="success", payload=SAID, target="/a.py"),
        call(False, "c3", "shell", args={"command": ""}, target=None),
        call(False, "c3", "shell", args=SHELL, target="ls -l"),
    ],
    "Cursor's eleven fields": [
        call(False, "c1", "read", args=READ, eleven=True, model_call_id="m1"),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}, eleven=True),
    ],
}


@pytest.mark.parametrize(
    ("compact", "track"),
    [(False, True), (True, True), (True, False)],
    ids=["viewer", "compact", "lean"],
)
@pytest.mark.parametrize("name", list(CASES))
def test_the_fast_call_path_folds_as_events_do(name: str, compact: bool, track: bool) -> None:
    """Each case's calls, field by field, as the general path leaves them."""
    general, fast, changes = fold_both(CASES[name], compact, track)
    assert_same(general, fast, changes)


def test_a_lean_fold_keeps_its_calls_as_json_writes_them() -> None:
    """A lean fold (compact, no changes tracked: ``--json``'s) numbers no call, keeps no
    line numbers (a finished call's ``completed_line`` is 0: it has its result), puts
    the one shared block for each call and keeps one copy of equal targets and
    summaries, whichever way the records came; a repeat still finds its call."""
    steps = [
        *CASES["a start, then its result"],
        call(False, "c2", "read", args=READ),
        call(True, "c2", "read", outcome="success", payload={"content": "a"}),
        call(True, "c3", "read", args=READ, outcome="success", payload={"content": "b"}),
        call(True, "c1", "read", outcome="success", payload={"content": "a\nb\nc"}),
    ]
    for way in range(2):
        general, fast, changes = fold_both(steps, compact=True, track=False)
        assert_same(general, fast, changes)
        session = (general, fast)[way].sessions[0]
        first, second, third = session.tool_calls
        assert [(c.index, c.started_line, c.completed_line) for c in session.tool_calls] == [
            (0, None, 0)
        ] * 3
        assert first.target == second.target == third.target == "/a.py"
        assert first.target is second.target is third.target
        assert second.summary is third.summary  # "1 line", made twice, kept once
        assert first.summary == "3 lines"  # the repeat replaced its result
        assert session.blocks == [LEAN_TOOL_BLOCK] * 3
        assert all(block is LEAN_TOOL_BLOCK for block in session.blocks)


def test_compact_lets_a_finished_calls_arguments_go_on_both_paths() -> None:
    """A compact state's finished call with a target keeps no arguments (and one
    without a target keeps them), whichever way its records came."""
    steps = CASES["a start, then its result"] + [
        call(False, "c2", "read", args={"limit": 3}),
        call(True, "c2", "read", outcome="success", payload={"content": "a"}),
    ]
    general, fast, changes = fold_both(steps, compact=True)
    assert_same(general, fast, changes)
    first, second = fast.sessions[0].tool_calls
    assert (first.args, first.target, first.model_call_id) == ({}, "/a.py", None)
    assert (second.args, second.target) == ({"limit": 3}, None)


def test_the_common_calls_do_not_go_the_general_way(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new call with its arguments, its first result and a call seen first completed
    are applied by the lean path; a repeat, and a start an approval waits for, by the
    general rules."""
    general_calls: list[str] = []
    general = StreamState._tool

    def counted(self: StreamState, session: Any, line: int, *rest: Any) -> None:
        general_calls.append(rest[3])  # the call id
        general(self, session, line, *rest)

    monkeypatch.setattr(StreamState, "_tool", counted)
    steps = [
        call(False, "c1", "read", args=READ),
        call(True, "c1", "read", outcome="success", payload={"content": "a"}),
        call(False, "c2", "read", args=READ, eleven=True),
        call(
            True, "c2", "read", args=READ, outcome="success", payload={"content": "a"}, eleven=True
        ),
        call(True, "c1", "read", outcome="success", payload={"content": "again"}),
        query("c3", approved=True),
        call(False, "c3", "shell", args=SHELL),
        call(True, "c3", "shell", outcome="success", payload={"stdout": "", "exitCode": 0}),
        call(True, "c4", "shell", args=SHELL, outcome="success", payload={"stdout": "x"}),
    ]
    state = StreamState(track_changes=False, compact=True)
    for line, step in enumerate(steps, 1):
        if step[0] == "event":
            state.apply(as_event(step, line))
        else:
            subtype = "completed" if step[1] else "started"
            state.apply_fast(("tool_call", subtype, step[2], None, SID, None, None), line)
    assert general_calls == ["c1", "c3"]  # the repeat, and the start an approval waited for
    summaries = [c.summary for c in state.sessions[0].tool_calls]
    assert summaries == ["1 line", "1 line", "exit 0", "1 line"]


def random_steps(rng: random.Random) -> list[Step]:
    """A random run of starts, results, repeats, approvals and text, few call ids."""
    steps: list[Step] = [
        ("event", SessionStarted(0, SID, agent=rng.choice([None, "kimi", "opencode"])))
    ]
    kinds = ["read", "shell", "edit", "grep", "unknown", "mcp"]
    argses: list[Any] = [None, {}, READ, SHELL, {"limit": 1}, {"path": "/b", "old_string": "x"}]
    payloads: list[Any] = [
        None,
        {},
        {"content": "a\nb"},
        {"stdout": "x", "exitCode": 2},
        SAID,
        SAID_REJECTED,
    ]
    for _ in range(rng.randrange(1, 30)):
        call_id = f"c{rng.randrange(6)}"
        roll = rng.random()
        if roll < 0.1:
            steps.append(query(call_id, approved=rng.choice([True, False])))
        elif roll < 0.15:
            steps.append(query(call_id, args=rng.choice(argses[1:])))
        elif roll < 0.22:
            steps.append(("event", AssistantMessage(0, SID, 1, text="t", delta=rng.random() < 0.5)))
        elif roll < 0.25:
            steps.append(("event", ThinkingDelta(0, SID, text="h")))
        else:
            steps.append(
                call(
                    rng.random() < 0.5,
                    call_id,
                    rng.choice(kinds),
                    args=rng.choice(argses),
                    outcome=rng.choice(["success", "error", "rejected", None]),
                    payload=rng.choice(payloads),
                    model_call_id=rng.choice([None, "", "m1", "m2"]),
                    started_at_ms=rng.choice([None, 3]),
                    completed_at_ms=rng.choice([None, 0, 8]),
                    description=rng.choice([None, "", "d"]),
                    parent_call_id=rng.choice([None, "", "p"]),
                    eleven=rng.random() < 0.2,
                )
            )
            if rng.random() < 0.3 and len(steps[-1][2]) == 12:  # the target handed over
                fields = steps[-1][2]
                steps[-1] = ("call", steps[-1][1], (*fields, tools.target_of(fields[3], fields[4])))
    return steps


def test_a_target_handed_over_is_taken_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dialect that hands the target over (the thirteenth field) spares the fold's
    ``target_of`` for a new call, started or whole; one with twelve fields asks it."""
    asked: list[str] = []
    target_of = tools.target_of

    def counted(kind: str, args: Any) -> Any:
        asked.append(kind)
        return target_of(kind, args)

    monkeypatch.setattr(tools, "target_of", counted)
    state = StreamState(track_changes=False, compact=True)
    steps = [
        call(False, "c1", "shell", args=SHELL, target="handed"),
        call(True, "c1", "shell", outcome="success", payload={"stdout": ""}, target="handed"),
        call(True, "c2", "edit", args=READ, outcome="success", payload={}, target="given"),
        call(False, "c3", "read", args=READ),
    ]
    for line, step in enumerate(steps, 1):
        subtype = "completed" if step[1] else "started"
        state.apply_fast(("tool_call", subtype, step[2], None, SID, None, None), line)
    assert asked == ["read"]
    assert [c.target for c in state.sessions[0].tool_calls] == ["handed", "given", "/a.py"]


@pytest.mark.parametrize("seed", range(8))
def test_random_runs_of_calls_fold_the_same_both_ways(seed: int) -> None:
    """Hundreds of random runs, in a viewer's state and a compact one."""
    rng = random.Random(seed)
    for _ in range(150):
        steps = random_steps(rng)
        for compact, track in ((False, True), (True, True), (True, False)):
            general, fast, changes = fold_both(steps, compact, track)
            assert_same(general, fast, changes)


@pytest.mark.parametrize(
    ("compact", "track"),
    [(False, True), (True, True), (True, False)],
    ids=["viewer", "compact", "lean"],
)
@pytest.mark.parametrize("before", ["nothing", "text delta", "thinking delta", "a call"])
def test_an_answer_with_its_call_folds_as_its_two_events(
    before: str, compact: bool, track: bool
) -> None:
    """An ``answer_call`` record (Kimi's whole answer and the call it starts) leaves the
    state and each step's changes as a whole ``AssistantMessage`` and the call's event
    do, whatever is open before it."""
    openers: dict[str, list[Step]] = {
        "nothing": [],
        "text delta": [("event", AssistantMessage(0, SID, 1, text="t", delta=True))],
        "thinking delta": [("event", ThinkingDelta(0, SID, text="h"))],
        "a call": [call(False, "c0", "read", args=READ)],
    }
    first = openers[before]
    steps = [*first, call(False, "c1", "shell", args=SHELL), call(False, "c0", "read", args=READ)]
    general = StreamState(track_changes=track, compact=compact)
    fast = StreamState(track_changes=track, compact=compact)
    changes = []
    for line, step in enumerate(steps, 1):
        if step[0] == "call" and line > len(first):  # each comes with an answer
            answer = AssistantMessage(
                line, SID, line * 10, line * 10 + 1, text=f"answer {line}", delta=False
            )
            general.apply(answer)
            general.apply(as_event(step, line))
            record = (f"answer {line}", step[2])
            fast.apply_fast(
                ("answer_call", None, record, None, SID, line * 10, line * 10 + 1), line
            )
        else:
            general.apply(as_event(step, line))
            if step[0] == "event":
                fast.apply(as_event(step, line))
            else:
                subtype = "completed" if step[1] else "started"
                fast.apply_fast(
                    ("tool_call", subtype, step[2], None, SID, line * 10, line * 10 + 1), line
                )
        changes.append((general.take_changes(), fast.take_changes()))
    assert_same(general, fast, changes)
    texts = [block.text for block in fast.sessions[0].blocks if block.kind == TEXT]
    assert texts[-2:] == [f"answer {len(first) + 1}", f"answer {len(first) + 2}"]
