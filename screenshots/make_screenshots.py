"""Build the SVG screenshots in ``screenshots/`` from the bundled ``recordings/``.

Run from the repository root::

    python screenshots/make_screenshots.py

Every picture uses a fixed clock, so running it twice gives the same files. The viewer
is driven headless (``App.run_test``) exactly as a user would drive it: the recording
is read through the normal feed, keys are pressed, and the screen is exported.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from textual.pilot import Pilot  # noqa: E402

from streamview.sources.base import FileSource, Source  # noqa: E402
from streamview.ui.calls.table import ToolCallTable  # noqa: E402
from streamview.ui.frame.app import StreamviewApp  # noqa: E402
from streamview.ui.playback.feed import PlaybackFeed  # noqa: E402
from streamview.ui.text import highlight  # noqa: E402

RECORDINGS = REPO / "recordings"
FIXTURES = REPO / "tests" / "fixtures" / "dialects"
REAL_CAPTURE = (
    REPO.parent
    / "shared"
    / "samples"
    / "cursor-real"
    / "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"
)
"""A real capture of the Cursor CLI (kept outside the repository; skipped when absent)."""
OUT = REPO / "screenshots"
SIZE = (100, 32)
NOW_MS = 1_789_644_720_000


class Clock:
    """A wall clock moved by hand."""

    def __init__(self, now: int = NOW_MS) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


class Frozen(Source):
    """A live source that delivers some bytes, then stays silent until stopped."""

    live = True

    def __init__(self, data: bytes) -> None:
        self.label = "stdin"
        self.data = data

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """The bytes, then silence."""
        yield self.data
        while not stop.is_set():
            stop.wait(0.05)


Step = Callable[[Pilot[Any]], Awaitable[None]]


async def until(pilot: Pilot[Any], condition: Callable[[], bool]) -> None:
    """Let the app run until ``condition()`` holds."""
    for _ in range(500):
        if condition():
            break
        await pilot.pause(0.02)
    else:
        raise RuntimeError("the viewer never reached the state to photograph")
    await pilot.pause(0.1)


async def shoot(app: StreamviewApp, name: str, ready: Step, size: tuple[int, int] = SIZE) -> Path:
    """Run ``app`` headless, wait for ``ready``, save ``screenshots/<name>.svg``."""
    async with app.run_test(size=size) as pilot:
        await ready(pilot)
        await pilot.pause()
        path = Path(app.save_screenshot(filename=f"{name}.svg", path=str(OUT)))
    print(f"wrote {path.relative_to(REPO)}")
    return path


def finished(app: StreamviewApp) -> Step:
    """Wait until the whole file is shown."""

    async def ready(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.state.ended)

    return ready


def file_app(name: str, **options: Any) -> StreamviewApp:
    """The viewer on a recording, with the fixed clock."""
    return StreamviewApp(FileSource(RECORDINGS / name), clock=Clock(), **options)


def playback_app(path: Path) -> tuple[StreamviewApp, PlaybackFeed]:
    """The viewer as ``streamview FILE`` opens it: with the playback bar and keys."""
    source = FileSource(path)
    feed = PlaybackFeed(source, playing=False, speed=1.0, idle_limit=None)
    return StreamviewApp(source, feed=feed, clock=feed.recorded_now_ms), feed


def first_call_line(lines: list[bytes], kind: str) -> int:
    """Index of the line where the first ``kind`` tool call starts."""
    for index, line in enumerate(lines):
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue
        if (
            record.get("type") == "tool_call"
            and record.get("subtype") == "started"
            and f"{kind}ToolCall" in record.get("tool_call", {})
        ):
            return index
    raise LookupError(kind)


async def main() -> None:
    """Write every screenshot."""
    # A picture shows the settled screen: code in colour from the first frame, not
    # plain while its lexer is built on a thread, whichever finishes first.
    highlight.DEFER = False
    OUT.mkdir(exist_ok=True)
    # The viewer keeps the filter and theme a person chose: the pictures must not pick
    # up this machine's choices, nor leave theirs behind.
    os.environ["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="streamview-shots-")

    app = file_app("success-multi-tool.ndjson")
    await shoot(app, "success", finished(app))

    app = file_app("success-multi-tool.ndjson", theme="textual-light")
    await shoot(app, "success-light", finished(app))

    lines = (RECORDINGS / "success-multi-tool.ndjson").read_bytes().splitlines(keepends=True)
    cut = first_call_line(lines, "shell") + 1
    clock = Clock()
    live = StreamviewApp(Frozen(b"".join(lines[:cut])), clock=clock)

    async def in_progress(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: live.state.counts.total >= cut)
        clock.now += 14_000  # quiet for 14 s: the status says so, the timer runs
        live.tick()

    await shoot(live, "in-progress", in_progress)

    app = file_app("failure-no-result.ndjson")
    await shoot(app, "failure", finished(app))

    app = file_app("denied-tools.ndjson")
    await shoot(app, "denied", finished(app))

    app = file_app("success-multi-tool.ndjson")

    async def edit_detail(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.state.ended)
        session = app.state.sessions[-1]
        edit = next(call for call in session.tool_calls if call.kind == "edit")
        table = app.query_one(ToolCallTable)
        table.focus()
        table.select_call(edit.index)
        await pilot.press("enter")
        await pilot.pause(0.5)

    await shoot(app, "detail-edit", edit_detail)

    app = file_app("success-multi-tool.ndjson")
    await shoot(app, "wide", finished(app), size=(180, 50))

    app, feed = playback_app(RECORDINGS / "long-run.ndjson")

    async def paused_half_way(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.state.ended)
        await pilot.press("5")  # to 50 % of the run's time, paused there
        await until(pilot, lambda: feed.loaded and not app.state.ended)
        await pilot.pause(0.5)

    await shoot(app, "playback", paused_half_way)

    app = StreamviewApp(FileSource(FIXTURES / "claude" / "success-tools.jsonl"), clock=Clock())
    await shoot(app, "claude-code", finished(app))

    app = StreamviewApp(FileSource(FIXTURES / "codex" / "every-kind.jsonl"), clock=Clock())
    await shoot(app, "codex", finished(app))

    app = StreamviewApp(FileSource(FIXTURES / "gemini" / "success-tools.jsonl"), clock=Clock())
    await shoot(app, "gemini", finished(app))

    app = file_app("success-multi-tool.ndjson")

    async def searched(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.state.ended)
        await pilot.press("slash", *"jitter", "enter")
        await until(pilot, lambda: bool(app.call_hits))

    await shoot(app, "search", searched)

    app = file_app("long-run.ndjson")

    async def filtered(pilot: Pilot[Any]) -> None:
        await until(pilot, lambda: app.state.ended)
        await pilot.press("tab", "F")  # the tool calls, then only the failed ones
        await until(pilot, lambda: "failed" in str(app.tool_table.border_title))

    await shoot(app, "filter", filtered)

    if REAL_CAPTURE.is_file():
        app = StreamviewApp(FileSource(REAL_CAPTURE), clock=Clock())
        await shoot(app, "real-capture", finished(app))


if __name__ == "__main__":
    asyncio.run(main())
