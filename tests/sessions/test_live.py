"""What a live run is doing, folded from what its file grew by: each agent's states
in turn, a torn line waited for, a whole-file rewrite read without counting twice, a
long file read from its tail with a state that stays small."""

from __future__ import annotations

import os
import time
from pathlib import Path

import orjson
import pytest

from streamview.runs import session_live
from streamview.runs.session_live import (
    DONE,
    IDLE_SECONDS,
    OPEN_CALLS_LIMIT,
    QUIET_TURN_SECONDS,
    THINKING,
    LiveState,
    LiveTracker,
    OpenCall,
    duration,
    still_going,
)
from tests.sessions.live_lines import (
    Claude,
    codex_call,
    codex_done,
    codex_output,
    codex_start,
    gemini_call,
    gemini_header,
    gemini_prompt,
    gemini_reply,
    lines,
)

T0 = time.time() - 5
"""Five seconds ago, taken again before each test (:func:`recent_start`): a module
constant was taken when the suite was collected, and a test run minutes later under
load read "thinking 7m" where it expected "thinking"."""


@pytest.fixture(autouse=True)
def recent_start() -> None:
    global T0
    T0 = time.time() - 5


def append(path: Path, data: bytes) -> None:
    with path.open("ab") as file:
        file.write(data)


def walk(path: Path, steps: list[bytes]) -> list[tuple[str, list[str]]]:
    """The run's phrase and the news (phases entered) after each step is appended."""
    tracker = LiveTracker()
    path.write_bytes(b"")
    seen = []
    for step in steps:
        append(path, step)
        changes = tracker.poll([path])
        state = tracker.state(path)
        assert state is not None
        said = state.text(time.time())
        seen.append((said.rstrip("0123456789s").rstrip(), [change.phase for change in changes]))
    return seen


def test_claude_runs_a_tool_asks_the_person_and_finishes(tmp_path: Path) -> None:
    """A prompt is thinking, a call runs on its target, a question waits for the
    person, the turn's end is finished; the last two are news, once each."""
    claude = Claude()
    call = claude.call("Bash", {"command": "npm test"}, T0)
    ask = claude.call("AskUserQuestion", {"questions": [{"question": "which?"}]}, T0)
    steps = [
        lines(claude.prompt("the cart total is wrong", T0)),
        lines(call),
        lines(claude.result(call, T0)),
        lines(ask),
        lines(claude.result(ask, T0)),
        lines(claude.turn_end(T0)),
    ]
    assert walk(tmp_path / "s.jsonl", steps) == [
        ("thinking", []),
        ("shell: npm test", []),
        ("thinking", []),
        ("needs you: AskUserQuestion", ["waiting"]),
        ("thinking", []),
        ("✓ finished", ["done"]),
    ]


def test_codex_and_gemini_each_say_the_same_phases(tmp_path: Path) -> None:
    """Codex's rollout (a function call, its output, ``task_complete``) and Gemini's
    JSONL (a call re-appended under its id as it ends, then the answer)."""
    codex = [
        lines(*codex_start(T0)),
        lines(codex_call("call_1", ["pytest", "-q"], T0)),
        lines(codex_output("call_1", T0)),
        lines(codex_done(T0)),
    ]
    assert walk(tmp_path / "rollout.jsonl", codex) == [
        ("thinking", []),
        ("shell: pytest -q", []),
        ("thinking", []),
        ("✓ finished", ["done"]),
    ]
    gemini = [
        lines(gemini_header(T0), gemini_prompt("list the python files", T0)),
        lines(gemini_call("executing", T0)),
        lines(gemini_call("success", T0)),
        lines(gemini_reply("three files", T0)),
    ]
    assert walk(tmp_path / "session.jsonl", gemini) == [
        ("thinking", []),
        ("glob: **/*.py", []),
        ("thinking", []),
        ("✓ finished", ["done"]),
    ]


