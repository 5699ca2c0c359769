"""--redact and secrets streamed in pieces (issue 29.3): a key cut into deltas of 3-10
characters over consecutive lines (Claude Code's ``stream_event`` text deltas, Cursor's
assistant deltas, Gemini's ``delta`` messages) is in no output, and a stream without
secrets passes byte for byte."""

from __future__ import annotations

import io
import random
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.cli.fronts import run_json, run_print
from streamview.core.event_stream import EventStream
from streamview.core.redact import LineFilter, Redactor, redact_bytes
from streamview.fronts.events_api import to_json_lines
from streamview.sources.base import MemorySource, Source
from streamview.sources.redacting_source import RedactingSource
from tests.cli.helpers import child_env, command
from tests.core.redact.secrets import DIALECTS, SECRETS, leaks

KEYS = [s for s in SECRETS if s.kind in ("anthropic-api-key", "github-pat", "aws-access-token")]


DIALECT_DELTAS: dict[str, tuple[str, str, tuple[str | int, ...]]] = {
    "claude": ("claude/partial-messages.jsonl", '"text_delta"', ("event", "delta", "text")),
    "cursor": (
        "cursor/read-and-answer.ndjson",
        '"type":"assistant"',
        ("message", "content", 0, "text"),
    ),
    "gemini": ("gemini/real-oneshot-web-search.jsonl", '"delta":true', ("content",)),
}
"""Each dialect's recording, the mark of its delta line, and the path to its text."""


def at_path(value: Any, path: tuple[str | int, ...]) -> Any:
    for step in path[:-1]:
        value = value[step]
    return value


def pieces(text: str, rng: random.Random) -> list[str]:
    """``text`` cut into pieces of 3 to 10 characters."""
    out = []
    while text:
        n = rng.randint(3, 10)
        out.append(text[:n])
        text = text[n:]
    return out


def streamed(agent: str, answer: str, seed: int = 29) -> bytes:
    """``agent``'s recording with ``answer`` streamed in pieces after its first delta."""
    name, marker, path = DIALECT_DELTAS[agent]
    lines = (DIALECTS / name).read_bytes().splitlines()
    at = next(i for i, line in enumerate(lines) if marker.encode() in line)
    deltas = []
    for piece in pieces(answer, random.Random(seed)):
        line = orjson.loads(lines[at])
        at_path(line, path)[path[-1]] = piece
        deltas.append(orjson.dumps(line))
    return b"\n".join([*lines[: at + 1], *deltas, *lines[at + 1 :]]) + b"\n"


def secret_answer() -> str:
    keys = " and ".join(key.text for key in KEYS)
    return f"Sure, the keys are {keys} (keep them safe!)\n"


def outputs(agent: str, data: bytes) -> dict[str, str]:
    """--print, --events, --json and ``redact`` of ``data`` read with --redact."""
    printed = io.StringIO()
    run_print(RedactingSource(MemorySource(data), Redactor()), printed, agent=agent)
    summary = io.StringIO()
    run_json(RedactingSource(MemorySource(data), Redactor()), summary, agent=agent)
    stream = EventStream(agent)
    redacted = redact_bytes(data, Redactor())
    events = to_json_lines([stream.start(), *stream.feed(redacted), *stream.finish()])
    return {
        "print": printed.getvalue(),
        "json": summary.getvalue(),
        "events": events.decode(),
        "redact": redacted.decode(),
    }


@pytest.mark.parametrize("agent", sorted(DIALECT_DELTAS))
def test_a_key_streamed_in_pieces_is_in_no_output(agent: str) -> None:
    """Every output of the redacted run is clean, each line still JSON of its shape;
    the unredacted stream does leak the keys (the check can fail)."""
    data = streamed(agent, secret_answer())
    path = DIALECT_DELTAS[agent][2]
    # Each line redacted alone (the old way) lets every key through, in pieces.
    marker = DIALECT_DELTAS[agent][1].encode()
    texts = "".join(
        at_path(orjson.loads(Redactor().line(line)), path)[path[-1]]
        for line in data.splitlines()
        if marker in line
    )
    assert set(leaks(texts)) == {key.kind for key in KEYS}
    for name, output in outputs(agent, data).items():
        assert leaks(output) == [], (agent, name, leaks(output))
    redacted = redact_bytes(data, Redactor())
    before, after = data.splitlines(), redacted.splitlines()
    assert len(after) == len(before)
    for old, new in zip(before, after, strict=True):
        if old.startswith(b"{"):
            assert orjson.loads(new).keys() == orjson.loads(old).keys()
    assert b"[REDACTED:anthropic-api-key]" in redacted


