"""Measure "show all" on a huge shell result: the longest UI stall and the time to show.

Usage::

    python bench/show_all_probe.py [--lines N] [--read | --one-line BYTES] [--raw]

Writes a run whose one shell call printed ``N`` lines (1,000,000 by default, as in
``bench/reliability.py``), opens it in the viewer headless at 160x50, opens the call's
detail, waits for it to load, then presses the "show all" key and waits until the whole
output is laid out. Prints, for opening the detail and for "show all", the longest gap
of a 20 ms timer on the UI thread (:class:`tests.hostile.tui.FreezeMeter`) and the time
until the text was on screen, then the lines laid out and the start of the last one.
``--one-line BYTES`` probes a result that is one long line instead, ``--read`` a file
read (highlighted code), and ``--raw`` "show all" of the raw JSON records.
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

from streamview.ui import payload_view
from streamview.ui.detail import SectionView
from streamview.ui.tool_table import ToolCallTable
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


def _peak_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def probe(path: Path, what: str, timeout: float, raw: bool = False) -> dict[str, float | str]:
    """Open ``path``, the first call's detail (its raw JSON if ``raw``), then "show
    all"; return the figures."""
    app = make_app(path)
    async with app.run_test(size=(160, 50)) as pilot:
        await settled(pilot, timeout)
        main = app.screen
        open_meter = FreezeMeter()
        open_meter.attach(app)
        started = time.perf_counter()
        app.post_message(ToolCallTable.OpenDetail(0))
        await wait_until(pilot, lambda: app.screen is not main, timeout)
        await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), timeout)
        if raw:
            await pilot.press(payload_view.RAW_KEY)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), timeout)
        opened = time.perf_counter() - started
        open_stall = open_meter.longest
        view = app.screen.query_one(SectionView)
        capped = view.lines

        meter = FreezeMeter()
        meter.attach(app)
        await pilot.pause(0.1)
        started = time.perf_counter()
        await pilot.press(payload_view.SHOW_ALL_KEY)
        await wait_until(
            pilot,
            lambda: (
                not app.screen.query("#detail-loading")
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
    parser.add_argument("--timeout", type=float, default=300.0)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "output.ndjson"
        if options.read:
            records = read_stream(options.lines)
            what = f"a file read of {options.lines:,} lines"
        elif options.one_line:
            records = streams.huge_line_stream(options.one_line)
            what = f"one line of {options.one_line:,} bytes"
        else:
            records = streams.million_line_output_stream(options.lines)
            what = f"{options.lines:,} lines"
        streams.write_lines(path, records)
        if options.raw:
            what += ", raw JSON"
        figures = asyncio.run(probe(path, what, options.timeout, options.raw))
    for name, value in figures.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
