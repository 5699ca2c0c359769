"""Which agent a stream is, from its first records: each agent, noise first, forcing.

Record shapes: Cursor's from the format guide; Claude Code's from
tests/fixtures/dialects/claude (see its SOURCES.md); Codex's ``thread.started`` and
Gemini's ``init`` as the issue (and the CLIs' docs) describe their first records.
"""

from __future__ import annotations

import itertools
from typing import Any

import orjson
import pytest

from streamview.core.dialects import DEFAULT, DETECT_WINDOW, by_name, decide, detect
from streamview.core.events import SessionStarted
from streamview.core.reader import EventReader, fold
from streamview.core.recognise import SNIFF_BYTES, recognise, sniff
from streamview.core.state import StreamState

from ..helpers import init, stream, user
from .fixtures import claude

CURSOR_INIT: dict[str, Any] = orjson.loads(init())
CLAUDE_INIT: dict[str, Any] = {
    "type": "system",
    "subtype": "init",
    "cwd": "/w",
    "session_id": "s",
    "tools": ["Bash"],
    "mcp_servers": [],
    "model": "claude-sonnet-4-5",
    "permissionMode": "default",
    "apiKeySource": "none",
}
CLAUDE_TOOL_USE = {
    "type": "assistant",
    "message": {"content": [{"type": "tool_use", "id": "t", "name": "Bash", "input": {}}]},
}
NOISE: list[Any] = [None, {"type": "system", "subtype": "mystery"}, {"no": "type"}, [1]]


def test_cursor_init_is_cursor() -> None:
    assert detect([CURSOR_INIT]).name == "cursor"


def test_claude_init_is_claude_although_it_has_cursors_fields_too() -> None:
    """Claude Code's init also has apiKeySource and permissionMode; its tools decide."""
    assert detect([CLAUDE_INIT]).name == "claude"


def test_a_claude_tool_use_without_an_init_is_claude() -> None:
    assert detect([CLAUDE_TOOL_USE]).name == "claude"


def test_claude_codes_own_records_decide_for_it_before_its_init() -> None:
    """Hooks run first: a stream whose first records are hooks (or cut before its init)
    is recognised from them. Cursor's own ``task_notification`` decides nothing."""
    hook = {"type": "system", "subtype": "hook_started", "hook_name": "SessionStart:startup"}
    assert detect([hook]).name == "claude"
    assert detect([{"type": "rate_limit_event", "rate_limit_info": {}}]).name == "claude"
    assert decide({"type": "system", "subtype": "task_notification"}) is None


def test_a_cursor_tool_call_record_is_cursor() -> None:
    record = {"type": "tool_call", "subtype": "started", "call_id": "c", "tool_call": {}}
    assert detect([record]).name == "cursor"


@pytest.mark.parametrize("first", [CURSOR_INIT, CLAUDE_INIT], ids=["cursor", "claude"])
def test_noise_first_does_not_decide(first: dict[str, Any]) -> None:
    expected = "claude" if first is CLAUDE_INIT else "cursor"
    assert detect([*NOISE, first]).name == expected


def test_a_stream_nobody_recognises_is_cursors() -> None:
    assert detect([{"type": "mystery"}] * 3) is DEFAULT
    assert detect([]) is DEFAULT


def test_detection_looks_only_at_the_first_records() -> None:
    late = [{"type": "mystery"}] * DETECT_WINDOW + [CLAUDE_INIT]
    assert detect(late) is DEFAULT


def test_a_plain_message_cursor_reads_decides_at_once() -> None:
    """A live stream is not held back by a record no dialect claims but Cursor reads."""
    assert decide({"type": "user", "message": {"content": "hi"}}) is DEFAULT
    assert decide({"type": "mystery"}) is None


def test_codex_and_gemini_first_records_are_not_taken_for_cursor_or_claude() -> None:
    """Until their dialects are registered, their first records decide nothing."""
    for record in ({"type": "thread.started", "thread_id": "t"}, {"type": "init", "model": "g"}):
        found = decide(record)
        assert found is None or found.name in ("codex", "gemini")


