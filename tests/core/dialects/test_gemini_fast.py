"""Gemini CLI's fast path reads a call's start and its successful end without building
their events (``GeminiTranslator.fast``), and an edit's result without its diff
(``gemini_tools.success_said``): the fold, the views' state included, is what the
general path gives."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest

from streamview.core.dialects.gemini import GeminiTranslator
from streamview.core.dialects.gemini_tools import success_payload, success_said
from streamview.core.model import ToolCall
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.tools import Said

from ..test_fast_fold import assert_same_fold
from .fast_taken import assert_fast_line_agrees

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "gemini"
WITH_TOOLS = [
    "success-every-tool.jsonl",
    "success-tools.jsonl",
    "tool-error-and-policy-denial.jsonl",
    "real-shell-echo.jsonl",
    "real-oneshot-web-search.jsonl",
    "errors.jsonl",
]


def _calls(data: bytes) -> list[Any]:
    """Every session's calls, blocks and counts, as a view's (not compact) state has them."""
    state = fold([data], StreamState(track_changes=False))
    return [
        (
            [msgspec.structs.asdict(call) for call in session.tool_calls],
            [(block.kind, block.line, block.call_index) for block in session.blocks],
            session.events,
            session.last_time_ms,
        )
        for session in state.sessions
    ] + [state.counts]


@pytest.mark.parametrize("name", WITH_TOOLS)
def test_the_fast_path_leaves_every_call_as_the_general_path_does(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Arguments, target, description, status, summary, numbers and lines of each call."""
    data = (FIXTURES / name).read_bytes()
    taken: list[str] = []
    fast_of = GeminiTranslator.fast

    def noted(translator: GeminiTranslator, record: Any, line: int) -> Any:
        hot = fast_of(translator, record, line)
        if hot is not None and hot[0] == "tool_call":
            taken.append(hot[1])
        return hot

    monkeypatch.setattr(GeminiTranslator, "fast", noted)
    fast = _calls(data)
    assert "started" in taken  # the fast path read the calls
    monkeypatch.setattr(GeminiTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(GeminiTranslator, "fast_line", None)
    assert _calls(data) == fast


def test_a_start_and_a_successful_end_are_taken_and_a_failure_is_not() -> None:
    """A result the fast path declines leaves the call open for the general path."""
    translator = GeminiTranslator()
    taken = {}
    for number, line in enumerate(
        (FIXTURES / "tool-error-and-policy-denial.jsonl").read_bytes().splitlines(), 1
    ):
        record = orjson.loads(line)
        kind = record.get("type")
        if kind not in ("tool_use", "tool_result"):
            translator.translate(record, number, None)
            continue
        calls = dict(translator._calls)
        hot = translator.fast(record, number)
        taken[number] = hot is not None
        if hot is None:
            assert translator._calls == calls  # unchanged: read again the long way
            translator.translate(record, number, None)
        else:
            assert hot[:2] == ("tool_call", "started" if kind == "tool_use" else "completed")
    assert any(taken.values()) and not all(taken.values())


CASES = [
    ({"path": "/w/a.py", "old_string": "return None", "new_string": "return []"}, "Edited."),
    ({"path": "/w/a.py", "old_string": "a\nb", "new_string": "c\nd\ne"}, ""),
    ({"old_string": "x", "new_string": "y"}, "Successfully modified file"),
]


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def test_an_edit_said_ends_the_call_as_its_payload_does() -> None:
    """Of its own kind, and of another (a call id used again: the payload is built);
    an edit whose texts share a line, or that has none, is built as before."""
    for args, output in CASES:
        said = success_said("edit", args, output)
        assert isinstance(said, Said)
        built = success_payload("edit", args, output)
        for kind in ("edit", "task"):
            assert _ended(kind, said) == _ended(kind, built), args
    shared = {"path": "/w/a.py", "old_string": "x\ny", "new_string": "x\nz"}  # difflib's
    assert success_said("edit", shared, "") is None
    assert success_said("edit", {"instruction": "fix it"}, "") is None
    assert success_said("edit", {"old_string": "", "new_string": "y"}, "") is None
    assert success_said("grep", {"pattern": "x"}, "Found 1 match") is None


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Found 3 matching file(s)",
        "found 1 file\nsrc/a.py",
        "Found 12 files",
        "Found \u0663 files",
        "Found  3 files",
        "No files found",
        "src/a.py\nsrc/b.py",
    ],
)
def test_a_glob_said_ends_the_call_as_its_payload_does(text: str) -> None:
    """A glob is counted on the fast path as its built payload's summary counts it:
    the files a ``Found N`` line says, else no summary."""
    args = {"globPattern": "*.py"}
    said = success_said("glob", args, text)
    built = success_payload("glob", args, text)
    assert isinstance(said, Said)
    assert said.build() == built
    for kind in ("glob", "task"):
        assert _ended(kind, said) == _ended(kind, built)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "text",
        "a\nb\n",
        "a\r\nb",
        "\n",
        "é\u2028ü\n\n",
        "Read lines 1-40 of 120",
        "read all 3 files",
        "Read image",
        "Reading the file\nline 2",
    ],
)
def test_a_read_said_ends_the_call_as_its_payload_does(text: str) -> None:
    """A read whose text is the file's content is counted on the fast path (its lines,
    as the built payload's summary counts them); a display line or nothing is built."""
    args = {"path": "/w/a.py"}
    said = success_said("read", args, text)
    built = success_payload("read", args, text)
    assert (said is None) == ("content" not in built)
    if said is None:
        return
    assert said.build() == built
    for kind in ("read", "task"):
        assert _ended(kind, said) == _ended(kind, built)


