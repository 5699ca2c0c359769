"""A call summarised straight from its result text (the fold's fast path) ends as the
payload built from that text would end it: same status, summary and numbers."""

from __future__ import annotations

import random

import pytest

from streamview.core.dialects import tool_shapes
from streamview.core.model import ToolCall

TEXTS = [
    "",
    "one line",
    "a\nb\nc\n",
    "     1\tdef f():\n     2\t    return 1\n",
    "   12→x = 1\n   13→\n   14→y = 2",
    "src/a.py:3:def parse\nsrc/a.py:9:    parse()\nsrc/b.py:1:import parse\n",
    "src/a.py\nsrc/b.py\nFound 2 files\nNo files found\n",
    "No matches found",
    "line without colon or dot",
    "a:b:c\nx.py:12:y\n\u2028z",
    "21\t",
    "     7\tx = 1\n     8\t",
]


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


@pytest.mark.parametrize("kind", ["read", "grep"])
def test_a_said_result_ends_the_call_as_its_payload_does(kind: str) -> None:
    for text in TEXTS:
        said = tool_shapes.success_said(kind, {"path": "/w/a.py"}, text)
        assert said is not None
        built = tool_shapes.success_payload(kind, {"path": "/w/a.py"}, text)
        assert _ended(kind, said) == _ended(kind, built), text


def test_other_kinds_and_sectioned_greps_build_their_payload() -> None:
    assert tool_shapes.success_said("shell", {}, "ok") is None
    assert tool_shapes.success_said("grep", {}, "File: a.py\nL3: x") is None


def test_a_call_of_another_kind_summarises_the_built_payload() -> None:
    said = tool_shapes.success_said("read", {}, "a\nb")
    assert said is not None
    assert _ended("task", said) == _ended("task", {"content": "a\nb"})


def test_a_read_result_is_counted_in_the_lines_splitlines_gives() -> None:
    """A read's lines are counted without splitting the text: the same number as
    ``str.splitlines``, whatever line breaks (ASCII or not) and whatever end."""
    rng = random.Random(30)
    marks = ["a", " ", "\n", "\n", "\r", "\r\n", "\x0b", "\x0c", "\x1c", "\x1e", "\x85", "é"]
    texts = ["", "\n", "a", "a\n", "\n\n", "a\r", "a\u2028b", "a\x1db", "a\x1fb"]
    texts += ["".join(rng.choice(marks) for _ in range(rng.randrange(12))) for _ in range(2000)]
    for text in texts:
        assert tool_shapes.line_count(text) == len(text.splitlines()), repr(text)


def test_a_read_of_empty_numbered_lines_counts_them() -> None:
    """``21\t`` is how a read of one empty line looks (``cat -n``): one line, from the
    text and from the payload alike (the payload once counted what its numbers left)."""
    for text, lines in (("21\t", "1 line"), ("     7\tx = 1\n     8\t", "2 lines")):
        built = tool_shapes.success_payload("read", {}, text)
        said = tool_shapes.success_said("read", {}, text)
        assert said is not None
        assert _ended("read", built)[1] == _ended("read", said)[1] == lines