@pytest.mark.parametrize("agent", sorted(DIALECT_DELTAS))
def test_text_without_secrets_passes_byte_for_byte(agent: str) -> None:
    """A long answer streamed in pieces (more than the hold) comes out unchanged."""
    prose = "The quick brown fox jumps over the lazy dog, again and again. " * 40
    data = streamed(agent, prose)
    redactor = Redactor()
    assert redact_bytes(data, redactor) == data
    assert redactor.report() == "redacted nothing"
    chunked = LineFilter(Redactor())
    out = b"".join(chunked.feed(data[i : i + 7]) for i in range(0, len(data), 7))
    assert out + chunked.finish() == data


class Trickle(Source):
    """A live source: its lines one by one, then silence until ``done`` is set (or a
    generous deadline passes: then ``ended``)."""

    live = True

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.done = threading.Event()
        self.ended = False

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        yield from (line + b"\n" for line in self.data.splitlines())
        if not self.done.wait(10):
            self.ended = True


def test_a_live_run_shows_held_deltas_after_a_short_hold() -> None:
    """Live, the last deltas of an answer arrive although the stream is quiet after
    them: the hold ends after HOLD_SECONDS (deltas.py), not with the stream."""
    data = streamed("claude", "Nothing secret here, just a short answer.")
    lines = data.splitlines()
    last_delta = max(i for i, line in enumerate(lines) if b"text_delta" in line)
    source = Trickle(b"\n".join(lines[: last_delta + 1]))
    got = b""
    try:
        for chunk in RedactingSource(source, Redactor()).chunks(threading.Event()):
            got += chunk
            if got.count(b"\n") == last_delta + 1:
                break
    finally:
        source.done.set()
    assert got == b"\n".join(lines[: last_delta + 1]) + b"\n"
    assert not source.ended  # the held deltas came while the stream was quiet


def test_the_command_redacts_a_key_streamed_in_pieces(tmp_path: Path) -> None:
    """The real command: --print, --events, --json and ``redact`` of Claude's stream."""
    path = tmp_path / "run.jsonl"
    path.write_bytes(streamed("claude", secret_answer()))
    for args in (("--print",), ("--events",), ("--json",)):
        result = subprocess.run(
            command("--redact", *args, str(path)), capture_output=True, env=child_env(),
            timeout=120, check=False,
        )  # fmt: skip
        assert result.stdout and leaks(result.stdout.decode()) == [], args
    result = subprocess.run(
        command("redact", str(path)), capture_output=True, env=child_env(), timeout=120,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0 and leaks(result.stdout.decode()) == []


def test_after_a_hold_expires_the_rest_of_a_key_is_still_cut() -> None:
    """Live, held deltas go after HOLD_SECONDS even mid-key: the pieces already gone
    cannot be taken back, but the run keeps them as context, so every later piece of
    the key is still cut."""
    key = KEYS[2].text  # the Anthropic key, 108 characters
    data = streamed("claude", f"the key {key} (keep it)\n").splitlines(keepends=True)
    first = next(i for i, line in enumerate(data) if b"text_delta" in line) + 1
    half = first + 6  # about half the key's pieces
    lines = LineFilter(Redactor())
    out = b"".join(lines.feed(line) for line in data[:half])
    out += lines.expire(now=float("inf"))
    out += b"".join(lines.feed(line) for line in data[half:]) + lines.finish()
    texts = "".join(
        orjson.loads(line)["event"]["delta"]["text"]
        for line in out.splitlines()
        if b"text_delta" in line
    )
    gone = texts.index("[REDACTED:anthropic-api-key]")
    assert key[:20] in texts[:gone]  # the pieces let through before the hold expired
    assert key[-40:] not in texts and "(keep it)" in texts
