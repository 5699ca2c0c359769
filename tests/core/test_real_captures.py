"""Every real capture of the CLI folds without a fault, and says what the capture says.

The expectations are read from each capture independently of streamview (plain
``json`` over the file's lines) or written down from reading the capture by hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from streamview.core import fold, summarize, tools
from streamview.core.state import NOTICE, SUCCESS, TEXT, Session, StreamState

from .helpers import capture_files, full_fold

FILES = capture_files()
IDS = [path.name for path in FILES]


@dataclass
class Oracle:
    """What a capture holds, read with the standard library only."""

    records: list[dict[str, Any]]
    non_blank: int
    session_id: str | None
    result: dict[str, Any]
    call_ids: list[str] = field(default_factory=list)
    """Every call_id in first-seen order."""
    started_ids: set[str] = field(default_factory=set)
    kinds: dict[str, str] = field(default_factory=dict)
    outcomes: dict[str, str] = field(default_factory=dict)
    times: dict[str, tuple[int, int]] = field(default_factory=dict)
    assistant_texts: list[str] = field(default_factory=list)


def read_oracle(path: Path) -> Oracle:
    """Read a capture without streamview."""
    lines = [raw for raw in path.read_bytes().split(b"\n") if raw.strip()]
    records = [json.loads(raw) for raw in lines]
    init = next(r for r in records if r.get("type") == "system" and r.get("subtype") == "init")
    final = next(r for r in records if r.get("type") == "result")
    oracle = Oracle(records, len(lines), init.get("session_id"), final)
    for record in records:
        if record.get("type") == "assistant":
            oracle.assistant_texts.append(
                "".join(c["text"] for c in record["message"]["content"] if c["type"] == "text")
            )
        if record.get("type") != "tool_call":
            continue
        call_id = record["call_id"]
        if call_id not in oracle.call_ids:
            oracle.call_ids.append(call_id)
        tool_call = record["tool_call"]
        key = next(k for k in tool_call if k.endswith("ToolCall") and k != "toolCallId")
        oracle.kinds[call_id] = key[: -len("ToolCall")]
        if record["subtype"] == "started":
            oracle.started_ids.add(call_id)
        else:
            union = tool_call[key]["result"]
            # the union's variant; shell results also hold an ``isBackground`` flag
            (outcome,) = [k for k in union if k != "isBackground"]
            oracle.outcomes[call_id] = outcome
            if "startedAtMs" in tool_call and "completedAtMs" in tool_call:
                oracle.times[call_id] = (
                    int(tool_call["startedAtMs"]),
                    int(tool_call["completedAtMs"]),
                )
    return oracle


def fold_file(path: Path) -> tuple[StreamState, Session]:
    """Fold a capture; it must hold exactly one session."""
    state = full_fold([path.read_bytes()])
    assert len(state.sessions) == 1
    return state, state.sessions[0]


def by_name(part: str) -> Path:
    """The one capture whose name holds ``part``."""
    matches = [path for path in FILES if part in path.name]
    assert len(matches) == 1, (part, matches)
    return matches[0]


# -- every capture -------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_counts_every_non_blank_line_with_nothing_malformed(path: Path) -> None:
    oracle = read_oracle(path)
    state, _ = fold_file(path)
    counts = state.counts
    assert counts.total == oracle.non_blank
    assert counts.malformed == 0
    assert counts.unknown == 0
    assert counts.events == counts.total


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_is_one_successful_session_with_its_header(path: Path) -> None:
    oracle = read_oracle(path)
    _, session = fold_file(path)
    init = oracle.records[0]
    assert session.session_id == oracle.session_id
    assert session.model == init["model"]
    assert session.cwd == init["cwd"]
    assert session.permission_mode == init["permissionMode"]
    assert session.api_key_source == init["apiKeySource"]
    assert session.outcome.status == SUCCESS
    assert session.outcome.duration_ms == oracle.result["duration_ms"]
    assert session.outcome.request_id == oracle.result["request_id"]
    assert session.outcome.usage == oracle.result.get("usage")
    assert session.outcome.result == oracle.result["result"]


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_calls_are_all_completed_with_their_kind_and_status(path: Path) -> None:
    oracle = read_oracle(path)
    _, session = fold_file(path)
    assert [call.call_id for call in session.tool_calls] == oracle.call_ids
    expected_status = {
        "success": tools.SUCCEEDED,
        "rejected": tools.REJECTED,
        "failure": tools.FAILED,
        "error": tools.ERROR,
    }
    for call in session.tool_calls:
        assert call.kind == oracle.kinds[call.call_id]
        assert call.status not in (tools.RUNNING, tools.INTERRUPTED), call
        assert call.status == expected_status[oracle.outcomes[call.call_id]], call
        if call.call_id in oracle.times:
            start, end = oracle.times[call.call_id]
            assert call.duration_ms == end - start
        else:
            assert call.duration_ms is not None and call.duration_ms >= 0


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_text_is_the_result_text_split_into_segments(path: Path) -> None:
    oracle = read_oracle(path)
    _, session = fold_file(path)
    expected = oracle.result["result"]
    if not oracle.assistant_texts:
        assert session.text == expected
        return
    segments = [block.text for block in session.blocks if block.kind == TEXT]
    assert "".join(segments) == expected
    # the separators streamview puts between segments are only line breaks
    assert session.text.replace("\n", "") == expected.replace("\n", "")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_gives_the_same_summary_in_any_chunking(path: Path) -> None:
    data = path.read_bytes()
    whole = summarize(full_fold([data]))
    assert summarize(fold([data])) == whole  # the lean fold --json uses says the same
    for size in (1, 3, 64, 4096):
        chunks = [data[i : i + size] for i in range(0, len(data), size)]
        assert summarize(fold(chunks)) == whole, size


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_capture_prompt_is_the_user_record(path: Path) -> None:
    oracle = read_oracle(path)
    _, session = fold_file(path)
    prompts = [
        "".join(c["text"] for c in r["message"]["content"] if c["type"] == "text")
        for r in oracle.records
        if r.get("type") == "user"
    ]
    assert session.prompt == (prompts[0] if prompts else None)


# -- facts of each capture, checked by reading it -------------------------------------------


def calls_of(part: str) -> list[tuple[str, str | None, str]]:
    """``(kind, target, status)`` of each call of a capture."""
    _, session = fold_file(by_name(part))
    return [(call.kind, call.target, call.status) for call in session.tool_calls]


def test_probe_15_four_denied_calls_and_a_web_search_completed_without_start() -> None:
    _, session = fold_file(by_name("probe-15_denials"))
    calls = session.tool_calls
    assert [call.kind for call in calls] == ["webFetch", "shell", "shell", "webSearch"]
    assert all(call.status == tools.REJECTED for call in calls)
    web_search = calls[3]
    assert web_search.started_line is None
    assert web_search.completed_line == 41
    assert web_search.target == "example.com page title"  # from the interaction_query request
    assert calls[0].summary == "rejected: User Rejected"
    assert calls[1].summary == "rejected"  # empty reason
    assert calls[0].target == "https://example.com"
    assert calls[1].target == "curl -sL https://example.com | grep -i '<title>' | head -1"
    assert calls[0].approval == "rejected: User Rejected"


def test_probe_15s_two_rejected_shell_calls_then_a_rejected_fetch() -> None:
    assert calls_of("probe-15s") == [
        ("shell", "curl -sI https://example.com", tools.REJECTED),
        ("shell", "curl -sI https://example.com", tools.REJECTED),
        ("webFetch", "https://example.com", tools.REJECTED),
    ]


def test_probe_20_ask_question_rejected_after_its_interaction_query() -> None:
    _, session = fold_file(by_name("probe-20"))
    (call,) = session.tool_calls
    assert (call.kind, call.target, call.status) == (
        "askQuestion",
        "Which file to edit?",
        tools.REJECTED,
    )
    reason = "Questions skipped by the user, continue with the information you already have"
    assert call.summary == f"rejected: {reason}"
    assert call.approval == f"rejected: {reason}"


def test_probe_13_read_then_edit() -> None:
    _, session = fold_file(by_name("probe-13"))
    read, edit = session.tool_calls
    assert (read.kind, read.target, read.summary) == (
        "read",
        "/hcn-cursor-spike/ws-main/notes.txt",
        "3 lines",
    )
    assert (edit.kind, edit.target, edit.summary) == (
        "edit",
        "/hcn-cursor-spike/ws-main/notes.txt",
        "+1 -0",
    )
    assert session.thinking.startswith('Appending "probe13" to the end of notes.txt.')


def test_probe_43_read_then_deltas_and_flush() -> None:
    _, session = fold_file(by_name("probe-43"))
    (call,) = session.tool_calls
    assert (call.kind, call.status, call.summary) == ("read", tools.SUCCEEDED, "3 lines")
    assert session.text == "READ-OK"


def test_probe_52s_shell_success_whose_output_has_crlf() -> None:
    _, session = fold_file(by_name("probe-52s"))
    (call,) = session.tool_calls
    assert (call.kind, call.target, call.status) == (
        "shell",
        "curl -sI https://example.com",
        tools.SUCCEEDED,
    )
    # ten header lines; trailing line breaks count the same as with \n endings
    assert call.summary == "exit 0, 10 lines"


def test_parallel_sleep_two_shell_calls_and_sleep_4_completes_first() -> None:
    _, session = fold_file(by_name("parallel-sleep"))
    sleep_6, sleep_4 = session.tool_calls
    assert (sleep_6.target, sleep_4.target) == ("sleep 6", "sleep 4")
    assert "\n" in sleep_6.call_id and "\n" in sleep_4.call_id
    assert sleep_4.completed_line == 6 and sleep_6.completed_line == 7
    assert sleep_6.started_line == 4 and sleep_4.started_line == 5
    assert sleep_6.status == sleep_4.status == tools.SUCCEEDED
    assert sleep_6.model_call_id is None or sleep_6.model_call_id == sleep_4.model_call_id


def test_direct_sleep_sequential_calls_and_long_thinking() -> None:
    _, session = fold_file(by_name("direct-sleep"))
    assert [(c.target, c.summary) for c in session.tool_calls] == [
        ("sleep 5", "exit 0"),
        ("sleep 3", "exit 0"),
    ]
    # timestamps of the records, not of the calls, give the durations here
    assert [c.duration_ms for c in session.tool_calls] == [
        1770823850766 - 1770823845357,
        1770823856707 - 1770823853543,
    ]
    assert session.thinking.startswith("**")
    assert session.outcome.usage is None


def test_subagent_sleep_call_with_no_text_before_it() -> None:
    _, session = fold_file(by_name("subagent-sleep.jsonl"))
    kinds = [block.kind for block in session.blocks]
    assert kinds == ["prompt", "tool", "text"]
    assert session.text == "done"


def test_unknownrepo_glob_edit_read_with_connection_notices_and_usage() -> None:
    state, session = fold_file(by_name("unknownrepo"))
    assert calls_of("unknownrepo") == [
        ("glob", "**/app.ts", tools.SUCCEEDED),
        ("edit", "/tmp/cursor-probe/note.txt", tools.SUCCEEDED),
        ("read", "/tmp/cursor-probe/app.ts", tools.SUCCEEDED),
    ]
    glob, edit, read = session.tool_calls
    assert edit.started_line is None and read.started_line is None
    assert (glob.summary, edit.summary, read.summary) == ("1 file", "+1 -0", "2 lines")
    assert [(n.type, n.subtype) for n in state.notices] == [  # type: ignore[attr-defined]
        ("connection", "reconnecting"),
        ("retry", "starting"),
    ]
    assert sum(1 for block in session.blocks if block.kind == NOTICE) == 2
    assert session.outcome.usage == {
        "inputTokens": 115,
        "outputTokens": 18,
        "cacheReadTokens": 19776,
        "cacheWriteTokens": 0,
    }
    assert session.prompt is None
    assert session.permission_mode == "bypassPermissions"
