"""Assistant text by the rules of the format guide: segments, deltas, recaps, flushes."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from streamview.core.state import TEXT, THINKING, Session

from .helpers import (
    CAPTURES,
    assistant,
    completed,
    delta,
    flush,
    init,
    only_session,
    recap,
    result,
    started,
    stream,
    thinking,
    thinking_done,
    user,
)


def segments(session: Session) -> list[str]:
    """The text of each text block, in order."""
    return [block.text for block in session.blocks if block.kind == TEXT]


def run(*lines: bytes) -> Session:
    """A whole run around these lines."""
    return only_session(stream(init(), user("go"), *lines, result("(ignored)")))


def test_complete_segments_without_partial_output() -> None:
    session = run(
        assistant("I'll read the file.\n", model_call_id="mc-0", timestamp_ms=5),
        started("c", "read", {"path": "a"}, model_call_id="mc-0"),
        completed("c", "read", {"success": {"totalLines": 1}}),
        assistant("DONE"),
    )
    assert segments(session) == ["I'll read the file.\n", "DONE"]
    assert session.text.startswith("I'll read the file.\n")
    assert session.text.endswith("DONE")


def test_token_deltas_build_one_segment() -> None:
    session = run(delta("River"), delta(" runs"), delta(","), delta("  \nRiver"), delta(" ends."))
    assert segments(session) == ["River runs,  \nRiver ends."]
    assert session.text == "River runs,  \nRiver ends."


def test_a_recap_replaces_what_the_deltas_built() -> None:
    session = run(
        delta("Let me"),
        delta(" look"),
        recap("Let me look at the file."),
        started("c", "read", {"path": "a"}),
        completed("c", "read", {"success": {}}),
    )
    assert segments(session) == ["Let me look at the file."]


def test_a_flush_replaces_what_the_deltas_built() -> None:
    session = run(delta("READ"), delta("-"), delta("OK"), flush("READ-OK"))
    assert segments(session) == ["READ-OK"]
    assert session.text == "READ-OK"


def test_a_corrected_flush_wins_over_the_deltas() -> None:
    session = run(delta("Helo"), delta(" wrld"), flush("Hello world"))
    assert session.text == "Hello world"
    block = next(b for b in session.blocks if b.kind == TEXT)
    assert block.revision >= 1
    assert block.deltas == 2


def test_repeated_bold_markers_are_kept() -> None:
    session = run(delta("**"), delta("Example Domain"), delta("**"), delta(" and "), delta("**"))
    assert session.text == "**Example Domain** and **"


def test_a_closing_code_fence_twice_in_a_row_is_kept() -> None:
    fragments = ["```", "py\n", "a = 1\n", "```", "\n", "```", "py\n", "b = 2\n", "```", "```"]
    session = run(*(delta(f) for f in fragments))
    assert session.text == "".join(fragments)
    assert session.text.count("```") == 5


def test_repeated_tokens_survive_a_flush_that_repeats_them() -> None:
    text = "```\nx\n```\n```\ny\n```"
    session = run(*(delta(part) for part in ["```", "\nx\n", "```", "\n", "```", "\ny\n", "```"]))
    assert session.text == text
    flushed = run(*(delta(part) for part in ["```", "\nx\n", "```"]), flush(text))
    assert flushed.text == text


def test_identical_consecutive_complete_segments_are_both_kept() -> None:
    session = run(
        assistant("Retrying.", model_call_id="mc-0", timestamp_ms=1),
        started("a", "shell", {"command": "x"}),
        completed("a", "shell", {"rejected": {}}),
        assistant("Retrying.", model_call_id="mc-1", timestamp_ms=2),
        started("b", "shell", {"command": "x"}),
        completed("b", "shell", {"rejected": {}}),
    )
    assert segments(session) == ["Retrying.", "Retrying."]


def test_thinking_is_kept_apart_from_the_answer() -> None:
    session = run(
        thinking("Writing a "),
        thinking("poem."),
        thinking_done(),
        delta("River"),
        delta(" flows"),
        flush("River flows"),
        thinking("Done."),
        thinking_done(),
    )
    assert session.text == "River flows"
    assert "poem" not in session.text
    thoughts = [b.text for b in session.blocks if b.kind == THINKING]
    assert thoughts == ["Writing a poem.", "Done."]
    assert "Writing a poem." in session.thinking
    assert "Done." in session.thinking
    assert "River" not in session.thinking


def test_a_delta_built_segment_is_closed_by_a_tool_call_start() -> None:
    session = run(
        delta("Let me"),
        delta(" check."),
        started("c", "read", {"path": "a"}),
        completed("c", "read", {"success": {}}),
        delta("All"),
        delta(" good"),
        flush("All good."),
    )
    assert segments(session) == ["Let me check.", "All good."]
    assert all(not block.open for block in session.blocks)


def test_an_open_delta_segment_is_closed_at_end_of_stream() -> None:
    session = only_session(stream(init(), user("go"), delta("half a "), delta("sentence")))
    assert session.text == "half a sentence"
    assert session.open_text is None
    assert session.outcome.status == "incomplete"


def test_text_items_of_one_message_are_concatenated_in_order() -> None:
    record = {
        "type": "assistant",
        "message": {
            "content": [
                {"type": "text", "text": "one "},
                {"type": "tool_use", "text": "NOT THIS"},
                {"type": "text", "text": "two"},
            ]
        },
    }
    session = run(orjson.dumps(record) + b"\n")
    assert session.text == "one two"


# -- real captures: the capture's own result line is the oracle ---------------------------


def real_capture(name: str) -> Path:
    """A real capture in tests/fixtures/cursor-real."""
    path = CAPTURES / name
    assert path.is_file(), f"capture missing: {path}"
    return path


def result_field(path: Path) -> str:
    """The ``result`` text of the capture's result line, read independently of streamview."""
    for raw in path.read_bytes().splitlines():
        record = orjson.loads(raw)
        if record.get("type") == "result":
            text = record["result"]
            assert isinstance(text, str)
            return text
    raise AssertionError(f"no result line in {path}")


@pytest.mark.parametrize(
    "name",
    [
        "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson",
        "hcn_2026.09.15_probe-11_stream-partial-output.ndjson",
        "hcn_2026.09.10_probe-11_partial-output-with-thinking-composer.ndjson",
    ],
)
def test_partial_output_captures_give_exactly_the_text_of_their_result(name: str) -> None:
    path = real_capture(name)
    session = only_session(path.read_bytes())
    expected = result_field(path)
    assert "".join(segments(session)) == expected
    assert session.text == expected


def test_probe_11_with_thinking_keeps_the_thinking_out_of_the_answer() -> None:
    path = real_capture("hcn_2026.09.10_probe-11_partial-output-with-thinking-composer.ndjson")
    thoughts = "".join(
        record["text"]
        for record in map(orjson.loads, path.read_bytes().splitlines())
        if record.get("type") == "thinking" and record.get("subtype") == "delta"
    )
    session = only_session(path.read_bytes())
    assert session.thinking == thoughts
    assert thoughts not in session.text
    assert session.text == result_field(path)
