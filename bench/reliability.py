"""The reliability campaign: hostile input, faults, scale and fuzzing, with figures.

Usage::

    python bench/reliability.py            # the whole campaign (several minutes)
    python bench/reliability.py --quick    # smaller counts, for a smoke run
    python bench/reliability.py --markdown bench/RELIABILITY.md

It runs the same checks as ``tests/hostile/`` with much larger counts and prints what
was tried and what held, as Markdown, ready for the README's "Reliability" section.
Every failure is listed with what it was; the exit status is 1 if anything failed.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.reliability_input import part_input  # noqa: E402
from bench.reliability_run import part_run_control  # noqa: E402
from bench.reliability_runs import part_runs  # noqa: E402
from streamview.core.sanitize import UNSAFE_CHARS, clean, one_line  # noqa: E402
from tests.hostile import streams  # noqa: E402
from tests.hostile.checks import check_stream  # noqa: E402
from tests.hostile.corpus import ALL_TEXT, CORPUS  # noqa: E402
from tests.hostile.helpers import cli_env, command, real_captures  # noqa: E402
from tests.hostile.mutate import MUTATIONS, chunked, expected_total, mutate  # noqa: E402

UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")
SGR = re.compile(r"\x1b\[[0-9;:]*m")


@dataclass
class Part:
    """One part of the campaign and its figures."""

    title: str
    rows: list[tuple[str, str]] = field(default_factory=list)
    """(what was tried, what held) lines."""
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, tried: str, held: str) -> None:
        """Note one figure."""
        self.rows.append((tried, held))
        print(f"  {tried}: {held}", flush=True)

    def fail(self, what: str) -> None:
        """Note one failure."""
        self.failures.append(what)
        print(f"  FAILED: {what}", flush=True)


def timed(run: Callable[[Part], None], title: str) -> Part:
    """Run one part, catching anything it raises as a failure."""
    part = Part(title)
    print(f"\n## {title}", flush=True)
    started = time.perf_counter()
    try:
        run(part)
    except Exception:
        part.fail(f"the campaign itself raised: {traceback.format_exc(limit=3)}")
    part.seconds = time.perf_counter() - started
    return part


# -- 1. Sanitizer -------------------------------------------------------------------------


def random_hostile_text(rng: random.Random) -> str:
    """Text, corpus sequences, random code points and fragments glued together."""
    pieces = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.35:
            pieces.append(rng.choice(CORPUS).text)
        elif roll < 0.55:
            pieces.append("".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(1, 6))))
        elif roll < 0.75:
            pieces.append("".join(rng.choice("\x1b[];0123456789m?\x07\\\r\n\t") for _ in range(5)))
        else:
            pieces.append(rng.choice(["hello ", "日本語 ", "🙂", "\u200d", "\t", "\n", "—"]))
    return "".join(pieces)


def part_sanitizer(part: Part, count: int) -> None:
    rng = random.Random(1)
    bad = 0
    for _ in range(count):
        text = random_hostile_text(rng)
        for out in (clean(text), SGR.sub("", clean(text, keep_sgr=True)), one_line(text)):
            if UNSAFE.search(out) is not None:
                bad += 1
                if bad <= 5:
                    part.fail(f"unsafe output for {text!r}")
    families = {"line": "separator", "paragraph": "separator", "lone": "surrogate"}
    prefixes = (s.name.split("-")[0] for s in CORPUS)
    kinds = Counter(
        families.get(m, "OSC" if m.startswith("osc") else m.upper() if len(m) <= 3 else m)
        for m in prefixes
    )
    part.add(
        f"corpus: {len(CORPUS)} named sequences ("
        + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        + ")",
        "every one made inert alone, between text, repeated (tests/hostile/test_sanitize.py)",
    )
    part.add(
        f"{count:,} random strings (corpus pieces, random code points, escape fragments)"
        " through clean, clean(keep_sgr) and one_line",
        f"{bad} outputs with an unsafe character",
    )
    plain = "hello world, some `code` and text — 日本語\n" * 250_000
    ansi = "\x1b[32mPASSED\x1b[0m tests/test_x.py::test_%d\r\n" * 200_000
    for label, text in (("plain text", plain), ("ANSI-coloured CRLF output", ansi)):
        started = time.perf_counter()
        clean(text)
        seconds = time.perf_counter() - started
        part.add(
            f"clean() speed on {len(text) / 1e6:.0f} MB of {label}",
            f"{len(text) / 1e6 / seconds:,.0f} MB/s",
        )


# -- 2. Core fuzzing ------------------------------------------------------------------------


def part_fuzz(part: Part, count: int) -> None:
    captures = [p.read_bytes() for p in real_captures()]
    if not captures:
        part.fail("real captures folder absent: ../shared/samples/cursor-real")
        return
    rng = random.Random(2)
    applied: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    bytes_seen = 0
    failures = 0
    for n in range(count):
        data, names = mutate(rng.choice(captures), rng, rng.randint(1, 8))
        applied.update(names)
        chunks = chunked(data, rng, rng.randint(1, 60))
        bytes_seen += len(data)
        try:
            counts = check_stream(chunks)
            totals.update(counts)
        except Exception as error:
            failures += 1
            if failures <= 5:
                part.fail(f"input {n} ({', '.join(names)}): {type(error).__name__}: {error}")
    part.add(
        f"{count:,} mutated real captures ({len(captures)} captures; "
        f"{sum(applied.values()):,} mutations of {len(MUTATIONS)} kinds), each cut into "
        "1-60 random chunks, folded as --print and --json do",
        f"{failures} raised or broke an invariant",
    )
    part.add(
        f"{totals['total']:,} lines, {bytes_seen / 1e6:.1f} MB",
        f"{totals['events']:,} events + {totals['malformed']:,} malformed + "
        f"{totals['unknown']:,} unknown = {totals['total']:,}: every non-blank line accounted for",
    )
    part.add("mutation kinds", ", ".join(f"{k} {v:,}" for k, v in sorted(applied.items())))
    # Orderings: every capture's lines shuffled.
    shuffles = 0
    for _ in range(count // 4):
        lines = rng.choice(captures).split(b"\n")
        rng.shuffle(lines)
        data = b"\n".join(lines)
        try:
            check_stream(chunked(data, rng, rng.randint(1, 10)))
            shuffles += 1
        except Exception as error:
            part.fail(f"shuffled capture: {type(error).__name__}: {error}")
    part.add(f"{count // 4:,} real captures in random line order", f"{shuffles:,} held")
    blobs = 0
    for _ in range(count // 4):
        blob = os.urandom(rng.randint(0, 4000))
        try:
            check_stream(chunked(blob, rng, rng.randint(1, 10)))
            blobs += 1
        except Exception as error:
            part.fail(f"random bytes: {type(error).__name__}: {error}")
    part.add(f"{count // 4:,} inputs of random bytes", f"{blobs:,} held")


# -- 3. Hostile output through the real command ------------------------------------------


def part_print(part: Part, workdir: Path) -> None:
    path = workdir / "hostile.ndjson"
    parts = [
        streams.hostile_stream(f"<{s.name}>{s.text}</{s.name}>", session=f"s-{n}")
        for n, s in enumerate(CORPUS)
    ]
    parts.append(streams.hostile_stream(ALL_TEXT, session="s-all"))
    path.write_bytes(b"".join(parts))
    for mode in ("--print", "--json"):
        done = subprocess.run(
            command(mode, str(path)), capture_output=True, env=cli_env(), cwd=REPO, timeout=300
        )
        text = done.stdout.decode("utf-8", "replace")
        found = len(UNSAFE.findall(text))
        if done.returncode != 0 or found or b"Traceback" in done.stderr:
            part.fail(f"{mode}: exit {done.returncode}, {found} unsafe characters")
        part.add(
            (
                f"`{mode}` on {len(CORPUS) + 1} sessions, each sequence in all 35 string fields"
                " (init, prompt, thinking, answer, tool kinds, args, outputs, errors, call ids,"
                " approvals, notices, unknown records, result) and 4 kinds of malformed line"
            )
            if mode == "--print"
            else "`--json` on the same file",
            f"{len(done.stdout):,} bytes out, {found} unsafe characters, exit {done.returncode}",
        )
    md, svg = workdir / "out.md", workdir / "out.svg"
    done = subprocess.run(
        command("--export-markdown", str(md), "--export-svg", str(svg), str(path)),
        capture_output=True,
        env=cli_env(),
        cwd=REPO,
        timeout=300,
    )
    if done.returncode == 0 and md.exists() and svg.exists():
        from hostile.safety import unsafe_in_svg

        found = len(UNSAFE.findall(md.read_text("utf-8"))) + len(
            unsafe_in_svg(svg.read_text("utf-8"))
        )
        part.add("`--export-markdown` and `--export-svg` of the same file", f"{found} unsafe")
        if found:
            part.fail("exports hold unsafe characters")
    else:
        part.fail(f"exports: exit {done.returncode}: {done.stderr[-300:]!r}")


# -- 4. Faults ------------------------------------------------------------------------------


def _run_bytes() -> bytes:
    lines = [
        streams.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "M"}),
        streams.dumps(streams.text_message("user", "go", session_id="s")),
    ]
    for n in range(200):
        call = f"c{n}"
        args = {"command": f"echo {n}"}
        lines.append(streams.dumps(streams.tool_record("started", call, "shellToolCall", args)))
        result = {"success": {"exitCode": 0, "interleavedOutput": f"{n}\n"}}
        lines.append(
            streams.dumps(streams.tool_record("completed", call, "shellToolCall", args, result))
        )
    return b"".join(lines)


def part_faults(part: Part, workdir: Path, rounds: int) -> None:
    data = _run_bytes()
    rng = random.Random(4)
    # Producer killed at a random byte: everything before is shown, the rest reported.
    held = 0
    for _ in range(rounds):
        cut = rng.randrange(1, len(data))
        sent = data[:cut]
        done = subprocess.run(
            command("--json"), input=sent, capture_output=True, env=cli_env(), cwd=REPO
        )
        ok = done.returncode == 1 and b"Traceback" not in done.stderr
        if ok:
            lines = orjson.loads(done.stdout)["lines"]
            ok = lines["total"] == expected_total(sent)
        held += ok
        if not ok:
            part.fail(f"input cut at byte {cut}: exit {done.returncode} {done.stderr[-200:]!r}")
    part.add(
        f"{rounds} runs cut at a random byte (producer killed mid-line), `--json` from a pipe",
        f"{held} gave exit 1, valid JSON, every received line counted",
    )
    # SIGPIPE: the reader leaves after a random number of bytes.
    big = workdir / "big.ndjson"
    streams.write_lines(big, streams.many_calls_stream(5_000))
    clean_exits = 0
    for _ in range(rounds):
        keep = rng.choice([1, 10, 100, 1000, 100_000])
        mode = rng.choice(["--print", "--json"])
        shell = (
            f"{' '.join(command(mode, str(big)))} | head -c {keep} >/dev/null;"
            ' echo "status=${PIPESTATUS[0]}" >&2'
        )
        done = subprocess.run(["bash", "-c", shell], capture_output=True, env=cli_env(), cwd=REPO)
        err = done.stderr.decode()
        ok = "status=0" in err and "Traceback" not in err and "Exception" not in err
        clean_exits += ok
        if not ok:
            part.fail(f"SIGPIPE {mode} after {keep} bytes: {err[-300:]}")
    part.add(
        f"{rounds} runs of `--print`/`--json file | head -c N` (N = 1 B to 100 KB)",
        f"{clean_exits} exited 0 with no traceback",
    )
    # Recording that cannot be written.
    blocker = workdir / "a-file"
    blocker.write_bytes(b"")
    targets = [Path("/dev/full"), blocker / "rec.ndjson", workdir / "no" / "dir" / "rec.ndjson"]
    honest = 0
    for target in targets:
        done = subprocess.run(
            command("--print", "--record", str(target)),
            input=data + streams.dumps({"type": "result", "subtype": "success"}),
            capture_output=True,
            env=cli_env(),
            cwd=REPO,
        )
        err = done.stderr.decode()
        ok = (
            done.returncode == 0
            and str(target) in err
            and "Traceback" not in err
            and done.stdout.count(b"\n") > 400
        )
        honest += ok
        if not ok:
            part.fail(f"recording to {target}: exit {done.returncode}: {err[-300:]}")
    part.add(
        "recording to /dev/full (disk full), under a file, into a missing directory",
        f"{honest}/{len(targets)}: one clear message naming the file, the run still shown, exit 0",
    )
    part.add(
        "also covered by tests/hostile/test_faults.py, test_tui_live.py, test_tui_faults.py,"
        " tests/replay/test_recording.py",
        "producer SIGKILLed mid-line (recording keeps every complete line), stdin closed at once"
        " and after init, silence then resume (2 s in `--print`; five minutes in the viewer,"
        " which shows the idle time and the open call), `--follow` file appended, truncated,"
        " replaced by rename, deleted and re-created, unreadable inputs, 200 KB of random"
        " bytes, the viewer resized from 1x1 to 300x100 while a pipe streams, recording to a"
        " full disk while the viewer runs (one notification, the run still shown), a"
        " read-only file system from the start or from the third line on (EROFS, simulated:"
        " root ignores permissions here; the lines before stay whole)",
    )


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
        [sys.executable, __file__, "--drive", kind, what, detail, str(timeout)],
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


# -- Report ---------------------------------------------------------------------------------


def cell(text: str) -> str:
    """Text for a Markdown table cell: a ``|`` would end the cell, even in code."""
    return text.replace("|", "\\|")


def size_text(size: int) -> str:
    """``50 MB``, ``120 KB``."""
    return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size / 1e3:,.0f} KB"


def markdown_report(parts: list[Part], seconds: float, quick: bool) -> str:
    """The README section."""
    out = [
        "## Reliability",
        "",
        "A viewer for agent output reads text written by a model and by the commands it ran."
        " streamview treats every byte of it as hostile: nothing from the stream reaches the"
        " terminal as a control sequence, no input makes it crash or drop a line, and large"
        " inputs stay responsive.",
        "",
        f"Figures from `python bench/reliability.py{' --quick' if quick else ''}`"
        f" ({seconds / 60:.1f} min on {os.cpu_count()} shared cores; a UI stall is the longest"
        " time a 20 ms timer of the viewer waited, so other load on the machine adds to it;"
        " each viewer run is a fresh process with the viewer's own settings, as a user runs"
        " it)."
        " The same checks, with smaller counts, run in `pytest tests/hostile`"
        " (about 3 minutes; `-m 'not slow'` leaves out the big inputs: about 80 s).",
        "",
    ]
    for part in parts:
        out += [f"### {part.title}", "", "| tried | held |", "|---|---|"]
        out += [f"| {cell(tried)} | {cell(held)} |" for tried, held in part.rows]
        if part.failures:
            out += ["", "**Failures:**", ""] + [f"- {f}" for f in part.failures]
        out.append("")
    return "\n".join(out)


PARTS = (
    "safety",
    "print",
    "fuzz",
    "faults",
    "scale",
    "markdown",
    "live",
    "viewer",
    "runs",
    "run",
    "input",
)
"""The campaign's parts, in the order they run (``--only`` picks some)."""


