"""The transcript widget alone: hostile text, odd Markdown, growth, laziness."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import orjson
from textual.app import App, ComposeResult
from textual.pilot import Pilot

import streamview.ui
from streamview.core.parse import parse_line
from streamview.core.state import StreamState
from streamview.ui.transcript.block_layout import hard_breaks, stable_split
from streamview.ui.transcript.transcript import Transcript

from ..conftest import wait_for

CONTROLS = ("\x1b", "\x07", "\x9b", "\x90", "\r")
HOSTILE = "clear\x1b[2J title\x1b]0;pwned\x07 clip\x1b]52;c;QUFB\x07 csi\x9b31m end\r"


class TranscriptApp(App[None]):
    """Just a transcript, styled by the real stylesheet."""

    CSS_PATH = Path(streamview.ui.__file__).parent / "streamview.tcss"

    def compose(self) -> ComposeResult:
        yield Transcript(id="transcript")


class Stream:
    """Build a session from records, the way the app does."""

    def __init__(self) -> None:
        self.state = StreamState(track_changes=True)
        self.line = 0
        self.add(type="system", subtype="init", session_id="s", model="Auto", cwd="/w")

    def add(self, **record: Any) -> None:
        """Apply one record."""
        record.setdefault("session_id", "s")
        self.line += 1
        self.state.apply(parse_line(orjson.dumps(record), self.line))

    def text(self, text: str, delta: bool = False, recap: bool = False) -> None:
        """An assistant message: a delta, a recap or a complete segment."""
        extra: dict[str, Any] = {}
        if delta:
            extra["timestamp_ms"] = 1
        if recap:
            extra["model_call_id"] = "m1"
        self.add(type="assistant", message={"content": [{"type": "text", "text": text}]}, **extra)

    @property
    def session(self) -> Any:
        return self.state.sessions[0]


async def show(pilot: Pilot[None], stream: Stream) -> Transcript:
    """Show ``stream``'s session in the app's transcript and let it render."""
    transcript = pilot.app.query_one(Transcript)
    transcript.show_session(stream.session)
    await pilot.pause()
    return transcript


def no_controls(transcript: Transcript) -> None:
    """No control character in any rendered segment."""
    transcript.plain_lines()
    for entry in transcript._entries:
        for strip in entry.lines or ():
            for segment in strip:
                assert not any(c in segment.text for c in CONTROLS), repr(segment.text)


async def test_escape_sequences_never_reach_the_terminal() -> None:
    stream = Stream()
    stream.add(type="user", message={"content": [{"type": "text", "text": HOSTILE}]})
    stream.add(type="thinking", subtype="delta", text=HOSTILE, timestamp_ms=1)
    stream.add(type="thinking", subtype="completed")
    stream.text("# " + HOSTILE + "\n\n`" + HOSTILE + "`\n\n```\n" + HOSTILE + "\n```\n")
    stream.add(
        type="tool_call",
        subtype="started",
        call_id="c1",
        tool_call={"shellToolCall": {"args": {"command": HOSTILE}}},
    )
    stream.add(type="connection", subtype="reconnecting", attempt=1, endpoint_url=HOSTILE)
    stream.text(HOSTILE, delta=True)  # an open, growing block
    app = TranscriptApp()
    async with app.run_test(size=(80, 40)) as pilot:
        transcript = await show(pilot, stream)
        no_controls(transcript)
        text = "\n".join(transcript.plain_lines())
    assert "␛[2J" in text  # shown as an inert picture, not hidden
    assert "pwned" in text and "end" in text


async def test_html_and_deep_nesting_are_shown_not_dropped() -> None:
    stream = Stream()
    stream.text("<details>\n<summary>Why</summary>\n\nbody\n</details>")
    stream.text(">" * 300 + " deep quote")
    stream.text("- " * 400 + "deep list")
    app = TranscriptApp()
    async with app.run_test(size=(80, 40)) as pilot:
        transcript = await show(pilot, stream)
        text = "\n".join(transcript.plain_lines())
    assert "<details>" in text and "<summary>Why</summary>" in text and "body" in text
    assert "deep quote" in text
    assert "deep list" in text


async def test_a_huge_block_is_rendered_with_its_end() -> None:
    stream = Stream()
    paragraph = "word " * 40 + "\n\n"
    stream.text(paragraph * 1500 + "[" * 20_000 + "\n\nTHE END")  # ~320 KB
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        lines = transcript.plain_lines()
    assert lines[-2].strip() == "THE END"


async def test_recap_replaces_the_deltas_it_repeats() -> None:
    stream = Stream()
    for piece in ("Lookin", "g at ", "the fil"):
        stream.text(piece, delta=True)
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        assert "Looking at the fil" in "\n".join(transcript.plain_lines())
        stream.text("Looking at the file first.", recap=True)  # corrected by the recap
        transcript.sync()
        await pilot.pause()
        lines = [line.strip() for line in transcript.plain_lines() if line.strip()]
    assert lines == ["Looking at the file first."]


async def test_growing_answer_renders_finished_paragraphs_once() -> None:
    stream = Stream()
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        stream.text("First paragraph.\n\n```py\nx = 1\n\n", delta=True)
        transcript.sync()
        await pilot.pause()
        entry = transcript._entries[-1]
        # The fence is still open: only the first paragraph is frozen.
        assert entry.frozen.upto == len("First paragraph.\n\n")
        frozen = entry.frozen.lines
        stream.text("y = 2\n```\n\nLast.", delta=True)
        transcript.sync()
        # A quick second delta may wait for the resync timer.
        await wait_for(pilot, lambda: entry.frozen.upto > len("First paragraph.\n\n"))
        assert entry.frozen.lines[: len(frozen)] == frozen  # not rendered again
        text = "\n".join(transcript.plain_lines())
    assert "x = 1" in text and "y = 2" in text and "Last." in text


def test_stable_split_never_cuts_inside_a_code_fence() -> None:
    text = "a\n\n```\ncode\n\nmore\n"
    assert stable_split(text, 0) == 3
    assert stable_split(text + "```\n\nb", 0) == len(text + "```\n\n")
    assert stable_split("no break yet", 0) == 0


def test_hard_breaks_keep_single_newlines_outside_code() -> None:
    assert hard_breaks("one\ntwo") == "one  \ntwo"
    assert hard_breaks("```\na\nb\n```") == "```\na\nb\n```"
    assert hard_breaks("para\n\nnext") == "para\n\nnext"


async def test_only_blocks_near_the_viewport_are_rendered() -> None:
    stream = Stream()
    for number in range(2_000):
        stream.text(f"Segment {number}: " + "text " * 30)
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        rendered = sum(1 for entry in transcript._entries if entry.lines is not None)
        assert rendered < 50
        assert transcript.scroll_y == transcript.max_scroll_y
        assert "Segment 1999" in transcript.render_line(0).text + "".join(
            transcript.render_line(y).text for y in range(transcript.size.height)
        )
        transcript.focus()
        await pilot.press("home")
        await pilot.pause()
        assert "Segment 0:" in transcript.render_line(0).text


async def test_a_slow_growing_tail_is_rendered_less_often_but_never_left_stale() -> None:
    stream = Stream()
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        stream.text("```py\nfirst = 1\n", delta=True)
        transcript.sync()
        await pilot.pause()
        entry = transcript._entries[-1]
        entry.cost = 0.05  # pretend the tail took 50 ms: wait about 200 ms
        # ... and that it was rendered just now: on a loaded machine more than those
        # 200 ms could pass between the pause above and the sync below.
        entry.rendered_at = time.monotonic()
        stream.text("second = 2\n", delta=True)
        transcript.sync()
        assert "second = 2" not in "\n".join(s.text for s in entry.lines or ())
        assert transcript._resync_timer is not None
        # The timer renders it after the pause.
        await wait_for(pilot, lambda: "second = 2" in "\n".join(s.text for s in entry.lines or ()))


async def test_megabytes_of_answer_are_cut_to_the_width_not_word_wrapped() -> None:
    stream = Stream()
    line = "lorem ipsum dolor sit amet " * 20
    stream.text("# Dump\n\n" + (line + "\n") * 800 + "漢字" * 100 + "\nLAST LINE")  # ~430 KB
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        lines = transcript.plain_lines()
    assert lines[-2].strip() == "LAST LINE"  # then the blank separator
    assert any("漢字" in text for text in lines[-6:])
    assert max(len(text) for text in lines) <= 80


async def test_a_block_over_the_limit_says_how_much_is_not_shown_and_where_to_read_it() -> None:
    stream = Stream()
    line = "x" * 99 + "\n"
    stream.text("FIRST LINE\n" + line * 30_000 + "HIDDEN TAIL")  # 3 MB
    app = TranscriptApp()
    async with app.run_test(size=(80, 30)) as pilot:
        transcript = await show(pilot, stream)
        lines = transcript.plain_lines()
    text = "\n".join(lines)
    assert "FIRST LINE" in text
    assert "HIDDEN TAIL" not in text
    # At most 500 KB of 99-character lines, two rows each at 80 columns: ~10,000 rows, not
    # the ~60,000 the whole 3 MB would take.
    assert len(lines) < 21_000
    shown = sum(len(line) for line in lines if line.strip() and "more characters" not in line)
    note = next(line for line in lines if "more characters not shown here" in line)
    more = int(note.split("…")[1].split("more")[0].replace(",", ""))
    assert more > 0
    assert "x exports the whole transcript" in note
    # What is shown and what the note counts add up to the block (bar the newlines cut).
    assert abs(shown + more - len("FIRST LINE\n" + line * 30_000 + "HIDDEN TAIL")) < 20_000
