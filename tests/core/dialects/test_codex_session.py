"""Codex's interactive session files (rollouts) read as streams, and session files
followed as they grow.

Fixtures: tests/fixtures/sessions/codex (a real rollout of Codex 0.128, and
claude-code-log's hand-written one; SOURCES.md says where each came from).
"""

from __future__ import annotations

import contextlib
import queue
import re
import threading
import time
from pathlib import Path
from typing import Any

import orjson

from streamview.core import tools
from streamview.core.events import AnyEvent, PromptSubmitted, ToolCallEvent
from streamview.core.model import PROMPT, THINKING
from streamview.core.reader import EventReader, fold
from streamview.core.recognise import recognise
from streamview.core.state import StreamState
from streamview.sources.follow import FollowedFile

SESSIONS = Path(__file__).resolve().parents[2] / "fixtures" / "sessions"
REAL = SESSIONS / "codex" / "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"
WRITTEN = (
    SESSIONS / "codex" / "rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl"
)
_OUTPUT = re.compile(r"Process exited with code (\d+)\n(?:.*\n)*?Output:\n", re.MULTILINE)


def exec_stream(path: Path) -> bytes:
    """The ``codex exec --json`` stream of the same run: each command an
    ``item.started``/``item.completed`` ``command_execution``, each answer an
    ``agent_message`` item (rollouts keep the answer whole, as exec prints it)."""
    out: list[dict[str, Any]] = [{"type": "thread.started", "thread_id": "t"}]
    commands: dict[str, str] = {}
    for raw in path.read_bytes().splitlines():
        record = orjson.loads(raw)
        payload = record["payload"]
        if record["type"] != "response_item":
            continue
        if payload["type"] == "function_call" and payload["name"] == "exec_command":
            command = orjson.loads(payload["arguments"])["cmd"]
            commands[payload["call_id"]] = command
            item = {"id": payload["call_id"], "type": "command_execution", "command": command}
            out.append({"type": "item.started", "item": dict(item, status="in_progress")})
        elif payload["type"] == "function_call_output" and payload["call_id"] in commands:
            text = payload["output"]
            found = _OUTPUT.search(text)
            code = int(found.group(1)) if found else None
            output = text[found.end() :] if found else text
            item = {
                "id": payload["call_id"], "type": "command_execution",
                "command": commands[payload["call_id"]], "aggregated_output": output,
                "exit_code": code, "status": "completed",
            }  # fmt: skip
            out.append({"type": "item.completed", "item": item})
        elif payload["type"] == "message" and payload["role"] == "assistant":
            text = "".join(b["text"] for b in payload["content"] if b["type"] == "output_text")
            item = {"id": f"m{len(out)}", "type": "agent_message", "text": text}
            out.append({"type": "item.completed", "item": item})
    out.append({"type": "turn.completed", "usage": {"input_tokens": 1, "output_tokens": 1}})
    return b"\n".join(orjson.dumps(r) for r in out) + b"\n"


def calls(state: StreamState) -> list[tuple[str, str, str | None, str | None]]:
    (session,) = state.sessions
    return [(c.kind, c.status, c.target, c.summary) for c in session.tool_calls]


def test_a_real_rollout_folds_to_the_account_of_its_exec_stream() -> None:
    data = REAL.read_bytes()
    dialect, _ = recognise([data])
    assert dialect is not None and dialect.name == "codex-session"  # without --agent
    state = fold([data])
    stream = fold([exec_stream(REAL)])
    assert calls(state) == calls(stream)
    assert len(calls(state)) == 11  # exec_command calls of its first two turns
    assert all(status == tools.SUCCEEDED for _, status, _, _ in calls(state))
    (session,) = state.sessions
    assert session.text == stream.sessions[0].text
    assert session.text.startswith("I analyzed `/Users/Sample_User/Downloads/")
    prompts = [b.text for b in session.blocks if b.kind == PROMPT]
    assert len(prompts) == 2  # event_msg/user_message: the person's words
    assert prompts[1].startswith("there is a need for nikita to draft demo scenario")
    assert state.counts.unknown == 0


def test_text_written_twice_is_shown_once_and_the_model_and_usage_are_the_turns() -> None:
    state = fold([WRITTEN.read_bytes()])
    (session,) = state.sessions
    assert session.text == "The synthetic files are alpha.txt and beta.txt."
    thinking = [b.text for b in session.blocks if b.kind == THINKING]
    assert thinking == ["I will inspect the synthetic directory."]
    assert session.model == "synthetic-model"
    assert [(k, s, t) for k, s, t, _ in calls(state)] == [
        ("shell", tools.SUCCEEDED, "find . -maxdepth 1 -type f"),
        ("edit", tools.SUCCEEDED, "gamma.txt"),
        ("mcp__synthetic__lookup", tools.SUCCEEDED, "fixture"),
    ]
    # The record type no release documents: counted, never painted.
    assert state.counts.unknown == 1
    assert all("ignored" not in b.text for b in session.blocks)