def main(argv: list[str] | None = None) -> int:
    """Run the campaign; print the Markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="small counts, a smoke run")
    parser.add_argument("--markdown", type=Path, help="also write the report to this file")
    parser.add_argument("--drive", nargs=4, help=argparse.SUPPRESS)
    parser.add_argument("--only", help="comma-separated parts to run: " + ", ".join(PARTS))
    args = parser.parse_args(argv)
    if args.drive:
        drive(*args.drive)
        return 0
    quick = args.quick
    only = set(args.only.split(",")) if args.only else set(PARTS)
    if only - set(PARTS):
        parser.error(f"unknown part: {', '.join(sorted(only - set(PARTS)))}")
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="streamview-reliability-") as tmp:
        workdir = Path(tmp)
        runs: dict[str, tuple[Callable[[Part], None], str]] = {
            "safety": (lambda p: part_sanitizer(p, 2_000 if quick else 200_000), "Terminal safety"),
            "print": (lambda p: part_print(p, workdir), "Hostile text through the real command"),
            "fuzz": (lambda p: part_fuzz(p, 200 if quick else 20_000), "Fuzzing the core"),
            "faults": (lambda p: part_faults(p, workdir, 3 if quick else 30), "Faults"),
            "scale": (
                lambda p: part_scale(
                    p, workdir, ["calls-10k", "sessions-100"] if quick else list(SCALE)
                ),
                "Scale",
            ),
            "markdown": (lambda p: part_markdown(p, workdir), "Pathological Markdown"),
            "live": (part_live, "Heavy answers, live"),
            "viewer": (
                lambda p: part_app_fuzz(p, workdir, 3 if quick else 40),
                "Fuzzing the viewer",
            ),
            "runs": (
                lambda p: part_runs(p, workdir, 6 if quick else 24),
                "Recorded runs: at once, a full disk, a failing agent, file modes",
            ),
            "run": (
                lambda p: part_run_control(p, workdir, 2 if quick else 5),
                "Run mode: signals, lingering children, a closed output",
            ),
            "input": (
                lambda p: part_input(p, workdir, 1 if quick else 5),
                "Replaced files and endless input (issue 20)",
            ),
        }
        parts = [timed(run, title) for name, (run, title) in runs.items() if name in only]
    seconds = time.perf_counter() - started
    report = markdown_report(parts, seconds, quick)
    print("\n" + report)
    if args.markdown:
        args.markdown.write_text(report + "\n", encoding="utf-8")
    return 1 if any(part.failures for part in parts) else 0


if __name__ == "__main__":
    raise SystemExit(main())
