"""``--events`` reads a multi-MB line in about its own size of memory (issue 30.8).

The generated bench files hold 3.3 MB tool calls (an edit with both file contents):
``orjson`` copied such a line into a buffer of its own before building its objects, and
the framer joined a line cut between reads into a copy of it. Memory is traced in
process (``tracemalloc``), not timed. What a long line decodes to is ``orjson``'s value
whichever decoder read it (:func:`~streamview.core.fast_path.loads_long`).
"""

from __future__ import annotations

import tracemalloc

import orjson
import pytest

from streamview.core.event_stream import EventStream
from streamview.core.fast_path import loads_long
from streamview.core.framing import LEND_FROM, LineFramer
from streamview.fronts.events_api import to_json_lines
from tests.cli.helpers import init_record, ndjson, result_record, tool_record, user_record

CONTENT = "".join(f"ZONES[{n}] = ('Area/City{n}', {n * 60})\n" for n in range(30_000))
"""About 1 MB of a generated Python file."""
READ = 1 << 16
"""Bytes per chunk, as a pipe gives them: the long line spans many."""


def long_edit() -> tuple[bytes, bytes, bytes]:
    """The stream's head, the completed edit's line (about 3 MB), and its tail."""
    args = {"path": "src/zones.py", "streamContent": CONTENT}
    result = {
        "success": {
            "path": "src/zones.py",
            "linesAdded": 1,
            "linesRemoved": 1,
            "diffString": "-ZONES[0]\n+ZONES[0]\n",
            "beforeFullFileContent": CONTENT,
            "afterFullFileContent": CONTENT.replace("City0'", "Town0'"),
        }
    }
    head = ndjson(
        init_record(), user_record("regenerate"), tool_record("started", "c1", "edit", args)
    )
    line = ndjson(tool_record("completed", "c1", "edit", args, result))
    return head, line, ndjson(result_record("done"))


def told(stream: EventStream, data: bytes) -> list[bytes]:
    """The ``--events`` lines of ``data`` fed in pipe-sized reads."""
    out: list[bytes] = []
    for start in range(0, len(data), READ):
        out.append(to_json_lines(stream.feed(data[start : start + READ])))
    return out


def test_a_long_tool_call_is_told_in_a_few_times_its_size() -> None:
    """The line itself and its decoded strings, not a copy of each besides (before:
    about 14 times the line's size traced, most of it ``orjson``'s buffer)."""
    head, line, tail = long_edit()
    assert len(line) > 3_000_000
    stream = EventStream()
    lines = told(stream, head)
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        lines += told(stream, line)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    lines += told(stream, tail)
    lines.append(to_json_lines([*stream.finish(), stream.end()]))
    assert peak < 3 * len(line), f"{peak / len(line):.1f} times the line's size"
    ended = [orjson.loads(event) for event in b"".join(lines).splitlines()]
    end = next(event for event in ended if event["type"] == "tool.end")
    assert (end["kind"], end["target"], end["status"], end["summary"]) == (
        "edit",
        "src/zones.py",
        "succeeded",
        "+1 -1",
    )
    assert ended == [orjson.loads(event) for event in everything_at_once(head + line + tail)]


def everything_at_once(data: bytes) -> list[bytes]:
    """The ``--events`` lines of ``data`` fed in one chunk (nothing lent, orjson only)."""
    stream = EventStream()
    body = to_json_lines([*stream.feed(data), *stream.finish(), stream.end()])
    return body.splitlines()


def test_the_framer_lends_a_long_line_only_when_asked() -> None:
    """``split_lending`` gives the buffer of a line held across reads away; ``split``
    gives bytes; both give the same line."""
    line = b"x" * (LEND_FROM * 3)
    for lending in (True, False):
        framer = LineFramer()
        split = framer.split_lending if lending else framer.split
        pieces = [
            piece
            for start in range(0, len(line), READ)
            for piece in split(line[start : start + READ])
        ]
        assert pieces == []
        (whole,) = split(b"\nnext")
        assert whole == line and (whole.__class__ is bytearray) is lending
        assert framer.split(b"\n") == [b"next"]
        assert framer.lines_seen == 2


@pytest.mark.parametrize(
    "data",
    [
        b'{"a":' + b" " * (1 << 20) + b'"long"}',
        b'{"big":123456789012345678901234567890,"pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"neg":-9223372036854775809,"pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"max":18446744073709551615,"pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"a":' + b"[" * 1100 + b"]" * 1100 + b',"pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"bad":"\xff","pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"surrogate":"\\ud800","pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"dup":1,"dup":[2.5,-0.0,1e300],"pad":"' + b"p" * (1 << 20) + b'"}',
        b'{"cut":"' + b"p" * (1 << 20),
    ],
    ids=[
        "spaces",
        "wide-int",
        "negative-wide",
        "u64-max",
        "deep",
        "bad-utf8",
        "lone",
        "dup",
        "cut",
    ],
)
def test_a_long_line_decodes_to_what_orjson_gives(data: bytes) -> None:
    """The same value, or the same error, as ``orjson.loads``."""
    try:
        expected = orjson.loads(data)
    except orjson.JSONDecodeError as problem:
        with pytest.raises(orjson.JSONDecodeError) as raised:
            loads_long(data)
        assert str(raised.value) == str(problem)
        return
    value = loads_long(data)
    assert value == expected and list(value) == list(expected)
    assert [type(item) for item in value.values()] == [type(item) for item in expected.values()]


def test_a_running_call_lets_go_of_its_arguments_once_its_start_is_told() -> None:
    """An edit's start holds its whole file (1 MB here): once ``tool.start`` told its
    target, the call keeps none of it while it runs, so a long completed line is not
    read beside it; a call whose target is not known yet keeps its arguments."""
    head, line, tail = long_edit()
    unnamed = ndjson(tool_record("started", "c2", "edit", {"streamContent": "x"}))
    stream = EventStream()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        lines = told(stream, head + unnamed)
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    calls = stream.state.sessions[-1].tool_calls
    assert [call.target for call in calls] == ["src/zones.py", None]
    assert [call.args for call in calls] == [{}, {"streamContent": "x"}]
    assert held < len(CONTENT) // 4, f"{held} bytes held after the start"
    lines += told(stream, line + tail)
    lines.append(to_json_lines([*stream.finish(), stream.end()]))
    whole = everything_at_once(head + unnamed + line + tail)
    assert b"".join(lines).splitlines() == whole
