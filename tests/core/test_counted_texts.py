"""The shared counts of a tool's result text against slow references that say what each
counts, on random texts made of the pieces that matter: every line break
``str.splitlines`` knows, ``\\r\\n``, blank and whitespace lines, colons, non-ASCII."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import tools
from streamview.core.dialects import tool_shapes

PIECES = st.sampled_from(
    [
        "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029",
        " ", "\t", "\u00a0", ":", "a", "src/app.py", "12", "é", "名", "Directory listing:",
        "File: x", "Found 2 files", "  ", "\n\n", "\r\n\r\n",
    ]
)  # fmt: skip
TEXTS = st.lists(PIECES, max_size=40).map("".join)


def _said_summary(kind: str, said: str) -> str | None:
    """``tools._said_summary`` as first written: the stripped lines, listed."""
    lines = [line for line in said.splitlines() if line.strip()]
    if len(lines) <= 1 or kind == "webFetch":
        return tools._first_line(said) or None
    if kind == "ls":
        entries = sum(1 for line in lines if not line.rstrip().endswith(":"))
        return f"{entries:,} entries" if entries != 1 else "1 entry"
    return f"{len(lines):,} matching lines"


def _output_lines(output: str) -> str | None:
    """A shell summary's count: its ``\\n`` lines, trailing ``\\n`` and ``\\r\\n`` aside."""
    if not output or output.isspace():
        return None
    body = output
    while body.endswith("\n"):
        body = body[:-2] if body.endswith("\r\n") else body[:-1]
    return tools.plural(len(body.split("\n")), "line")


@settings(max_examples=1500, deadline=None)
@given(text=TEXTS, kind=st.sampled_from(["grep", "ls", "webFetch"]))
def test_said_summary_counts_the_lines_not_blank(text: str, kind: str) -> None:
    assert tools._said_summary(kind, text) == _said_summary(kind, text)


@settings(max_examples=1500, deadline=None)
@given(text=TEXTS)
def test_counted_lines_are_the_references(text: str) -> None:
    assert tool_shapes.line_count(text) == len(text.splitlines())
    assert tools.output_lines(text) == _output_lines(text)


def test_said_summary_of_edge_texts() -> None:
    for text in ["", " ", "\n", "a", "a\n\n", " \n a \n", "x:\ny\n z:\n", "\u2028a\u2029b\x85"]:
        for kind in ("grep", "ls", "webFetch"):
            assert tools._said_summary(kind, text) == _said_summary(kind, text), (kind, text)