def test_a_torn_last_line_is_waited_for(tmp_path: Path) -> None:
    """Half a line is not read (nor lost): the call shows once its line is whole."""
    claude = Claude()
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(claude.prompt("go", T0)))
    tracker = LiveTracker()
    tracker.poll([path])
    call = lines(claude.call("Bash", {"command": "make"}, T0))
    for cut in (1, len(call) // 2, len(call) - 1):
        path.write_bytes(lines(claude.prompt("go", T0)) + call[:cut])
        tracker.poll([path])
        state = tracker.state(path)
        assert state is not None and not state.calls, cut
    append(path, call[len(call) - 1 :])
    tracker.poll([path])
    state = tracker.state(path)
    assert state is not None and [each.target for each in state.calls] == ["make"]


def legacy_gemini(path: Path, messages: list[dict[str, object]], updated: int) -> None:
    """Gemini CLI's older session file: one pretty-printed object, rewritten whole."""
    whole = {
        "sessionId": "5b8f",
        "projectHash": "ab12",
        "startTime": "2027-01-15T08:00:00.000Z",
        "lastUpdated": f"2027-01-15T08:00:{updated:02d}.000Z",
        "messages": messages,
    }
    path.write_bytes(orjson.dumps(whole, option=orjson.OPT_INDENT_2))
    os.utime(path, (T0 + updated, T0 + updated))


def test_a_whole_file_rewrite_is_read_again_without_counting_twice(tmp_path: Path) -> None:
    """Each rewrite folds only the messages new or changed: the call ends, the turn
    finishes (news once), and a rewrite that only bumps ``lastUpdated`` is no news."""
    path = tmp_path / "session-2027-01-15T08-00-5b8f.json"
    prompt = gemini_prompt("list the python files", T0)
    tracker = LiveTracker()
    legacy_gemini(path, [prompt, gemini_call("executing", T0)], 1)
    assert tracker.poll([path]) == []
    state = tracker.state(path)
    assert state is not None and state.text(T0).startswith("glob: **/*.py")
    reply = gemini_reply("three files", T0)
    legacy_gemini(path, [prompt, gemini_call("success", T0), reply], 2)
    assert [change.phase for change in tracker.poll([path])] == ["done"]
    legacy_gemini(path, [prompt, gemini_call("success", T0), reply], 3)
    assert tracker.poll([path]) == []
    state = tracker.state(path)
    assert state is not None and state.text(T0) == "✓ finished"


def test_a_long_file_is_read_from_its_tail_with_its_header(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file past the first read's size: its first line (Gemini's header, which names
    the dialect) and its last records say what it does; the rest is never folded."""
    monkeypatch.setattr(session_live, "FIRST_READ_BYTES", 4096)
    path = tmp_path / "session.jsonl"
    filler = lines(*({**gemini_prompt("go on", T0), "id": f"m{n}"} for n in range(2, 300)))
    assert len(filler) > 4 * 4096
    early = {**gemini_call("executing", T0), "id": "g0"}  # folded, it would stay open
    early["toolCalls"] = [{**early["toolCalls"][0], "id": "read-0", "name": "read_file"}]
    path.write_bytes(
        lines(gemini_header(T0), gemini_prompt("go", T0), early)
        + filler
        + lines(gemini_call("executing", T0))
    )
    tracker = LiveTracker()
    tracker.poll([path])
    state = tracker.state(path)
    assert state is not None and [call.name for call in state.calls] == ["glob"]


def test_calls_never_ended_cannot_grow_the_state(tmp_path: Path) -> None:
    """A thousand calls without results keep :data:`OPEN_CALLS_LIMIT` of them, the
    newest shown."""
    claude = Claude()
    calls = [claude.call("Read", {"file_path": f"/src/f{n}.py"}, T0) for n in range(1000)]
    path = tmp_path / "s.jsonl"
    path.write_bytes(lines(claude.prompt("read it all", T0), *calls))
    tracker = LiveTracker()
    tracker.poll([path])
    state = tracker.state(path)
    assert state is not None and len(state.calls) == OPEN_CALLS_LIMIT
    assert state.calls[-1].target == "/src/f999.py"


def test_a_replaced_file_is_read_anew_and_its_past_is_no_news(tmp_path: Path) -> None:
    """A file truncated and written again (a new run under the same name) is read from
    its start: its state is the new file's, and its finished turn is not news."""
    claude = Claude()
    path = tmp_path / "s.jsonl"
    call = claude.call("Bash", {"command": "sleep 60"}, T0)
    path.write_bytes(lines(claude.prompt("wait", T0), call))
    tracker = LiveTracker()
    tracker.poll([path])
    path.write_bytes(lines(*codex_start(T0), codex_done(T0)))
    assert tracker.poll([path]) == []
    state = tracker.state(path)
    assert state is not None and state.text(T0) == "✓ finished"


def test_quiet_thinking_becomes_idle_and_durations_are_short() -> None:
    """Thinking with no write for :data:`IDLE_SECONDS` is said idle, for how long."""
    state = LiveState("thinking", since=100.0, grew=100.0)
    assert state.text(105.0) == "thinking 5s"
    assert state.text(100.0 + IDLE_SECONDS + 5) == f"idle {int(IDLE_SECONDS) + 5}s"
    assert [duration(value) for value in (-3, 59, 125, 4000)] == ["0s", "59s", "2m05s", "1h06m"]


def test_a_long_run_s_dialect_starts_afresh_and_still_knows_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past :data:`RESET_LINES` with no call open the dialect's reader is new (the ids
    it kept to pair records let go), fed the file's header again: Gemini's next call is
    still read as one."""
    monkeypatch.setattr(session_live, "RESET_LINES", 5)
    path = tmp_path / "session.jsonl"
    prompts = [{**gemini_prompt("go on", T0), "id": f"m{n}"} for n in range(10)]
    path.write_bytes(lines(gemini_header(T0), *prompts))
    tracker = LiveTracker()
    tracker.poll([path])
    followed = tracker._runs[path]  # what the run holds: no public view of it
    first_reader = followed.reader
    append(path, lines(gemini_call("executing", T0)))
    tracker.poll([path])
    assert followed.reader is not first_reader and followed.fed == 1
    state = tracker.state(path)
    assert state is not None and [call.name for call in state.calls] == ["glob"]


def test_a_run_still_going_stays_live_while_its_file_is_quiet() -> None:
    """A call running or the person asked: live however long; a turn not ended: for
    :data:`QUIET_TURN_SECONDS`; a turn finished or a file not understood: not."""
    call = OpenCall("c1", "shell", "make", since=0.0, asks=False)
    assert still_going(LiveState(THINKING, 0.0, 0.0, calls=(call,)), 86_400)
    assert still_going(LiveState(DONE, 0.0, 0.0, asked=("q1",)), 86_400)
    assert still_going(LiveState(THINKING, 0.0, 0.0), QUIET_TURN_SECONDS - 1)
    assert not still_going(LiveState(THINKING, 0.0, 0.0), QUIET_TURN_SECONDS + 1)
    assert not still_going(LiveState(DONE, 0.0, 0.0), 1)
    assert not still_going(LiveState(), 1)


def test_a_call_s_target_is_cleaned_and_cut_before_its_duration() -> None:
    """A command with escapes, markup and newlines is one clean line, cut so the
    duration still shows; the name of a call asking the person is cleaned too."""
    command = "\x1b[31mrm -rf [b]build[/b]\x1b[0m\nmake all && make check && make install"
    call = OpenCall("c1", "shell", command, since=0.0, asks=False)
    said = LiveState(THINKING, 0.0, 0.0, calls=(call,)).text(12.0, 30)
    assert said.startswith("shell: rm -rf [b]build") and said.endswith("… 12s")
    assert len(said) <= 30 and "\x1b" not in said
    asking = OpenCall("c2", "ask\x07_user", None, since=0.0, asks=True)
    assert "\x07" not in LiveState(calls=(asking,)).text(1.0)


def test_a_long_run_with_a_call_always_open_keeps_what_it_holds_flat(tmp_path: Path) -> None:
    """A Claude run whose background call never ends (so its dialect is never started
    afresh) followed for 24,000 lines: what the tracker holds after 24,000 is what it
    held after 12,000 (``tracemalloc``, after a collection): the dialect remembers the
    newest ids it pairs and the lines a branch can hang off, not every line's ``uuid``
    (which grew it by about 1.8 MB here)."""
    import gc
    import tracemalloc

    claude = Claude()
    path = tmp_path / "long.jsonl"
    path.write_bytes(lines(claude.prompt("go", T0), claude.call("Bash", {"command": "serve"}, T0)))
    tracker = LiveTracker()
    tracker.poll([path], now=T0)  # its start is read, the call open
    held: list[int] = []
    tracemalloc.start()
    try:
        for step in range(6):
            batch = []
            for _ in range(512):  # a call and its result, 512 times
                call = claude.call("Read", {"file_path": "a.py"}, T0)
                batch += [call, claude.result(call, T0)]
            append(path, lines(*batch))
            tracker.poll([path], now=T0 + step)
            if step in (2, 5):
                gc.collect()
                held.append(tracemalloc.get_traced_memory()[0])
    finally:
        tracemalloc.stop()
    state = tracker.state(path)
    assert state is not None and [call.target for call in state.calls] == ["serve"]
    assert held[1] - held[0] < 64 << 10, f"3,072 lines more kept {(held[1] - held[0]) >> 10} KiB"
