"""Parts of the reliability campaign that drive the viewer, headless, each run in a fresh
process (``bench/reliability.py --drive``): huge inputs, pathological Markdown, heavy
answers live through a pipe, mutated real captures."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import orjson

from bench.reliability_report import Part, size_text
from tests.hostile import streams
from tests.hostile.helpers import cli_env, command, real_captures
from tests.hostile.mutate import expected_total, mutate

CAMPAIGN = Path(__file__).resolve().with_name("reliability.py")
"""The script whose ``--drive`` runs one viewer case in a fresh process."""

REPO = Path(__file__).resolve().parents[1]


# -- 5. Scale and the viewer --------------------------------------------------------------

SCALE: dict[str, tuple[str, Callable[[], Iterator[bytes]]]] = {
    "line-50mb": ("a 50 MB line (shell output)", lambda: streams.huge_line_stream(50_000_000)),
    "output-1m": (
        "a shell result of 1,000,000 lines",
        lambda: streams.million_line_output_stream(1_000_000),
    ),
    "answer-10mb": (
        "a 10 MB answer in 1,000 deltas",
        lambda: streams.big_answer_stream(10_000_000),
    ),
    "calls-10k": ("10,000 tool calls", lambda: streams.many_calls_stream(10_000)),
    "sessions-100": ("100 sessions in one file", lambda: streams.many_sessions_stream(100)),
    "odd-lines-20mb": (
        "a 20 MB line that is not JSON and an unknown record of 20 million characters",
        lambda: streams.huge_odd_lines_stream(20_000_000),
    ),
}


async def drive_viewer(path: Path, detail: bool, timeout: float) -> dict[str, float]:
    """Open ``path`` headless, press keys, open a detail view, quit; return timings."""
    from streamview.ui.calls.table import ToolCallTable
    from streamview.ui.details.screen import SectionView
    from streamview.ui.text.capping import SHOW_ALL_KEY
    from tests.hostile.tui import FreezeMeter, make_app, screen_problems, settled, wait_until

    shown_all = 0.0

    started = time.perf_counter()
    app = make_app(path)
    meter = FreezeMeter()
    async with app.run_test(size=(160, 50)) as pilot:
        meter.attach(app)
        await settled(pilot, timeout)
        loaded = time.perf_counter() - started
        for key in ("end", "pagedown", "pageup", "home", "t", "t"):
            await pilot.press(key)
            await pilot.pause()
        index = app.session_index
        if detail and index is not None and app.state.sessions[index].tool_calls:
            main = app.screen
            app.post_message(ToolCallTable.OpenDetail(0))
            await wait_until(pilot, lambda: app.screen is not main, timeout)
            await wait_until(pilot, lambda: not app.screen.query("#detail-loading"), timeout)
            if app.screen.check_action("show_all", ()):
                # The result was cut for display: ask for all of it, as a user would.
                view = app.screen.query_one(SectionView)
                cut = len(view.lines)
                await pilot.press(SHOW_ALL_KEY)
                await wait_until(
                    pilot,
                    lambda: not app.screen.query("#detail-loading") and len(view.lines) > cut,
                    timeout,
                )
                shown_all = float(len(view.lines))
            await pilot.press("end")
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is main, timeout)
        await pilot.press("l")
        await pilot.pause(0.1)
        problems = screen_problems(app, svg=False)
        await pilot.press("escape")
        counts = app.state.counts
        expected = expected_total(path.read_bytes())
    return {
        "loaded": loaded,
        "total": time.perf_counter() - started,
        "freeze": meter.longest,
        "problems": len(problems),
        "counts_ok": float(counts.total == expected),
        "shown_all": shown_all,
    }


def in_own_process(kind: str, what: str, detail: str, timeout: float) -> dict[str, float]:
    """Drive the viewer in a fresh process, as a user runs it, and return its figures.

    One process for the whole campaign grew a heap of earlier cases' objects, and a
    full collection of it stalled later cases for up to 0.6 s: a stall no user sees.
    """
    done = subprocess.run(
        [sys.executable, str(CAMPAIGN), "--drive", kind, what, detail, str(timeout)],
        capture_output=True,
        cwd=REPO,
        timeout=timeout + 60,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.decode(errors="replace")[-2000:])
    figures: dict[str, float] = orjson.loads(done.stdout.splitlines()[-1])
    return figures


def drive(kind: str, what: str, detail: str, timeout: str) -> None:
    """``--drive``: one viewer run in this process; print its figures as JSON."""
    from streamview.ui.frame.launch import prepare_process

    prepare_process()
    if kind == "live":
        figures = asyncio.run(drive_live(live_cases()[what][1], float(timeout)))
    else:
        figures = asyncio.run(drive_viewer(Path(what), detail == "detail", float(timeout)))
    sys.stdout.write(orjson.dumps(figures).decode() + "\n")


def part_scale(part: Part, workdir: Path, names: list[str]) -> None:
    for name in names:
        label, make = SCALE[name]
        path = workdir / f"{name}.ndjson"
        streams.write_lines(path, make())
        size = path.stat().st_size
        started = time.perf_counter()
        done = subprocess.run(
            command("--json", str(path)), capture_output=True, env=cli_env(), cwd=REPO
        )
        json_seconds = time.perf_counter() - started
        if done.returncode != 0 or b"Traceback" in done.stderr:
            part.fail(f"{name} --json: exit {done.returncode} {done.stderr[-300:]!r}")
        try:
            figures = in_own_process("viewer", str(path), "detail", timeout=600)
        except Exception as error:
            part.fail(f"{name} in the viewer: {type(error).__name__}: {error}")
            continue
        if figures["problems"] or not figures["counts_ok"]:
            part.fail(f"{name}: {figures}")
        show_all = (
            f' ("show all": {figures["shown_all"]:,.0f} lines)' if figures["shown_all"] else ""
        )
        part.add(
            f"{label} ({size_text(size)} file)",
            f"--json {json_seconds:.1f}s; viewer loaded in {figures['loaded']:.1f}s, keys, detail"
            f" view{show_all} and event log, quit: {figures['total']:.1f}s in all; longest UI"
            f" stall {figures['freeze'] * 1000:.0f} ms",
        )
        path.unlink()


def part_markdown(part: Part, workdir: Path) -> None:
    for name, markdown in streams.pathological_markdown().items():
        path = workdir / f"md-{name}.ndjson"
        path.write_bytes(streams.markdown_stream(markdown))
        try:
            figures = in_own_process("viewer", str(path), "", timeout=600)
        except Exception as error:
            part.fail(f"markdown {name}: {type(error).__name__}: {error}")
            continue
        if figures["problems"]:
            part.fail(f"markdown {name}: unsafe characters on screen")
        part.add(
            f"Markdown answer: {name} ({size_text(len(markdown))})",
            f"shown in {figures['loaded']:.1f}s,"
            f" longest UI stall {figures['freeze'] * 1000:.0f} ms",
        )


LIVE_RATE = 1_000
"""Lines per second the live cases are written at (a fast agent; most write far fewer)."""


def live_cases() -> dict[str, tuple[str, list[bytes]]]:
    """Answers streamed live, by name: (what it is, the lines)."""
    markdown = streams.pathological_markdown()

    def split(data: bytes) -> list[bytes]:
        return data.splitlines(keepends=True)

    return {
        "answer-2mb": (
            "a 2 MB answer in 2,000 deltas",
            list(streams.big_answer_stream(2_000_000, deltas=2_000)),
        ),
        "unclosed-fence": (
            "the 120 KB unclosed code fence in 1,000 deltas",
            split(streams.markdown_stream(markdown["unclosed-fence"], deltas=1_000)),
        ),
        "big-table": (
            "the 2,000-row table in 1,000 deltas",
            split(streams.markdown_stream(markdown["big-table"], deltas=1_000)),
        ),
    }


async def drive_live(lines: list[bytes], timeout: float) -> dict[str, float]:
    """Stream ``lines`` through a pipe into the viewer at :data:`LIVE_RATE`; return timings."""
    from tests.hostile.tui import FreezeMeter, PacedPipe, make_app, screen_problems, settled

    pipe = PacedPipe(lines, per_second=LIVE_RATE)
    app = make_app(pipe.source())
    meter = FreezeMeter()
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            meter.attach(app)
            pipe.start()
            await settled(pilot, timeout)
            shown = time.perf_counter() - (pipe.finished_at or time.perf_counter())
            problems = screen_problems(app, svg=False)
            counted = app.state.counts.total
            await pilot.press("q")
    finally:
        pipe.close()
    return {
        "streaming": len(lines) / LIVE_RATE,
        "shown": shown,
        "freeze": meter.longest,
        "problems": len(problems),
        "counts_ok": float(counted == len(lines)),
    }


def part_live(part: Part) -> None:
    for name, (label, _lines) in live_cases().items():
        try:
            figures = in_own_process("live", name, "", timeout=600)
        except Exception as error:
            part.fail(f"live {name}: {type(error).__name__}: {error}")
            continue
        if figures["problems"] or not figures["counts_ok"]:
            part.fail(f"live {name}: {figures}")
        part.add(
            f"{label}, live through a pipe at {LIVE_RATE:,} lines/s, the view following",
            f"{figures['streaming']:.1f}s of streaming; laid out {figures['shown']:.1f}s after"
            f" the last line; longest UI stall {figures['freeze'] * 1000:.0f} ms",
        )


def part_app_fuzz(part: Part, workdir: Path, count: int) -> None:
    captures = real_captures()
    if not captures:
        part.fail("real captures folder absent")
        return
    rng = random.Random(6)
    held = 0
    longest = 0.0
    for n in range(count):
        data, names = mutate(rng.choice(captures).read_bytes(), rng, rng.randint(1, 8))
        path = workdir / f"mutated-{n}.ndjson"
        path.write_bytes(data)
        try:
            figures = in_own_process("viewer", str(path), "detail", timeout=120)
            ok = figures["counts_ok"] and not figures["problems"]
            longest = max(longest, figures["freeze"])
        except Exception as error:
            ok = False
            part.fail(f"mutated capture {n} ({', '.join(names)}): {type(error).__name__}: {error}")
        held += bool(ok)
        path.unlink()
    part.add(
        f"{count} mutated real captures opened headless (keys, first tool call's detail,"
        " event log, quit)",
        f"{held} with no exception, counts adding up and nothing unsafe on screen;"
        f" longest UI stall {longest * 1000:.0f} ms",
    )
