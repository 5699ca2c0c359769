"""Markdown export: transcript in order, a tool-calls table that hostile text cannot break."""

from __future__ import annotations

import orjson
from markdown_it import MarkdownIt
from markdown_it.token import Token

from streamview.core.markdown_export import code_span, table_cell, to_markdown
from streamview.core.reader import fold


def line(record: dict[str, object]) -> bytes:
    return orjson.dumps(record) + b"\n"


def run(*records: dict[str, object]) -> bytes:
    return b"".join(line(record) for record in records)


SID = {"session_id": "s-1"}
STREAM = run(
    {"type": "system", "subtype": "init", "model": "GPT-5", "cwd": "/w", **SID},
    {"type": "user", "message": {"content": [{"type": "text", "text": "fix it\nplease"}]}, **SID},
    {
        "type": "assistant",
        "message": {"content": [{"type": "text", "text": "Looking.\x1b[2J"}]},
        "model_call_id": "m1",
        "timestamp_ms": 1,
        **SID,
    },
    {
        "type": "tool_call",
        "subtype": "started",
        "call_id": "c1",
        "tool_call": {"shellToolCall": {"args": {"command": "grep -c 'a|b' `x`"}}},
        **SID,
    },
    {
        "type": "tool_call",
        "subtype": "completed",
        "call_id": "c1",
        "tool_call": {
            "shellToolCall": {
                "args": {"command": "grep -c 'a|b' `x`"},
                "result": {"failure": {"exitCode": 2, "stdout": "", "stderr": "no | such"}},
            }
        },
        **SID,
    },
    {"type": "assistant", "message": {"content": [{"type": "text", "text": "Done."}]}, **SID},
    {
        "type": "result",
        "subtype": "success",
        "duration_ms": 4200,
        "is_error": False,
        "usage": {"inputTokens": 7120, "outputTokens": 354},
        **SID,
    },
)


def test_transcript_order_and_outcome() -> None:
    text = to_markdown(fold([STREAM]), title="demo.ndjson")
    assert text.startswith("# demo.ndjson\n")
    prompt = text.index("> fix it\n> please")
    looking = text.index("Looking.")
    call = text.index("**✗ shell**")
    done = text.index("Done.")
    assert prompt < looking < call < done
    assert "- **Outcome:** success in 4.2s · 7,120 in · 354 out" in text
    assert "\x1b" not in text


def test_tool_table_escapes_pipes_and_backticks() -> None:
    text = to_markdown(fold([STREAM]))
    rows = [row for row in text.splitlines() if row.startswith("| 1 |")]
    assert len(rows) == 1
    row = rows[0]
    # Unescaped pipes are only the 7 column separators.
    assert row.replace("\\|", "").count("|") == 7
    assert "`` grep -c 'a\\|b' `x` ``" in row
    assert "failed" in row


def test_helpers() -> None:
    assert code_span("plain") == "`plain`"
    assert code_span("a`b") == "``a`b``"
    assert code_span("`edge`") == "`` `edge` ``"
    assert table_cell("a|b\nc") == "a\\|b c"
    assert table_cell("x" * 500, limit=10) == "x" * 9 + "…"


def test_process_section_and_incomplete_run() -> None:
    state = fold([STREAM.split(b"\n")[0] + b"\n"])
    text = to_markdown(state, process={"exit_code": 1, "stderr": "Error: ``` no\n"})
    assert "incomplete: the stream ended without a result" in text
    assert "- **Exit code:** 1" in text
    assert "````text\nError: ``` no\n````" in text


def test_thinking_can_be_left_out() -> None:
    stream = run(
        {"type": "system", "subtype": "init", **SID},
        {"type": "thinking", "subtype": "delta", "text": "hmm", "timestamp_ms": 1, **SID},
        {"type": "thinking", "subtype": "completed", **SID},
    )
    assert "hmm" in to_markdown(fold([stream]))
    assert "hmm" not in to_markdown(fold([stream]), thinking=False)


def test_html_in_the_model_name_and_prompt_is_escaped() -> None:
    """A viewer that renders raw HTML must show a <script> from the stream, not run it."""
    stream = (
        b'{"type":"system","subtype":"init","model":"<script>alert(1)</script>","session_id":"s"}\n'
        b'{"type":"user","message":{"content":[{"type":"text",'
        b'"text":"fix <img src=x onerror=y>"}]},"session_id":"s"}\n'
    )
    markdown = to_markdown(fold([stream]))
    assert "<script>" not in markdown
    assert "<img" not in markdown
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in markdown
    assert "fix &lt;img src=x onerror=y&gt;" in markdown


def all_tokens(tokens: list[Token]) -> list[Token]:
    """Block tokens and their inline children, flat."""
    found = []
    for token in tokens:
        found.append(token)
        found.extend(token.children or [])
    return found


def test_the_answers_raw_html_is_text_and_its_open_fence_is_closed() -> None:
    """The export copied the answer's raw HTML and left its unclosed fence open over the
    rest of the document (issue 26.9d); read back with a CommonMark parser."""
    answer = (
        "Here is the fix.\n\n"
        "<script>alert(1)</script>\n\n"
        'Inline <img src=x onerror="alert(2)"> and <b>bold</b>, code `a <tag> here`.\n\n'
        "<pre>\nswallows what follows\n\n"
        "```python\nprint('<div>')\n```\n\n"
        "> quoted <i>x</i>\n\n"
        "````text\nnever closed <span>"
    )
    stream = run(
        {"type": "system", "subtype": "init", "model": "GPT-5", "cwd": "/w", **SID},
        {"type": "assistant", "message": {"content": [{"type": "text", "text": answer}]}, **SID},
        *[record for record in orjson_lines(STREAM)[2:]],
    )
    markdown = to_markdown(fold([stream]))
    tokens = all_tokens(MarkdownIt("commonmark").parse(markdown))
    assert not [t for t in tokens if t.type in ("html_block", "html_inline")]
    fences = [t for t in tokens if t.type == "fence"]
    assert [t.content for t in fences] == ["print('<div>')\n", "never closed <span>\n"]
    assert not any("Tool calls" in t.content or "Done." in t.content for t in fences)
    headings = [t.content for t in tokens if t.type == "inline" and t.content.startswith("Tool")]
    assert headings == ["Tool calls (1)"]
    texts = " ".join(t.content for t in tokens if t.type == "text")
    assert "<script>alert(1)</script>" in texts and '<img src=x onerror="alert(2)">' in texts
    assert "a <tag> here" in [t.content for t in tokens if t.type == "code_inline"]
    assert any(t.type == "blockquote_open" for t in tokens)
    assert "Done." in texts


def orjson_lines(data: bytes) -> list[dict[str, object]]:
    return [orjson.loads(line) for line in data.splitlines()]
