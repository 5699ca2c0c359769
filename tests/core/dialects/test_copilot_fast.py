"""Copilot CLI's fast path reads text and reasoning deltas straight from their bytes,
and declines every line it might read otherwise than the general path does.

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path, and this test that the fast path really
takes the lines it is meant to.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest

from streamview.core.dialects import copilot_lines, copilot_tools
from streamview.core.dialects.copilot import CopilotTranslator
from streamview.core.fields import iso_ms
from streamview.core.fold_runs import read_stamp
from streamview.core.model import ToolCall
from streamview.core.reader import fold
from streamview.core.state import StreamState

from .fast_taken import assert_fast_line_agrees, said_built, taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "copilot"
FIXTURE = FIXTURES / "fast-lines.jsonl"

TAKEN = {3, 4, 5, 6, 11, 13, 14, 16}
"""Deltas of reasoning and text (non-ASCII, escaped, without an id, naming a model, a
stamp of another length, no stamp, a model that is a number once a model is known: not
read then) and, the model known, the whole message; not a null or numeric text, a data
list, a numeric stamp, a ``true`` arrival stamp, a message id that is a number."""


def test_the_fast_path_takes_deltas_and_declines_the_unusual() -> None:
    assert taken_lines(CopilotTranslator(), FIXTURE.read_bytes()) == TAKEN


WHOLE_TAKEN = {3, 4, 5, 6, 7, 8, 10, 12, 14, 15, 17}
"""Of ``fast-whole.jsonl`` (``test_fast_json.py`` folds it both ways): whole messages
(one naming a model, an empty one, one without a stamp), tool starts (with a parent, an
MCP tool, no call id, arguments that are no object, a numeric stamp) and ends with a
verdict (a success, a refusal, a call never started); not a start whose ``data`` is a
list, an end with no verdict or a string arrival stamp, a numeric message."""


TYPED_TAKEN = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 18, 20, 22, 23, 24, 25, 27, 29, 30}
TYPED_TAKEN |= {32, 34, *range(35, 44), 46, 47, 50, 51}
TYPED_TAKEN -= {29, 43, 46, 47, 51}  # quiet: read fast from the WIDE_AFTER-th on
"""Of ``fast-typed.jsonl``, the model known from the start, read from the bytes: deltas
(escaped backslashes before an ``n``, a unicode escape, ``type`` written last, no
stamp), whole messages (a numeric model, not read then; an empty one), tool starts
(arguments with an integer past 64 bits, a float, a Markdown checklist, none; an MCP
tool; a parent call) and ends (an exit code in a content item and in the text, a
diff, a refusal, an error object, a ``null`` result, ``contents`` of a call never
started, not read; edits counted and built), quiet records (usage counted, a ``null``
usage, data that is a list, a turn's end closing a thought); not a numeric tool name, a
``success`` of ``1``, a result that is a string or whose content is a list, a ``null``
message, an arrival stamp past 64 bits, a second ``type``, a numeric stamp, usage
counts that are a float, a string or a boolean, a type nobody prints."""


def test_fast_line_takes_the_usual_records_once_the_model_is_known() -> None:
    data = (FIXTURES / "fast-typed.jsonl").read_bytes()
    assert taken_lines(CopilotTranslator(), data) == TYPED_TAKEN


@pytest.mark.parametrize("wide_after", [1, copilot_lines.WIDE_AFTER])
@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.jsonl")), ids=lambda path: path.name)
def test_fast_line_gives_what_fast_gives(
    path: Path, wide_after: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each record ``fast_line`` reads from the bytes is the one ``fast`` reads from the
    dict (a call's arguments, kind, description, parent, outcome and payload, the
    times, a quiet record's usage once the wider decoder reads them), and both leave
    the translator alike."""
    monkeypatch.setattr(copilot_lines, "WIDE_AFTER", wide_after)
    data = path.read_bytes()
    assert_fast_line_agrees(CopilotTranslator(), CopilotTranslator(), data, said_built, _state)


def _state(translator: CopilotTranslator) -> dict[str, Any]:
    """A translator's state but its decoder (``fast_line``'s own choice)."""
    return {k: v for k, v in vars(translator).items() if k not in ("_decode", "_quiet_seen")}


def test_fast_takes_whole_messages_and_tool_calls_and_declines_the_unusual() -> None:
    translator = CopilotTranslator()
    taken = set()
    for number, line in enumerate((FIXTURES / "fast-whole.jsonl").read_bytes().splitlines(), 1):
        record = orjson.loads(line)
        if translator.fast(record, number) is not None:
            taken.add(number)
        else:
            record.pop("streamview_recv_ms", None)
            translator.translate(record, number, None)
    assert taken == WHOLE_TAKEN


def _folded(data: bytes) -> list[Any]:
    """Every session's calls, blocks and counts, as a view's (not compact) state has them."""
    state = fold([data], StreamState(track_changes=False), agent="copilot")
    return [
        (
            [msgspec.structs.asdict(call) for call in session.tool_calls],
            [(block.kind, block.line, block.call_index, block.text) for block in session.blocks],
            session.events,
            session.model,
            session.last_time_ms,
        )
        for session in state.sessions
    ] + [state.counts]


@pytest.mark.parametrize(
    "name", ["fast-whole.jsonl", "success-tools.jsonl", "fast-lines.jsonl", "fast-typed.jsonl"]
)
def test_the_fast_path_leaves_the_fold_as_the_general_path_does(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each call's arguments, description, parent, outcome and payload, each block's text,
    the model and the times."""
    data = (FIXTURES / name).read_bytes()
    fast = _folded(data)
    monkeypatch.setattr(CopilotTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(CopilotTranslator, "fast_line", None)
    assert _folded(data) == fast


MODEL_LINES = [
    {"type": "session.start", "data": {"sessionId": "s"}},
    {"type": "assistant.message_delta", "data": {"deltaContent": "a", "chosenModel": 5}},
    {"type": "assistant.message_delta", "data": {"deltaContent": "b", "newModel": ""}},
    {"type": "assistant.reasoning_delta", "data": {"deltaContent": "c", "newModel": "m-1"}},
    {"type": "assistant.message_delta", "data": {"deltaContent": "d", "model": "m-2"}},
    {"type": "assistant.message_delta", "data": {"deltaContent": "e", "model": 5}},
    {"type": "assistant.message_delta", "data": {"deltaContent": 5, "model": "m-3"}},
    {"type": "assistant.message_delta", "data": {"deltaContent": "f", "messageId": 5}},
]


def test_a_delta_s_model_is_read_until_one_is_known(monkeypatch: pytest.MonkeyPatch) -> None:
    """While no model is known a delta's model fields are decoded and checked (a number
    declines the line, an empty one names none); once one is, they are not read, by
    either path: the line is taken whatever their type, and the first model stays."""
    data = b"\n".join(orjson.dumps(record) for record in MODEL_LINES)
    translator = CopilotTranslator()
    assert taken_lines(translator, data) == {3, 4, 5, 6}
    assert translator._model == "m-1"
    slow = CopilotTranslator()
    for number, record in enumerate(MODEL_LINES, 1):
        slow.translate(record, number, None)
    assert slow._model == "m-1"
    fast = _folded(data)
    monkeypatch.setattr(CopilotTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(CopilotTranslator, "fast_line", None)
    assert _folded(data) == fast


STAMPS = [
    "2026-08-03T09:00:03.123Z",
    "2026-08-03T09:00:03.123Z",  # again: from iso_ms's tables
    "2026-08-03T09:00:04.567Z",  # a new rest of the same ten seconds
    "2026-08-03T09:00:04.567z",  # lowercase: no time
    "2026-08-03t09:00:04.567Z",
    "2026-08-03T09:00:04.5671Z",
    "2026-08-03T09:00:04.567+02:00",
    "2026-08-03T09:00:60.000Z",
    "2004-01-10T13:37:04.369Z",  # before 2**40 ms: datetime's float rounds it down
    "2004-01-10T13:37:04.369Z",
    "2038-06-01T00:00:00.001Z",  # after 2**31 s
    "2038-06-01T00:00:00.001Z",
    "2026-08-03T09:00:0x.000Z",
    "",
]


@pytest.mark.parametrize("stamp", STAMPS)
def test_a_delta_s_time_is_the_general_path_s(stamp: str) -> None:
    """The fast path reads a delta's stamp through ``iso_ms``'s tables itself: the same
    time as the general path's event, in the tables or not, of any form."""
    start = {"type": "session.start", "data": {"sessionId": "s"}, "timestamp": stamp}
    delta = {
        "type": "assistant.message_delta",
        "data": {"messageId": "m", "deltaContent": "hi"},
        "timestamp": stamp,
    }
    fast, slow = CopilotTranslator(), CopilotTranslator()
    fast.translate(start, 1, None)
    slow.translate(start, 1, None)
    taken = fast.fast_line(orjson.dumps(delta), 2)
    assert taken is not None
    (event,) = slow.translate(delta, 2, None)
    assert taken[5] == event.timestamp_ms, stamp
    fast.raw_stamps = True  # as --json's fold asks: the str, read where it is kept
    unread = fast.fast_line(orjson.dumps(delta), 3)
    assert unread is not None and unread[5] == stamp
    assert read_stamp(unread)[5] == event.timestamp_ms, stamp


def test_only_a_delta_s_time_comes_unread() -> None:
    """With ``raw_stamps`` a delta's time comes unread, whether or not it names the
    model; a whole message's is read (the fold keeps it at once)."""
    translator = CopilotTranslator()
    translator.translate({"type": "session.start", "data": {"sessionId": "s"}}, 1, None)
    translator.raw_stamps = True
    stamp = "2026-08-03T09:00:03.123Z"
    lines = [
        {"type": "assistant.message_delta", "data": {"deltaContent": "a", "model": "m"}},
        {"type": "assistant.reasoning_delta", "data": {"deltaContent": "b"}},
        {"type": "assistant.message_delta", "data": {"deltaContent": "c"}},
        {"type": "assistant.message", "data": {"content": "abc"}},
    ]
    times = []
    for number, record in enumerate(lines, 2):
        taken = translator.fast_line(orjson.dumps({**record, "timestamp": stamp}), number)
        assert taken is not None
        times.append(taken[5])
    assert times == [stamp, stamp, stamp, iso_ms(stamp)]


EDITS = [
    ("a = 1", "a = 2", None),
    ("a = 1\nb = 2", "c = 3", None),
    ("a\nb\n", "c\nd\ne\n", "File updated."),
    ("a\nb", "b\nc", None),  # a line kept: difflib's diff
    ("a", "a", None),
    ("", "x", None),
    ("x", "", None),
    ("a\r\nb", "c\u2028d", None),
    ("a", "b", "diff --git a/x b/x\n@@ -1 +1 @@\n-a\n+b\n+c"),
    ("a", "b", "changed\n@@ -1 +1 @@\n-a\n+b"),
]


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


@pytest.mark.parametrize(("old", "new", "detailed"), EDITS)
def test_an_edit_counted_ends_the_call_as_its_payload_does(
    old: str, new: str, detailed: str | None
) -> None:
    """An edit's ``+a -r`` counted from its replacement (no diff made) is what the built
    payload's diff says; where the lines share one, or the result has its own diff,
    nothing is counted (the payload is built)."""
    args = copilot_tools.args_of(
        "edit", {"arguments": {"path": "/w/a", "old_str": old, "new_str": new}}
    )

    def build() -> object:
        return copilot_tools.result_payload("edit", args, "done", detailed, lambda: None)

    said = copilot_tools.success_said("edit", args, detailed, build)
    shares = bool(set(old.splitlines()) & set(new.splitlines()))
    counted = old.splitlines() and new.splitlines() and not shares
    if detailed is not None and ("\n@@" in detailed or detailed.startswith("diff")):
        counted = False
    assert (said is not None) == bool(counted)
    if said is not None:
        assert _ended("edit", said) == _ended("edit", build())
        assert _ended("read", said) == _ended("read", build())  # another kind: built


def test_the_wider_decoder_is_made_only_for_a_quiet_record(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The prompt, a session's start and end, a type nobody prints and a mistyped hot
    line keep the usual types' decoder (a run without quiet records does not make the
    wider one); so do quiet records until :data:`WIDE_AFTER` of them (here 2); from
    then on they are read from their bytes too."""
    monkeypatch.setattr(copilot_lines, "WIDE_AFTER", 2)
    lines = (FIXTURES / "fast-typed.jsonl").read_bytes().splitlines()
    translator = CopilotTranslator()
    decoder = translator._decode
    taken_lines(translator, b"\n".join(lines[:28] + lines[48:50] + lines[-1:]))
    assert translator._decode is decoder
    assert taken_lines(translator, lines[28]) == set()  # the first quiet record
    assert translator._decode is decoder
    assert taken_lines(translator, lines[28]) == {1}
    assert translator._decode is not decoder


def test_a_run_of_few_quiet_records_reads_them_the_long_way() -> None:
    """Below :data:`WIDE_AFTER` quiet records every one is declined, with the same
    fold (``test_fast_json`` folds the fixtures both ways)."""
    data = (FIXTURES / "fast-typed.jsonl").read_bytes()
    assert data.count(b"assistant.usage") + 2 < copilot_lines.WIDE_AFTER
    assert 29 not in taken_lines(CopilotTranslator(), data)
