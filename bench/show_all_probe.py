"""Measure "show all" on a huge result: the longest UI stall and the time to show.

Usage::

    python bench/show_all_probe.py [--lines N] [--read | --one-line BYTES] [--raw]
    python bench/show_all_probe.py [--lines N] [--grep | --glob | --ls]
    python bench/show_all_probe.py --fetch BYTES | --log-line BYTES

Writes a run whose one shell call printed ``N`` lines (1,000,000 by default, as in
``bench/reliability.py``), opens it in the viewer headless at 160x50, opens the call's
detail, waits for it to load, then presses the "show all" key and waits until the whole
output is laid out. Prints, for opening the detail and for "show all", the longest gap
of a 20 ms timer on the UI thread (:class:`tests.hostile.tui.FreezeMeter`) and the time
until the text was on screen, then the lines laid out and the start of the last one.
``--one-line BYTES`` probes a result that is one long line instead, ``--read`` a file
read (highlighted code), and ``--raw`` "show all" of the raw JSON records. The texts
that fold to the screen width or are lists: ``--grep`` a grep result of ``N`` matches,
``--glob`` a file list of ``N`` files, ``--ls`` a directory listing of ``N`` entries,
``--fetch BYTES`` a fetched page of that many bytes (lines of prose that wrap), and
``--log-line BYTES`` the event log's entry view of a line of that many bytes that is
not JSON (the event log opened with ``l``, the entry with Enter).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamview.ui.calls.table import ToolCallTable
from streamview.ui.details.screen import SectionView
from streamview.ui.frame.launch import prepare_process
from streamview.ui.text.capping import RAW_KEY, SHOW_ALL_KEY
from tests.hostile import streams
from tests.hostile.tui import FreezeMeter, make_app, settled, wait_until


def read_stream(lines: int) -> Iterator[bytes]:
    """A run with one file read of ``lines`` lines of Python."""
    yield from streams._head()
    args = {"path": "big.py"}
    yield streams.dumps(streams.tool_record("started", "c1", "readToolCall", args))
    content = "".join(f"value_{n} = {n}  # line {n}\n" for n in range(lines))
    result = {"success": {"content": content, "totalLines": lines}}
    yield streams.dumps(streams.tool_record("completed", "c1", "readToolCall", args, result))
    yield from streams._tail()


def grep_stream(matches: int) -> Iterator[bytes]:
    """A run with one grep of ``matches`` matches, 100 to a file."""
    yield from streams._head()
    args = {"pattern": "value", "path": "/w", "outputMode": "content"}
    yield streams.dumps(streams.tool_record("started", "c1", "grepToolCall", args))
    files = [
        {
            "file": f"src/module_{first // 100}.py",
            "matches": [
                {"lineNumber": n + 1, "content": f"value_{n} = {n}  # match {first + n}"}
                for n in range(min(100, matches - first))
            ],
        }
        for first in range(0, matches, 100)
    ]
    content = {"matches": files, "totalLines": matches, "totalMatchedLines": matches}
    result = {"success": {"workspaceResults": {"/w": {"content": content}}}}
    yield streams.dumps(streams.tool_record("completed", "c1", "grepToolCall", args, result))
    yield from streams._tail()


def glob_stream(count: int) -> Iterator[bytes]:
    """A run with one glob that found ``count`` files."""
    yield from streams._head()
    args = {"globPattern": "**/*.py"}
    yield streams.dumps(streams.tool_record("started", "c1", "globToolCall", args))
    files = [f"src/package_{n // 1000}/module_{n}.py" for n in range(count)]
    result = {"success": {"files": files, "totalFiles": count}}
    yield streams.dumps(streams.tool_record("completed", "c1", "globToolCall", args, result))
    yield from streams._tail()


def ls_stream(count: int) -> Iterator[bytes]:
    """A run with one ls of ``count`` entries: directories of 1,000 files each."""
    yield from streams._head()
    args = {"path": "/w"}
    yield streams.dumps(streams.tool_record("started", "c1", "lsToolCall", args))
    dirs = [
        {
            "absPath": f"/w/package_{first // 1000}",
            "childrenFiles": [
                {"name": f"module_{n}.py"} for n in range(first, min(first + 999, count))
            ],
        }
        for first in range(0, count, 1000)
    ]
    result = {"success": {"directoryTreeRoot": {"absPath": "/w", "childrenDirs": dirs}}}
    yield streams.dumps(streams.tool_record("completed", "c1", "lsToolCall", args, result))
    yield from streams._tail()


def fetch_stream(size: int) -> Iterator[bytes]:
    """A run with one web fetch whose page is ``size`` bytes of Markdown prose."""
    yield from streams._head()
    args = {"url": "https://example.com/big"}
    yield streams.dumps(streams.tool_record("started", "c1", "webFetchToolCall", args))
    paragraph = "The quick brown fox jumps over the lazy dog, again and again. " * 6 + "\n\n"
    page = "# A big page\n\n" + paragraph * (size // len(paragraph))
    result = {"success": {"url": args["url"], "markdown": page}}
    yield streams.dumps(streams.tool_record("completed", "c1", "webFetchToolCall", args, result))
    yield from streams._tail()


def log_line_stream(size: int) -> Iterator[bytes]:
    """A run holding one line of ``size`` bytes that is not JSON (words and controls)."""
    yield from streams._head()
    yield b"not json \x1b]0;PWNED\x07 " + b"lorem ipsum dolor " * (size // 18) + b"\n"
    yield from streams._tail()


def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def probe(
    path: Path, what: str, timeout: float, raw: bool = False, log: bool = False
) -> dict[str, float | str]:
    """Open ``path``, the first call's detail (its raw JSON if ``raw``; with ``log`` the
    event log's first entry instead), then "show all"; return the figures."""
    app = make_app(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await settled(pilot, timeout)
        main = app.screen
        open_meter = FreezeMeter()
        open_meter.attach(app)
        started = time.perf_counter()
        if log:
            await pilot.press("l")
            await wait_until(pilot, lambda: app.screen is not main, timeout)
            log_screen = app.screen
            await pilot.press("enter")
            await wait_until(pilot, lambda: app.screen is not log_screen, timeout)
        else:
            app.post_message(ToolCallTable.OpenDetail(0))
            await wait_until(pilot, lambda: app.screen is not main, timeout)
        await wait_until(
            pilot,
            lambda: not app.screen.query(".-loading, #detail-loading, #event-entry-loading"),
            timeout,
        )
        if raw:
            await pilot.press(RAW_KEY)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), timeout)
        opened = time.perf_counter() - started
        open_stall = open_meter.longest
        view = app.screen.query_one(SectionView)
        capped = view.lines

        meter = FreezeMeter()
        meter.attach(app)
        await pilot.pause(0.1)
        started = time.perf_counter()
        await pilot.press(SHOW_ALL_KEY)
        await wait_until(
            pilot,
            lambda: (
                not app.screen.query("#detail-loading, #event-entry-loading")
                and view.sections is not None
                and view.lines is not capped
                and len(view.lines) > 0
            ),
            timeout,
        )
        shown = time.perf_counter() - started
        await pilot.pause(0.3)
        await pilot.press("end")
        await pilot.pause(0.1)
        last = view.lines[-1].text.rstrip()[:80] if view.lines else ""
        total_lines = len(view.lines)
        await pilot.press("escape")
        if log:
            await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is main, timeout)
    return {
        "output": what,
        "open: longest stall ms": round(open_stall * 1000),
        "open: time to show s": round(opened, 2),
        "show all: longest stall ms": round(meter.longest * 1000),
        "show all: time to show s": round(shown, 2),
        "lines laid out": total_lines,
        "last line": last,
        "peak RSS MB": round(_peak_rss_mb()),
    }


