"""Search keeps the line texts of the closed blocks it laid out (issue 27.5): the next
search lays none of them out again, finds the same matches, and a new width or a
changed block is laid out again."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import streamview.ui.transcript.fences as fences
from streamview.ui.transcript.block_layout import has_fence
from streamview.ui.transcript.line_texts import COMPRESS_FROM, LineTexts
from streamview.ui.transcript.transcript import Transcript

from ..conftest import wait_for
from .test_far_blocks import STEPS, at_rest, long_run, screen
from .test_transcript import Stream, TranscriptApp, show

QUERY = "line 2 of step"


def count_layouts(transcript: Transcript) -> list[int]:
    """Count the blocks ``transcript`` lays out from now on (here or on the layout thread)."""
    laid_out = [0]

    def counted(method: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            laid_out[0] += 1
            return method(*args, **kwargs)

        return wrapper

    transcript._render_entry_lines = counted(transcript._render_entry_lines)  # type: ignore[method-assign]
    transcript._lay_out_later = counted(transcript._lay_out_later)  # type: ignore[method-assign]
    return laid_out


async def searched(pilot: Any, transcript: Transcript) -> None:
    """Let a search under way (a slice at a time) end, and the view settle."""
    await wait_for(pilot, lambda: transcript.search_progress is None)
    await at_rest(pilot, transcript)


def hits(transcript: Transcript) -> list[tuple[int, int, int, int]]:
    return [(hit.entry, hit.line, hit.start, hit.end) for hit in transcript._search.hits]


def each_hit_is_the_query(transcript: Transcript, query: str) -> None:
    """Every hit spans the query in its block's lines as laid out now."""
    for entry, line, start, end in hits(transcript):
        text = transcript._lines_at(entry, copy=True)[line].text
        assert text[start:end].casefold() == query.casefold()


async def test_a_second_search_lays_out_no_block_again_and_finds_the_same() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        await at_rest(pilot, transcript)
        laid_out = count_layouts(transcript)
        assert transcript.search(QUERY) == STEPS // 4
        first = hits(transcript)
        # Only the blocks whose text holds it are laid out (and their texts kept).
        assert 0 < laid_out[0] <= STEPS // 4
        assert len(transcript._texts) == STEPS // 4
        await at_rest(pilot, transcript)
        laid_out[0] = 0
        assert transcript.search(QUERY) == STEPS // 4
        assert laid_out[0] == 0
        assert hits(transcript) == first
        assert transcript.search("step0007") == 1  # another query: its marker laid out
        assert laid_out[0] == 1
        await at_rest(pilot, transcript)
        assert "make step0007" in screen(transcript)  # the view went to the hit
        each_hit_is_the_query(transcript, "step0007")
        assert len(transcript._entries.held) < len(transcript._entries) // 4


async def test_a_new_width_between_searches_lays_the_blocks_out_again() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        await at_rest(pilot, transcript)
        assert transcript.search(QUERY) == STEPS // 4
        wide = hits(transcript)
        laid_out = count_layouts(transcript)
        await pilot.resize_terminal(60, 30)  # the search is made again at the new width
        await searched(pilot, transcript)
        assert laid_out[0] >= STEPS // 4
        assert transcript.match_count == STEPS // 4
        each_hit_is_the_query(transcript, QUERY)
        laid_out[0] = 0
        assert transcript.search(QUERY) == STEPS // 4  # kept at this width
        assert laid_out[0] == 0
        # Narrower than a tool's marker: its command is cut, and not found.
        assert transcript.search("make step") == STEPS
        await pilot.resize_terminal(20, 30)
        await searched(pilot, transcript)
        assert transcript.match_count < STEPS
        each_hit_is_the_query(transcript, "make step")
        assert transcript.search(QUERY) == STEPS // 4
        each_hit_is_the_query(transcript, QUERY)
        await pilot.resize_terminal(100, 30)
        await searched(pilot, transcript)
        assert laid_out[0] >= STEPS // 4
        assert hits(transcript) == wide


async def test_a_block_that_changed_is_searched_as_it_is_now() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        stream = long_run()
        transcript = await show(pilot, stream)
        await at_rest(pilot, transcript)
        assert transcript.search("succeeded") == 0
        stream.add(
            type="tool_call",
            subtype="completed",
            call_id="c3",
            tool_call={
                "shellToolCall": {
                    "args": {"command": "make step0003"},
                    "result": {"success": {"stdout": "ok\n", "exitCode": 0}},
                }
            },
        )
        transcript.sync([3])
        laid_out = count_layouts(transcript)
        assert transcript.search("succeeded") == 1  # found in the marker as it is now
        assert laid_out[0] == 1  # that marker, and no other block
        each_hit_is_the_query(transcript, "succeeded")


async def test_the_texts_kept_stay_within_their_budget() -> None:
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, long_run())
        await at_rest(pilot, transcript)
        texts = transcript._texts
        texts.budget = 20_000
        laid_out = count_layouts(transcript)
        assert transcript.search(QUERY) == STEPS // 4
        first = hits(transcript)
        assert 0 < texts.size <= texts.budget
        kept = len(texts)
        assert 0 < kept < STEPS // 4
        await at_rest(pilot, transcript)
        laid_out[0] = 0
        assert transcript.search(QUERY) == STEPS // 4
        assert hits(transcript) == first
        assert texts.size <= texts.budget and len(texts) == kept
        assert 0 < laid_out[0] <= STEPS // 4 - kept