def test_the_reader_shows_bad_lines_at_once_and_holds_unknown_records() -> None:
    """A warning line reads the same in every dialect; an unknown record may not."""
    reader = EventReader()
    (bad,) = reader.feed(b"not json\n")
    assert bad.line == 1 and reader.dialect is None
    assert reader.feed(orjson.dumps({"type": "mystery"}) + b"\nnot json either\n") == []
    events = reader.feed(orjson.dumps(CLAUDE_INIT) + b"\n")
    assert reader.dialect is not None and reader.dialect.name == "claude"
    # The agent is named before the first held record (not an init: it cannot name it).
    assert [event.line for event in events] == [2, 2, 3, 4]
    assert isinstance(events[0], SessionStarted) and events[0].inferred
    assert events[0].agent == "claude"


def test_the_reader_gives_up_after_the_window_and_reads_as_cursor() -> None:
    reader = EventReader()
    data = b"".join(b'{"type":"mystery","n":%d}\n' % n for n in range(DETECT_WINDOW))
    events = reader.feed(data)
    assert reader.dialect is DEFAULT
    assert len(events) == DETECT_WINDOW


def test_the_reader_releases_held_lines_at_the_end() -> None:
    reader = EventReader()
    assert reader.feed(b'{"type":"mystery"}\n') == []
    events = reader.finish()
    assert reader.dialect is DEFAULT and len(events) == 1


def test_forcing_a_dialect_reads_a_stream_as_it() -> None:
    """``--agent cursor`` on a Claude stream: Cursor's reading of Claude's records."""
    data = claude("success-tools.jsonl")
    as_claude = fold([data])
    as_cursor = fold([data], agent="cursor")
    assert as_claude.sessions[0].agent == "claude"
    assert as_claude.sessions[0].tool_calls
    assert as_cursor.sessions[0].agent == "cursor"
    assert not as_cursor.sessions[0].tool_calls  # Cursor has no tool_use blocks
    reader = EventReader(agent="claude")
    assert reader.dialect is by_name("claude")


def test_auto_is_detection() -> None:
    data = stream(user("hi"))
    assert fold([data], agent="auto").sessions[0].prompt == "hi"
    assert EventReader(agent="auto").dialect is None


def test_sniff_gives_every_chunk_back() -> None:
    data = claude("noise-and-unknown.jsonl")
    chunks = [data[i : i + 5] for i in range(0, len(data), 5)]
    dialect, again = sniff(iter(chunks))
    assert dialect.name == "claude"
    assert b"".join(again) == data


def test_an_empty_input_folds_to_nothing() -> None:
    state = fold([b""], StreamState(track_changes=False))
    assert state.counts.total == 0 and not state.sessions


def test_a_whole_file_in_one_chunk_past_the_sniff_limit_is_recognised() -> None:
    """``streamview runs`` folds a recording of up to 64 MB read in one piece: past
    :data:`SNIFF_BYTES` its first lines still say whose it is (it was read as Cursor's,
    so a Claude run's outcome was not found)."""
    first = orjson.dumps(CLAUDE_INIT) + b"\n"
    filler = orjson.dumps({"type": "user", "message": {"content": "x" * 4000}}) + b"\n"
    data = first + filler * (SNIFF_BYTES // len(filler) + 2)
    assert len(data) > SNIFF_BYTES
    found, rest = recognise([data])
    assert found is by_name("claude")
    assert b"".join(rest) == data


def test_a_line_longer_than_the_sniff_limit_ends_the_looking() -> None:
    """A first line that never ends: past :data:`SNIFF_BYTES` held, the default is
    taken and every byte is handed on."""
    pieces = [b'{"type": "' + b"x" * (1 << 20) for _ in range(SNIFF_BYTES // (1 << 20) + 2)]
    more = iter([b"never read by the looking"])
    found, rest = recognise(itertools.chain(pieces, more))
    assert found is DEFAULT
    assert b"".join(rest) == b"".join(pieces) + b"never read by the looking"