def main() -> None:
    """Parse the arguments, write the recording, probe it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--raw", action="store_true", help="show all of the raw JSON")
    parser.add_argument(
        "--read",
        action="store_true",
        help="instead, a file read (highlighted code) of --lines lines",
    )
    parser.add_argument(
        "--one-line",
        type=int,
        metavar="BYTES",
        help="instead, a result of one line of BYTES bytes (as the 50 MB line in the bench)",
    )
    parser.add_argument("--grep", action="store_true", help="instead, a grep of --lines matches")
    parser.add_argument("--glob", action="store_true", help="instead, a glob of --lines files")
    parser.add_argument("--ls", action="store_true", help="instead, an ls of --lines entries")
    parser.add_argument("--fetch", type=int, metavar="BYTES", help="instead, a fetched page")
    parser.add_argument(
        "--log-line", type=int, metavar="BYTES", help="instead, a line that is not JSON"
    )
    parser.add_argument("--timeout", type=float, default=300.0)
    options = parser.parse_args()
    prepare_process()  # as the viewer runs
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "output.ndjson"
        if options.read:
            records = read_stream(options.lines)
            what = f"a file read of {options.lines:,} lines"
        elif options.grep:
            records = grep_stream(options.lines)
            what = f"a grep of {options.lines:,} matches"
        elif options.glob:
            records = glob_stream(options.lines)
            what = f"a glob of {options.lines:,} files"
        elif options.ls:
            records = ls_stream(options.lines)
            what = f"an ls of {options.lines:,} entries"
        elif options.fetch:
            records = fetch_stream(options.fetch)
            what = f"a fetched page of {options.fetch:,} bytes"
        elif options.log_line:
            records = log_line_stream(options.log_line)
            what = f"the event log's line of {options.log_line:,} bytes"
        elif options.one_line:
            records = streams.huge_line_stream(options.one_line)
            what = f"one line of {options.one_line:,} bytes"
        else:
            records = streams.million_line_output_stream(options.lines)
            what = f"{options.lines:,} lines"
        streams.write_lines(path, records)
        if options.raw:
            what += ", raw JSON"
        figures = asyncio.run(
            probe(path, what, options.timeout, options.raw, log=bool(options.log_line))
        )
    for name, value in figures.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
