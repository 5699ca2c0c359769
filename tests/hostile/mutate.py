"""Mutations of real captures, shared by the fuzz tests and ``bench/reliability.py``.

A mutation takes the lines of a capture and a random generator and returns new lines.
Each one models something that happens to real streams: a byte flipped in transit, a
producer killed mid-line, lines duplicated or reordered by a broken pipe or a bad merge,
hostile text placed inside a JSON string, records of a shape nobody has seen.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import orjson

from .corpus import CORPUS

Lines = list[bytes]


def _pick(rng: random.Random, lines: Lines) -> int:
    return rng.randrange(len(lines)) if lines else 0


def flip_byte(lines: Lines, rng: random.Random) -> Lines:
    """Replace one byte of one line with a random byte."""
    if not lines:
        return lines
    n = _pick(rng, lines)
    line = bytearray(lines[n])
    if line:
        line[rng.randrange(len(line))] = rng.randrange(256)
    return [*lines[:n], bytes(line), *lines[n + 1 :]]


def cut_line(lines: Lines, rng: random.Random) -> Lines:
    """Cut one line short, as a producer killed mid-write leaves it."""
    if not lines:
        return lines
    n = _pick(rng, lines)
    line = lines[n]
    return [*lines[:n], line[: rng.randrange(len(line) + 1)], *lines[n + 1 :]]


def truncate_stream(lines: Lines, rng: random.Random) -> Lines:
    """Stop the stream anywhere, possibly mid-line (the last line then has no newline)."""
    data = b"\n".join(lines)
    return data[: rng.randrange(len(data) + 1)].split(b"\n")


def duplicate_line(lines: Lines, rng: random.Random) -> Lines:
    """Repeat one line (a started twice, a result twice)."""
    if not lines:
        return lines
    n = _pick(rng, lines)
    return [*lines[: n + 1], lines[n], *lines[n + 1 :]]


def delete_line(lines: Lines, rng: random.Random) -> Lines:
    """Lose one line (a completed without its started, an init that never came)."""
    if not lines:
        return lines
    n = _pick(rng, lines)
    return [*lines[:n], *lines[n + 1 :]]


def swap_lines(lines: Lines, rng: random.Random) -> Lines:
    """Exchange two lines: events out of order."""
    if len(lines) < 2:
        return lines
    a, b = rng.sample(range(len(lines)), 2)
    out = list(lines)
    out[a], out[b] = out[b], out[a]
    return out


def shuffle_lines(lines: Lines, rng: random.Random) -> Lines:
    """Any order at all."""
    out = list(lines)
    rng.shuffle(out)
    return out


def _strings(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    if isinstance(value, str):
        found.append(path)
    elif isinstance(value, dict):
        for key, item in value.items():
            found.extend(_strings(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.extend(_strings(item, (*path, index)))
    return found


def _set(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    value[path[0]] = _set(value[path[0]], path[1:], new)
    return value


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = value[key]
    return value


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=True).encode()


def _decode(line: bytes) -> Any:
    try:
        return orjson.loads(line)
    except orjson.JSONDecodeError:
        return None


def inject_sequence(lines: Lines, rng: random.Random) -> Lines:
    """Put a hostile sequence inside one JSON string value of one line."""
    candidates = [n for n, line in enumerate(lines) if isinstance(_decode(line), dict)]
    if not candidates:
        return lines
    n = rng.choice(candidates)
    record = _decode(lines[n])
    paths = _strings(record)
    if not paths:
        return lines
    path = rng.choice(paths)
    text = _get(record, path)
    at = rng.randrange(len(text) + 1)
    sequence = rng.choice(CORPUS).text
    record = _set(record, path, text[:at] + sequence + text[at:])
    return [*lines[:n], _dumps(record), *lines[n + 1 :]]


def retype_value(lines: Lines, rng: random.Random) -> Lines:
    """Give one key of one record a value of the wrong type (a list for a string...)."""
    candidates = [n for n, line in enumerate(lines) if isinstance(_decode(line), dict)]
    if not candidates:
        return lines
    n = rng.choice(candidates)
    record = _decode(lines[n])

    def walk(value: Any) -> list[tuple[Any, ...]]:
        paths: list[tuple[Any, ...]] = []
        stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
        while stack:
            node, path = stack.pop()
            if path:
                paths.append(path)
            if isinstance(node, dict):
                stack.extend((v, (*path, k)) for k, v in node.items())
            elif isinstance(node, list):
                stack.extend((v, (*path, i)) for i, v in enumerate(node))
        return paths

    paths = walk(record)
    if not paths:
        return lines
    path = rng.choice(paths)
    new: Any = rng.choice(
        [None, True, 0, -1, 2**70, 1.5e308, "", "x", [], [1, "a"], {}, {"a": {}}, "\ud800"]
    )
    record = _set(record, path, new)
    return [*lines[:n], _dumps(record), *lines[n + 1 :]]


def deep_nesting(lines: Lines, rng: random.Random) -> Lines:
    """Insert a record nested deeper than JSON libraries like."""
    depth = rng.choice([100, 300, 1100, 5000])
    inner = b"[" * depth + b"]" * depth
    kind = rng.choice([b'"assistant"', b'"tool_call"', b"1", b'"nope"'])
    line = b'{"type":' + kind + b',"x":' + inner + b"}"
    n = _pick(rng, lines)
    return [*lines[:n], line, *lines[n:]]


def random_line(lines: Lines, rng: random.Random) -> Lines:
    """Insert a line of random bytes (possibly with ``\\r``, NUL or invalid UTF-8)."""
    line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 80))).replace(b"\n", b"")
    n = _pick(rng, lines)
    return [*lines[:n], line, *lines[n:]]


def odd_record(lines: Lines, rng: random.Random) -> Lines:
    """Insert a valid record of a shape the parser has not seen."""
    record = rng.choice(
        [
            {"type": "tool_call", "subtype": "completed"},
            {"type": "tool_call", "subtype": "started", "call_id": 5, "tool_call": []},
            {"type": "tool_call", "subtype": "completed", "tool_call": {"fooToolCall": 1}},
            {"type": "assistant", "message": {"content": "plain string"}},
            {"type": "assistant", "message": {"content": [{"type": "text", "text": 7}]}},
            {"type": "result", "subtype": None, "usage": [1, 2]},
            {"type": "system", "subtype": "init", "model": {"name": "x"}},
            {"type": "user"},
            {"type": "interaction_query", "subtype": "response", "response": {"id": []}},
            {"type": "thinking", "subtype": "delta", "text": None},
            {"type": "connection", "attempt": "many"},
            {"type": "", "subtype": ""},
            {"type": "brand_new", "subtype": "thing", "session_id": ["x"]},
            {"type": "result", "streamview_recv_ms": "soon", "session_id": "other"},
        ]
    )
    n = _pick(rng, lines)
    return [*lines[:n], _dumps(record), *lines[n:]]


def blank_and_crlf(lines: Lines, rng: random.Random) -> Lines:
    """Add blank lines, whitespace-only lines and ``\\r\\n`` endings."""
    out: Lines = []
    for line in lines:
        if rng.random() < 0.2:
            out.append(rng.choice([b"", b"   ", b"\r", b"\t"]))
        out.append(line + b"\r" if rng.random() < 0.3 else line)
    return out


MUTATIONS: dict[str, Callable[[Lines, random.Random], Lines]] = {
    "flip-byte": flip_byte,
    "cut-line": cut_line,
    "truncate-stream": truncate_stream,
    "duplicate-line": duplicate_line,
    "delete-line": delete_line,
    "swap-lines": swap_lines,
    "shuffle-lines": shuffle_lines,
    "inject-sequence": inject_sequence,
    "retype-value": retype_value,
    "deep-nesting": deep_nesting,
    "random-line": random_line,
    "odd-record": odd_record,
    "blank-and-crlf": blank_and_crlf,
}
"""Every mutation, by name."""


def mutate(data: bytes, rng: random.Random, rounds: int) -> tuple[bytes, list[str]]:
    """Apply ``rounds`` random mutations to a capture; return the bytes and what was done."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    applied = []
    for _ in range(rounds):
        name = rng.choice(sorted(MUTATIONS))
        lines = MUTATIONS[name](lines, rng)
        applied.append(name)
    out = b"\n".join(lines)
    if rng.random() < 0.8:
        out += b"\n"
    return out, applied


def chunked(data: bytes, rng: random.Random, pieces: int) -> list[bytes]:
    """Cut ``data`` at ``pieces - 1`` random points (single bytes, mid-character...)."""
    if not data or pieces <= 1:
        return [data]
    cuts = sorted(rng.randrange(len(data) + 1) for _ in range(pieces - 1))
    bounds = [0, *cuts, len(data)]
    return [data[a:b] for a, b in itertools.pairwise(bounds)]


def expected_total(data: bytes) -> int:
    """Non-blank lines in ``data``: what the counts must add up to."""
    total = 0
    for line in data.split(b"\n"):
        if line.endswith(b"\r"):
            line = line[:-1]
        if line and not line.isspace():
            total += 1
    return total