def test_a_turns_usage_and_a_model_change_are_read_from_the_rollout() -> None:
    lines = WRITTEN.read_bytes().splitlines()[:13]
    usage = {"input_tokens": 120, "cached_input_tokens": 20, "output_tokens": 7}
    more = [
        {"type": "event_msg", "payload": {"type": "token_count", "info": {"total_token_usage":
            usage}}},
        {"type": "event_msg", "payload": {"type": "task_complete", "turn_id": "1"}},
        {"type": "turn_context", "payload": {"model": "gpt-5.5", "effort": "high"}},
    ]  # fmt: skip
    state = fold([b"\n".join(lines + [orjson.dumps(r) for r in more]) + b"\n"])
    (session,) = state.sessions
    assert session.outcome.status == "success"
    assert session.outcome.usage == {"inputTokens": 120, "cacheReadTokens": 20, "outputTokens": 7}
    said = [getattr(n, "text", "") for n in state.notices]
    assert "model gpt-5.5 (effort high)" in said


def follow_events(path: Path, stop: threading.Event, out: queue.Queue[AnyEvent]) -> None:
    reader = EventReader()
    for chunk in FollowedFile(path, lambda p: p.open("rb"), 1 << 16, 0.01).chunks(stop):
        if isinstance(chunk, bytes):
            for event in reader.feed(chunk):
                out.put(event)


def wait_for(out: queue.Queue[AnyEvent], seen: list[AnyEvent], want: Any) -> None:
    deadline = time.monotonic() + 10
    while not any(want(e) for e in seen):
        assert time.monotonic() < deadline, "the followed file's lines never came"
        with contextlib.suppress(queue.Empty):
            seen.append(out.get(timeout=0.1))


def test_a_session_file_is_followed_as_it_grows_and_a_torn_line_waits(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    claude = (SESSIONS / "claude" / "tool_heavy.jsonl").read_bytes().splitlines(True)
    path.write_bytes(b"".join(claude[:4]))  # up to the first prompt
    stop, out, seen = threading.Event(), queue.Queue[AnyEvent](), []
    worker = threading.Thread(target=follow_events, args=(path, stop, out), daemon=True)
    worker.start()
    try:
        wait_for(out, seen, lambda e: isinstance(e, PromptSubmitted))
        line5 = claude[4]  # the first tool_use, written in two bursts
        with path.open("ab") as handle:
            handle.write(line5[:100])
            handle.flush()
            time.sleep(0.2)  # several polls see the torn line: none may read it
            assert not any(isinstance(e, ToolCallEvent) for e in seen)
            while not out.empty():
                seen.append(out.get())
            assert all(e.line <= 4 for e in seen)
            handle.write(line5[100:])
        wait_for(out, seen, lambda e: isinstance(e, ToolCallEvent))
        (call,) = [e for e in seen if isinstance(e, ToolCallEvent)]
        assert call.line == 5 and call.kind == "shell"
    finally:
        stop.set()
        worker.join(5)


def test_a_prompt_the_ide_wrapped_is_the_person_s_request_and_its_context_a_notice() -> None:
    """Codex's IDE extension writes its context (files mentioned, open tabs) before
    ``## My request for Codex:``; the prompt and the sessions list's title showed
    ``# Files mentioned by the user: ...``. The request is the prompt; the context is
    kept, as a notice; a prompt typed in the terminal is left whole."""
    from streamview.core.events import AgentNotice
    from streamview.runs.session_heads import read_head, records

    path = REAL
    wrapped = next(
        orjson.loads(line)["payload"]["message"]
        for line in path.read_bytes().splitlines()
        if b'"user_message"' in line and b"My request for Codex" in line
    )
    request = wrapped.split("## My request for Codex:")[1].strip()
    reader = EventReader()
    events = [*reader.feed(path.read_bytes()), *reader.finish()]
    prompts = [e for e in events if isinstance(e, PromptSubmitted)]
    assert prompts[0].text == request
    notes = [e for e in events if isinstance(e, AgentNotice) and e.subtype == "ide_context"]
    assert notes and "Files mentioned by the user" in notes[0].text
    assert read_head(records(path.read_bytes()[:65536])).prompt == request
    plain = WRITTEN
    reader = EventReader()
    typed = [e for e in reader.feed(plain.read_bytes()) if isinstance(e, PromptSubmitted)]
    assert typed and typed[0].text == "List the synthetic files."
