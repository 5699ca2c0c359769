"""Cline's fast path reads a growing answer's next print (``say`` ``text``,
``partial: true``) straight from its bytes, gives what :meth:`fast` gives for the
decoded line, and declines every line it might read otherwise (issue 30.8).

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import msgspec
import orjson
import pytest

import streamview.core.dialects.cline_fast as cline_fast
from streamview.core.decoding import decode_line
from streamview.core.dialects.cline import ClineTranslator
from streamview.core.dialects.lines import translate_decoded
from streamview.core.events import ToolCallEvent
from streamview.core.fast_path import utf8
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.tool_record import event_fields

from .fast_taken import taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
DATA = (FIXTURES / "cline" / "fast-lines.jsonl").read_bytes()

TAKEN = {4, 5, 6, 7, 11, 12, 13, 14, 15}
"""Partial texts in the started session: grown, the same again (nothing new), rewritten,
stamped on arrival, non-ASCII; the final text after the model spoke and an API request
(read from the typed line, not decoded again); not the first (it starts the session),
a ``ts`` that is a string or past 64 bits, a ``partial`` of 1, a text that is a number,
another kind (reasoning, a completion), nor a line whose ``ts`` is not written first
(``fast`` reads that one)."""


def _told(translator: ClineTranslator) -> dict[str, Any]:
    """What a translator holds once it told what ``fast_line`` read last (a copy,
    settled; the ``ts`` of that line aside)."""
    told = copy.deepcopy(translator)
    told.settle()
    held = vars(told)
    del held["_growing_ts"]
    return held


def test_the_fast_path_takes_growing_texts_and_declines_the_unusual() -> None:
    assert taken_lines(ClineTranslator(), DATA) == TAKEN


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    by_bytes, by_dict = ClineTranslator(), ClineTranslator()
    for number, data in enumerate(DATA.splitlines(), 1):
        record = orjson.loads(data)
        from_bytes = by_bytes.fast_line(data, number)
        from_dict = by_dict.fast(record, number)
        if from_bytes is not None:
            assert from_bytes == from_dict, data
        elif from_dict is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(record, number, None)
        else:  # declined what fast took (a ``ts`` not written first)
            by_bytes.fast(record, number)
        assert _told(by_bytes) == _told(by_dict), data


STREAMS = sorted((FIXTURES / "cline").glob("*.jsonl"))


def _folded(data: bytes) -> list[Any]:
    """Every session's blocks, calls and counts, as a view's (not compact) state has them."""
    state = fold([data], StreamState(track_changes=False), agent="cline")
    return [
        (
            [(block.kind, block.line, block.text, block.deltas) for block in session.blocks],
            [msgspec.structs.asdict(call) for call in session.tool_calls],
            session.events,
            session.prompt,
            session.last_time_ms,
        )
        for session in state.sessions
    ] + [state.counts]


@pytest.mark.parametrize("path", STREAMS, ids=lambda path: path.name)
def test_fast_leaves_the_translator_and_the_fold_as_translate_does(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A final text (not ``partial``) is taken once the model spoke, never while it may
    be the person's task: each record ``fast`` takes leaves the translator as
    ``translate`` leaves it, and the fold is the same with the fast path off."""
    data = path.read_bytes()
    fast, general = ClineTranslator(), ClineTranslator()
    for number, line in enumerate(data.splitlines(), 1):
        if fast.fast(orjson.loads(line), number) is None:
            fast.translate(orjson.loads(line), number, None)
        general.translate(orjson.loads(line), number, None)
        assert vars(fast) == vars(general), line
    folded = _folded(data)
    monkeypatch.setattr(ClineTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(ClineTranslator, "fast_line", None)
    assert _folded(data) == folded


def test_fast_takes_a_final_text_after_the_model_spoke_not_the_task_and_a_request() -> None:
    lines = [
        b'{"ts":1000,"type":"say","say":"text","text":"Fix it."}',
        b'{"ts":1001,"type":"say","say":"api_req_started","text":"{}"}',
        b'{"ts":1002,"type":"say","say":"text","text":"Done","partial":true}',
        b'{"ts":1002,"type":"say","say":"text","text":"Done."}',
        b'{"ts":1003,"type":"say","say":"text","text":"Also this.","partial":false}',
        b'{"ts":1004,"type":"say","say":"api_req_started","text":"{\\"tokensIn\\":9}"}',
        b'{"ts":"1005","type":"say","say":"api_req_started","text":"{}"}',
    ]
    translator, taken = ClineTranslator(), []
    for number, line in enumerate(lines, 1):
        hot = translator.fast(orjson.loads(line), number)
        if hot is None:
            translator.translate(orjson.loads(line), number, None)
        taken.append(hot)
    assert taken[:2] == [None, None]
    assert taken[2:] == [
        ("assistant", True, "Done", None, None, 1002, None),
        ("assistant", True, ".", None, None, 1002, None),
        ("assistant", True, "Also this.", None, None, 1003, None),
        ("thinking", "completed", None, None, None, 1004, None),  # its usage kept
        None,  # a ts as a string: translate reads it as a number
    ]
    assert translator._requests[1004] == {"inputTokens": 9}


def test_a_final_text_taken_before_the_model_spoke_leaves_it_silent() -> None:
    """After the task, a final text is the model's: taken, it does not say the model
    spoke (``translate`` does not), so a later text is read as ``translate`` reads it."""
    lines = [
        b'{"ts":1000,"type":"say","say":"task","text":"Fix it."}',
        b'{"ts":1001,"type":"say","say":"text","text":"Looking."}',
        b'{"ts":1002,"type":"say","say":"text","text":"More."}',
    ]
    fast, general = ClineTranslator(), ClineTranslator()
    taken = []
    for number, line in enumerate(lines, 1):
        hot = fast.fast(orjson.loads(line), number)
        if hot is None:
            fast.translate(orjson.loads(line), number, None)
        general.translate(orjson.loads(line), number, None)
        taken.append(hot is not None)
        assert vars(fast) == vars(general), line
    assert taken == [False, False, True]


GROWING = [
    b'{"type":"task_started","taskId":"t1"}',
    b'{"ts":1000,"type":"say","say":"task","text":"Fix it."}',
    b'{"ts":1001,"type":"say","say":"api_req_started","text":"{}"}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"x","o":"y","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"xy","partial":true}',
    b'{"ts":1002,"type":"say","say":"command","text":"ls"}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"xyz","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"xyz\\ud83d\\ude00","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"xyz\\ud83d\\ude00\xc3\xa9","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"a\\\\n\\u00e9\\"xyz\\ud83d\\ude00\xc3\xa9!\xff","partial":true}',
    b'{"ts":1002,"type":"say","say":"command","text":"ls -l"}',
    b'{"ts":1002,"type":"say","say":"text","text":"b","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bc","partial":true}\r',
    b'{"ts":1002,"type":"say","say":"text","text":"bc\x01","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bc","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bc"d","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bcd","partial":true}',
    b'{"ts":1003,"type":"say","say":"text","text":"bcde","partial":true}',
    b'{"ts":1003,"type":"say","say":"text","text":"bcdef","partial":true,"x":1}',
    b'{"ts":1003,"type":"say","say":"text","text":"bcdefg","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bcdX","partial":true}',
    b'{"ts":1002,"type":"say","say":"text","text":"bcdXY","partial":false}',
    b'{"ts":1004,"type":"say","say":"text","text":"z","partial":true,"streamview_recv_ms":5}',
    b'{"ts":1004,"type":"say","say":"text","text":"zz","partial":true,"streamview_recv_ms":5}',
]
"""A growing answer's prints: added to (after an escaped backslash, an ``n``; a unicode
escape, an escaped quote, a surrogate pair, UTF-8), the same again, another field after
the text, something else said between two prints, a byte that is not UTF-8 (the fold
reads that line the general way), rewritten after a command, a ``\\r``, a control
character or a bare quote in the text (not JSON), another ``ts`` and back, a final
print, an arrival stamp."""

ADDED = {5, 6, 7, 12, 13}
"""The prints ``fast_line`` reads from their new end: each other line from the first
print on is decoded whole (:class:`~.cline_fast.Say`), as one that does not only add
text to a plain print just before it, but the one that is not UTF-8 (line 14)."""


def test_a_print_that_adds_to_the_last_is_read_from_its_new_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the prints that cannot have their new end read alone are decoded whole;
    the fold is the same with the fast path off, and so is each record and the
    translator once told."""
    whole: list[int] = []
    decode = cline_fast.decode_say

    def counted(data: bytes) -> Any:
        whole.append(number)
        return decode(data)

    monkeypatch.setattr(cline_fast, "decode_say", counted)
    by_bytes, by_dict = ClineTranslator(), ClineTranslator()
    for number, data in enumerate(GROWING, 1):
        if not utf8(data):  # as the fold reads it
            by_bytes.translate(decode_line(data, number)[0], number, None)
            by_dict.translate(decode_line(data, number)[0], number, None)
            continue
        try:
            record = orjson.loads(data)
        except orjson.JSONDecodeError:
            assert by_bytes.fast_line(data, number) is None, data
            continue
        from_bytes = by_bytes.fast_line(data, number)
        from_dict = by_dict.fast(record, number)
        if from_bytes is not None:
            assert from_bytes == from_dict, data
        elif from_dict is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(orjson.loads(data), number, None)
        else:
            by_bytes.fast(record, number)
        assert _told(by_bytes) == _told(by_dict), data
    assert set(whole) == set(range(4, len(GROWING) + 1)) - ADDED - {14}
    data = b"\n".join(GROWING)
    folded = _folded(data)
    monkeypatch.setattr(ClineTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(ClineTranslator, "fast_line", None)
    assert _folded(data) == folded


CALLS = [
    b'{"type":"task_started","taskId":"t1"}',
    b'{"ts":1000,"type":"say","say":"task","text":"Fix it."}',
    b'{"ts":1001,"type":"say","say":"api_req_started","text":"{}"}',
    b'{"ts":1002,"type":"say","say":"command_output","text":"no command open"}',
    b'{"ts":1003,"type":"say","say":"command","text":"pytest -q","partial":true}',
    b'{"ts":1003,"type":"say","say":"command","text":"pytest -q"}',
    b'{"ts":1004,"type":"say","say":"command_output","text":"1 passed"}',
    b'{"ts":1005,"type":"say","say":"command_output","text":"\\\\n done"}',
    b'{"ts":1006,"type":"say","say":"tool","text":"{\\"tool\\":\\"readFile\\",\\"path\\":\\"a.py\\"}",'
    b'"partial":true}',
    b'{"ts":1006,"type":"say","say":"tool","text":"{\\"tool\\":\\"readFile\\",\\"path\\":\\"a.py\\",'
    b'\\"content\\":\\"/w/a.py\\"}"}',
    b'{"ts":1007,"type":"say","say":"command_output","text":"after a tool: no command"}',
    b'{"ts":1008,"type":"say","say":"tool","text":"not an object"}',
    b'{"ts":1009,"type":"say","say":"tool","text":"[1]"}',
    b'{"ts":"1010","type":"say","say":"command","text":"ls"}',
    b'{"ts":1011,"type":"say","say":"command","text":7}',
    b'{"ts":1012,"type":"say","say":"command","text":"ls","streamview_recv_ms":1.5}',
    b'{"ts":1013,"type":"say","say":"command","text":"ls","streamview_recv_ms":9}',
    b'{"ts":1014,"type":"say","say":"command_output","text":"a"}',
    b'{"ts":1015,"type":"say","say":"text","text":"Done.","partial":true}',
    b'{"ts":1016,"type":"say","say":"command_output","text":"after a text: no command"}',
]
"""Commands and tool calls: an output with no command open (at first, after a tool
call, after a text), a command still being written then whole, two outputs (one
starting with an escaped backslash), a tool call being written then done, tools that
say nothing, a ``ts`` that is a string, a text that is a number, arrival stamps."""

CALLS_TAKEN = {5, 6, 7, 8, 9, 10, 17, 18}


def test_commands_and_tool_calls_are_taken_as_translate_reads_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each call ``fast`` takes is the fields of the event ``translate`` gives, and
    leaves the same translator; the fold is the same with the fast path off."""
    fast, general = ClineTranslator(), ClineTranslator()
    taken = set()
    for number, line in enumerate(CALLS, 1):
        hot = fast.fast(orjson.loads(line), number)
        events = translate_decoded(general, orjson.loads(line), line, number)
        if hot is None:
            translate_decoded(fast, orjson.loads(line), line, number)
        elif hot[0] == "tool_call":
            taken.add(number)
            (event,) = events
            assert isinstance(event, ToolCallEvent), line
            assert hot[1] == ("completed" if event.completed else "started"), line
            assert hot[2] == event_fields(event), line
            assert hot[4:] == (event.session_id, event.timestamp_ms, event.recv_ms), line
        assert vars(fast) == vars(general), line
    assert taken == CALLS_TAKEN
    data = b"\n".join(CALLS)
    folded = _folded(data)
    monkeypatch.setattr(ClineTranslator, "fast", lambda *_: None)
    monkeypatch.setattr(ClineTranslator, "fast_line", None)
    assert _folded(data) == folded


NEW_ENDS = [
    (b"cd", "cd"),
    (b"c\xc3\xa9", "c\u00e9"),  # UTF-8
    (b"\xe2\x80\xa8", "\u2028"),  # valid JSON, not printable: read as JSON
    (b"\x7f", "\x7f"),  # DEL: valid JSON unescaped, not printable
    (b"\\n", "\n"),  # an escape
    (b"\\\\", "\\"),
    (b"\\u00e9", "\u00e9"),
    (b'\\"', '"'),
    (b"", None),  # nothing added: the same print again
    (b"\t", False),  # a control character: not JSON
    (b"\x00", False),
    (b'"', False),  # a bare quote: not JSON
    (b"\\", False),  # half an escape
    (b"\\x", False),
    (b"\xc3", False),  # half a character (the fold reads it the general way)
]
"""What a print adds to the last one, and what it adds read as JSON (``False``: the line
is no JSON; ``None``: nothing added)."""


@pytest.mark.parametrize(("end", "added"), NEW_ENDS, ids=repr)
def test_a_new_end_is_read_as_json_reads_it(end: bytes, added: str | bool | None) -> None:
    """The new end of a print is taken as it is only where JSON would read it so (no
    escape, quote or control character); any other is read as JSON, or declined."""
    head = b'{"ts":7,"type":"say","say":"text","text":"ab'
    lines = [
        b'{"type":"task_started","taskId":"t1"}',
        b'{"ts":5,"type":"say","say":"task","text":"Fix it."}',
        b'{"ts":6,"type":"say","say":"api_req_started","text":"{}"}',
        head + b'","partial":true}',
    ]
    translator = ClineTranslator()
    for number, data in enumerate(lines, 1):
        if translator.fast_line(data, number) is None:
            translator.translate(orjson.loads(data), number, None)
    assert translator._growing is not None  # the next print may be read from its end
    hot = translator.fast_line(head + end + b'","partial":true}', 5)
    if added is False:
        assert hot is None
    elif added is None:
        assert hot == ("thinking", "completed", None, None, "t1", 7, None)
    else:
        assert hot == ("assistant", True, added, None, "t1", 7, None)


def test_a_call_read_from_its_typed_line_is_what_fast_reads_from_the_record() -> None:
    """Commands, outputs (with and without a command open), tools being written and
    done, tools that say nothing, an API request, a ``ts`` that is a string, a text that
    is a number, an arrival that is a float: ``fast_line`` gives what ``fast`` gives for
    the decoded line (the same lines taken, :data:`CALLS_TAKEN` and the output after the
    last command), and leaves the same translator, where it decoded the line once, typed."""
    by_bytes, by_dict = ClineTranslator(), ClineTranslator()
    taken = set()
    for number, data in enumerate(CALLS, 1):
        record = orjson.loads(data)
        from_bytes = by_bytes.fast_line(data, number)
        assert from_bytes == by_dict.fast(record, number), data
        if from_bytes is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(record, number, None)
        else:
            taken.add(number)
        assert _told(by_bytes) == _told(by_dict), data
    assert taken == CALLS_TAKEN | {19}