async def test_a_long_block_the_layout_thread_laid_out_is_not_sent_there_again() -> None:
    stream = long_run()
    paragraphs = [f"Paragraph {k} of the long answer, about needle{k:03d}." for k in range(200)]
    stream.text("\n\n".join(paragraphs))  # past BACKGROUND_MARKDOWN_CHARS: the thread's
    stream.add(
        type="tool_call",
        subtype="started",
        call_id="last",
        tool_call={"shellToolCall": {"args": {"command": "make last"}}},
    )
    for number in range(100):  # the long answer far from the screen
        stream.text(f"Closing remark {number}.")
        stream.add(
            type="tool_call",
            subtype="started",
            call_id=f"end{number}",
            tool_call={"shellToolCall": {"args": {"command": f"make end{number}"}}},
        )
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, stream)
        await at_rest(pilot, transcript)
        long = 2 * STEPS
        assert transcript._entries.blocks[long].text.startswith("Paragraph 0 ")
        assert transcript._entries.get(long) is None
        transcript.search("needle1")  # the long answer goes to the layout thread
        await wait_for(pilot, lambda: not transcript.laying_out)
        await at_rest(pilot, transcript)
        assert transcript.match_count == 100  # needle100 to needle199
        first = hits(transcript)
        assert long in transcript._texts
        laid_out = count_layouts(transcript)
        assert transcript.search("needle1") == 100
        assert hits(transcript) == first
        assert laid_out[0] == 0
        each_hit_is_the_query(transcript, "needle1")


async def test_hiding_thinking_between_searches_finds_none_in_it() -> None:
    stream = long_run()
    for number in range(50):
        stream.add(type="thinking", subtype="delta", text=f"pondering {number}", timestamp_ms=1)
        stream.add(type="thinking", subtype="completed")
        stream.text(f"Answer {number}.")
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = await show(pilot, stream)
        await at_rest(pilot, transcript)
        assert transcript.search("pondering") == 50
        transcript.set_show_thinking(False)
        assert transcript.match_count == 0
        assert transcript.search("pondering") == 0
        transcript.set_show_thinking(True)
        await searched(pilot, transcript)
        assert transcript.match_count == 50
        each_hit_is_the_query(transcript, "pondering")
        laid_out = count_layouts(transcript)
        assert transcript.search("pondering") == 50
        assert laid_out[0] == 0


def test_line_texts_come_back_as_they_were_kept() -> None:
    texts = LineTexts()
    short = [" ● shell `ls`  ✓ succeeded", ""]
    long = [f" line {k} ünïcode   " for k in range(COMPRESS_FROM // 10)]
    texts.put(1, short, ("a",))
    texts.put(2, long, ("b",))
    texts.put(3, ["one\ntwo"], ("c",))  # a line holding a newline is not kept
    texts.put(4, [], ("d",))
    assert texts.get(1, ("a",)) == short
    assert texts.get(2, ("b",)) == long
    assert texts.size < 2 * (len("".join(long)) + len("".join(short)))  # the long one packed
    assert 3 not in texts and 4 not in texts
    assert texts.get(1, ("a", 2)) is None  # the block changed: dropped
    assert 1 not in texts
    texts.drop_where(lambda index: index == 2)
    assert len(texts) == 0 and texts.size == 0


def test_line_texts_add_nothing_past_the_budget() -> None:
    texts = LineTexts(budget=2_000)
    for index in range(100):
        texts.put(index, [f"block {index}", "x" * 50], (index,))
        assert texts.size <= 2_000
    assert 0 < len(texts) < 100
    assert texts.get(0, (0,)) == ["block 0", "x" * 50]  # the first kept stay
    texts.clear()
    assert texts.size == 0 and texts.get(0, (0,)) is None


async def test_a_built_lexer_reads_each_closed_blocks_text_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A lexer built while no block has a fence lays nothing out again, and the next
    one reads only the blocks since; a fenced block, new or in another session, is
    still found."""
    app = TranscriptApp()
    async with app.run_test(size=(100, 30)) as pilot:
        stream = long_run()
        transcript = await show(pilot, stream)
        await at_rest(pilot, transcript)
        invalidated = [0]
        invalidate = transcript.invalidate

        def counted() -> None:
            invalidated[0] += 1
            invalidate()

        transcript.invalidate = counted  # type: ignore[method-assign]
        read: list[str] = []

        def fence(text: str) -> bool:
            read.append(text)
            return has_fence(text)

        monkeypatch.setattr(fences, "has_fence", fence)
        transcript.on_transcript_lexer_ready(Transcript.LexerReady())
        assert invalidated[0] == 0 and len(read) >= STEPS
        read.clear()
        transcript.on_transcript_lexer_ready(Transcript.LexerReady())
        assert invalidated[0] == 0 and len(read) < 3  # the open tail only
        stream.text("Now:", delta=True)  # open: read again by the next lexer's check
        transcript.sync()
        await pilot.pause()
        transcript.on_transcript_lexer_ready(Transcript.LexerReady())
        assert invalidated[0] == 0
        stream.text("\n\n```python\nprint(1)\n```\n", delta=True)
        transcript.sync()
        await pilot.pause()
        transcript.on_transcript_lexer_ready(Transcript.LexerReady())
        assert invalidated[0] == 1
        other = Stream()
        other.text("```\ncode\n```")
        transcript.show_session(other.session)
        await pilot.pause()
        assert invalidated[0] == 1
        transcript.on_transcript_lexer_ready(Transcript.LexerReady())
        assert invalidated[0] == 2