_STAMP = '"timestamp":"2026-11-20T10:00:01.250Z"'
MESSAGES = {
    "a delta": '{"type":"message",%s,"role":"assistant","content":"Hel","delta":true}',
    "whole": '{"type":"message",%s,"role":"assistant","content":"Hello"}',
    "delta false": '{"type":"message",%s,"role":"assistant","content":"a","delta":false}',
    "delta a string": '{"type":"message",%s,"role":"assistant","content":"a","delta":"true"}',
    "escapes": '{"type":"message",%s,"role":"assistant","content":"a\\\\nb \\"q\\" caf\\u00e9"}',
    "a prompt": '{"type":"message",%s,"role":"user","content":"hi"}',
    "role null": '{"type":"message",%s,"role":null,"content":"hi"}',
    "no role": '{"type":"message",%s,"content":"hi","delta":true}',
    "content a number": '{"type":"message",%s,"role":"assistant","content":3,"delta":true}',
    "content null": '{"type":"message",%s,"role":"assistant","content":null,"delta":true}',
    "no content": '{"type":"message",%s,"role":"assistant","delta":true}',
    "another type": '{"type":"messages",%s,"role":"assistant","content":"a","delta":true}',
    "type twice": '{"type":"message",%s,"role":"assistant","content":"a","type":"init"}',
    "role twice": '{"type":"message",%s,"role":"assistant","content":"a","role":"user"}',
    "arrival time": '{"type":"message",%s,"role":"assistant","content":"a",'
    '"streamview_recv_ms":1789600000000}',
    "arrival time of text": '{"type":"message",%s,"role":"assistant","content":"a",'
    '"streamview_recv_ms":"soon"}',
}


@pytest.mark.parametrize("name", MESSAGES)
@pytest.mark.parametrize("stamp", [_STAMP, '"timestamp":null', '"timestamp":17', '"x":1'])
def test_a_message_line_reads_as_its_dict_and_folds_as_its_events(name: str, stamp: str) -> None:
    """``fast_line`` gives what ``fast`` gives for the decoded line, or declines it; the
    fold of a run with it is the event-by-event fold's."""
    init = b'{"type":"init","timestamp":"2026-11-20T10:00:00.000Z","session_id":"s","model":"m"}'
    before = (MESSAGES["a delta"] % _STAMP).encode()
    data = b"\n".join([init, before, (MESSAGES[name] % stamp).encode(), before]) + b"\n"

    def kept(translator: GeminiTranslator) -> dict[str, Any]:
        return {k: v for k, v in vars(translator).items() if k not in ("_stamp", "_stamp_ms")}

    assert_fast_line_agrees(GeminiTranslator(), GeminiTranslator(), data, lambda r: r, kept)
    assert_same_fold(data)
    if name == "a delta" and stamp == _STAMP:
        assert GeminiTranslator().fast_line(data.splitlines()[2], 3) is not None
