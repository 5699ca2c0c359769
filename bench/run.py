"""Measure streamview against the bare orjson loop, in one run, and print the table.

Usage::

    python bench/run.py                      # 10k, 100k and 1M events
    python bench/run.py --sizes 10k,100k     # fewer sizes
    python bench/run.py --quick              # one repetition, short live runs

Missing recordings are generated first with ``bench/generate.py`` (deterministic).
Every figure is measured in a fresh child process: wall time from the parent's
clock, CPU time from ``os.wait4``, peak RSS the child's own ``VmHWM`` (``child_peak.py``:
``ru_maxrss`` carries this process's peak into every child it starts). Each
ratio divides by the bare loop (``bench/bare_loop.py``: read the same file, call
``orjson.loads`` on every line) timed in the same run, on the same file, alternating
with the figure it is compared to so both see the same machine load; each side keeps
its best of the repetitions.

The figures (see ``bench/README.md`` for what each means):

1. ``streamview --json FILE`` per size: time and peak RSS.
2. The viewer opening each file, headless (``bench/tui_probe.py``): first frame,
   final state on screen, everything browsable, peak RSS.
3. Live (``bench/live_probe.py``): a producer writes into a pipe at each rate;
   latency from a line being due to its effect being on screen (p50, p99), key
   latency, and whether the viewer keeps up; five runs at each rate, the one with
   the median p99 shown, with the others' p99 beside it.
4. Start-up to the first frame on a tiny file; and the first full screen of
   ``streamview recordings/success-multi-tool.ndjson`` on a pseudo-terminal against a
   bare Textual app's one line (``bench/first_screen.py``), alternating, medians and
   their ratio.
6. Idle CPU (``bench/idle_probe.py``): the real command on a pseudo-terminal, on a
   finished file and on a silent pipe, CPU ticks over ``--idle-seconds``.
5. ``streamview --json`` on a file of each agent's dialect (``bench/dialect_streams.py``;
   Cursor's is ``bench/generate.py``'s), against the bare loop on the same file.
8. ``streamview --events FILE`` per size (one normalized JSON event per line, written
   to /dev/null): CPU time against the bare loop, judged on the median of the ratios of
   each run to the bare loop timed just before it (target 2x, issue 30.8); and its peak
   RSS on the largest file against the smallest's (target 1.2x) and the others'.
7. Playback (``bench/playback_probe.py``): the viewer opened on each file, headless;
   once browsable, the first playback key (space), a seek (``5``) and a step back
   (``,``), each until the screen shows the new position; the process's peak RSS.
8. Memory of long runs (``bench/memory_probe.py``, issue 20): ``--replay`` of the
   biggest file (first event on screen, peak RSS) and the same file through a pipe
   as fast as the viewer reads it (peak RSS).

Writes ``bench/results.json`` (everything, with the machine) and
``bench/results.md`` (the table), and puts the table into ``bench/PERFORMANCE.md``
and the README's Performance section, between their ``<!-- TABLE -->`` and
``<!-- /TABLE -->`` markers. Numbers only:
nothing here fails on timing.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import orjson
from run_measure import (
    BENCH,
    REPO,
    compile_bytecode,
    data_file,
    ensure_data,
    machine,
    median,
    parse_size,
)
from run_probes import (
    around_longest,
    bench_dialects,
    bench_events,
    bench_json,
    best_tui_run,
    events_rss,
    idle_probe,
    live_runs,
    memory_probe,
    playback_probe,
    tui_probe,
)
from run_rows import TARGET_SIZE, figure_rows, fmt, verdict

DEFAULT_SIZES = "10k,100k,1M"
RATES = (100, 1_000, 10_000)
TINY_EVENTS = 20

STARTUP_TARGET_S = 0.5
FIRST_SCREEN_RATIO_TARGET = 1.3
"""``streamview FILE``'s first full screen against a bare Textual app's (issue 21)."""
TABLE_START = "<!-- TABLE -->"
TABLE_END = "<!-- /TABLE -->"


def table(results: dict[str, Any]) -> list[list[str]]:
    """Rows of the summary table: figure, input, value, bare loop, ratio, target, verdict."""
    rows = figure_rows(results)
    screen = results.get("first_screen")
    if screen:
        bare, viewer = screen["bare"], screen["streamview"]
        ratio = screen.get("ratio_wall")
        rows.append(
            [
                "first full screen (pty, median; CPU beside)",
                f"{screen['file']} at {screen['size']}",
                f"{fmt(viewer['wall_s'], 's')} (CPU {fmt(viewer['cpu_s'], 's')})",
                f"bare Textual app: {fmt(bare['wall_s'], 's')} (CPU {fmt(bare['cpu_s'], 's')})",
                fmt(ratio, "x") + f" (CPU {fmt(screen.get('ratio_cpu'), 'x')})",
                f"≤ {FIRST_SCREEN_RATIO_TARGET}x",
                verdict(ratio, FIRST_SCREEN_RATIO_TARGET, "x")
                + f" (load {screen['load_before']:.1f})",
            ]
        )
        floor = screen.get("markdown")
        if floor:
            rows.append(
                [
                    "first screen of a bare app showing the answer as Rich Markdown",
                    "the framework's floor for this screen",
                    f"{fmt(floor['wall_s'], 's')} (CPU {fmt(floor['cpu_s'], 's')})",
                    f"bare Textual app: {fmt(bare['wall_s'], 's')}",
                    fmt(screen.get("markdown_ratio_wall"), "x")
                    + f" (streamview: {fmt(screen.get('over_markdown_wall'), 'x')} of it)",
                    "",
                    "",
                ]
            )
    startup = results.get("startup")
    if startup:
        rows.append(
            [
                "start-up to first frame",
                f"{startup['events']} lines",
                fmt(startup["first_frame_s"], "s")
                + f" (whole probe process CPU {startup['cpu_s']:.2f} s)",
                "",
                "",
                f"< {STARTUP_TARGET_S} s",
                verdict(startup["first_frame_s"], STARTUP_TARGET_S, "s"),
            ]
        )
    return rows


def markdown(results: dict[str, Any]) -> str:
    """The table as Markdown, with the machine under it."""
    head = ["figure", "input", "streamview", "bare loop", "ratio", "target", "verdict"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in table(results)]
    m = results["machine"]
    lines += [
        "",
        f"Machine: {m['cpu']}, {m['nproc']} CPUs, {m['memory_gb']} GB, {m['os']}; "
        f"Python {m['python']}, orjson {m['orjson']}, Textual {m['textual']}; "
        f"commit {m['commit']}, {m['date']}; load average {m['load_before']:.1f} "
        f"before, {m['load_after']:.1f} after.",
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=DEFAULT_SIZES, help="e.g. 10k,100k,1M (or 2500)")
    parser.add_argument("--quick", action="store_true", help="one repetition, 1 s live runs")
    parser.add_argument(
        "--repeats", type=int, help="repetitions of --json and the bare loop (default 5; 3 for 1M)"
    )
    parser.add_argument("--live-seconds", type=float, help="seconds of each live run")
    parser.add_argument(
        "--rates",
        default=",".join(map(str, RATES)),
        help="lines per second of the live runs (default %(default)s)",
    )
    parser.add_argument(
        "--live-repeats", type=int, help="live runs at each rate, the median kept (5; 1 quick)"
    )
    parser.add_argument("--data-dir", type=Path, default=BENCH / "data")
    parser.add_argument("--out", type=Path, default=BENCH / "results.json")
    parser.add_argument("--markdown", type=Path, default=BENCH / "results.md")
    parser.add_argument(
        "--performance",
        type=Path,
        action="append",
        help="a Markdown file whose table (between TABLE markers) is replaced; may be "
        "given again (default: bench/PERFORMANCE.md and the README)",
    )
    parser.add_argument(
        "--skip",
        default="",
        help="comma list of json,events,tui,live,startup,screen,dialects,idle,playback,memory",
    )
    parser.add_argument(
        "--idle-seconds", type=float, help="seconds of each idle CPU count (default 20; 2 quick)"
    )
    parser.add_argument(
        "--dialect-size", default="100k", help="events in each dialect's --json file (100k)"
    )
    parser.add_argument(
        "--dialect-repeats",
        type=int,
        help="rounds over every dialect's file, the median kept (default 3; 1 with --quick)",
    )
    parser.add_argument(
        "--dialects",
        default="",
        help="comma list of the dialects whose --json is measured (default: every one)",
    )
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.quick else 5)
    live_seconds = args.live_seconds or (1.0 if args.quick else 5.0)
    live_repeats = args.live_repeats or (1 if args.quick else 5)
    skip = {part.strip() for part in args.skip.split(",") if part.strip()}
    names = [part.strip() for part in args.sizes.split(",") if part.strip()]

    compile_bytecode()
    results: dict[str, Any] = {"machine": machine(), "json": {}, "tui": {}, "live": {}}
    files = {}
    for name in names:
        files[name] = data_file(args.data_dir, name)
        ensure_data(files[name], parse_size(name))
    tiny = data_file(args.data_dir, "tiny")
    ensure_data(tiny, TINY_EVENTS)

    def note(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if "json" not in skip:
        for name, path in files.items():
            # Three runs of the 1M file are enough (and take a minute).
            times = min(repeats, 3) if parse_size(name) >= TARGET_SIZE else repeats
            note(f"--json and bare loop on {name} ({times}x)...")
            entry = bench_json(path, times)
            entry["file_mb"] = path.stat().st_size / 1e6
            results["json"][name] = entry
    if "events" not in skip:
        results["events"] = {}
        for name, path in files.items():
            times = min(repeats, 3)
            note(f"--events and bare loop on {name} ({times}x)...")
            results["events"][name] = bench_events(path, times)
        if len(files) > 1:  # as many lines as the smallest, around the largest's longest
            small, large = min(files, key=parse_size), max(files, key=parse_size)
            note(f"--events peak RSS on {small} lines around {large}'s longest line...")
            padded, longest = around_longest(files[large], files[small])
            results["events_longest"] = {
                "small": small,
                "large": large,
                "line_bytes": longest,
                "peak_rss_mb": events_rss(padded, min(repeats, 3)),
            }
    if "tui" not in skip:
        for name, path in files.items():
            times = min(repeats, 3)
            note(f"TUI on {name} ({times}x)...")
            results["tui"][name] = best_tui_run(path, times)
    if "playback" not in skip:
        results["playback"] = {}
        for name, path in files.items():
            note(f"playback keys on {name}...")
            results["playback"][name] = playback_probe(path)
    if "memory" not in skip:
        biggest = max(files, key=parse_size)
        results["memory"] = {"size": biggest}
        for mode in ("replay", "pipe"):
            note(f"memory of long runs: {mode} of {biggest}...")
            results["memory"][mode] = memory_probe(files[biggest], mode)
    if "live" not in skip:
        live_file = max(files.values(), key=lambda p: p.stat().st_size if p.exists() else 0)
        live_file = files.get("100k", live_file)
        for rate in [int(part) for part in args.rates.split(",") if part.strip()]:
            note(f"live at {rate:,} lines/s for {live_seconds:g} s ({live_repeats}x)...")
            results["live"][str(rate)] = live_runs(live_file, rate, live_seconds, live_repeats)
        results["live_file"] = live_file.name
    if "startup" not in skip:
        note(f"start-up on a tiny file ({repeats}x)...")
        runs = [tui_probe(tiny, timeout=60.0) for _ in range(repeats)]
        results["startup"] = {
            "first_frame_s": median([r.get("first_frame_s") or float("inf") for r in runs]),
            "samples_s": [r.get("first_frame_s") for r in runs],
            "cpu_s": median([r["cpu_s"] for r in runs]),
            "events": runs[0].get("events"),
        }
    if "screen" not in skip:
        sys.path.insert(0, str(BENCH))
        from first_screen import RECORDING, compare

        screen_repeats = 2 if args.quick else max(repeats, 7)
        note(f"first full screen against a bare Textual app ({screen_repeats}x each)...")
        results["first_screen"] = compare(RECORDING, screen_repeats)
    if "idle" not in skip:
        idle_seconds = args.idle_seconds or (2.0 if args.quick else 20.0)
        # A bundled recording: it has arrival times, so the playback bar is on screen.
        recording = REPO / "recordings" / "success-multi-tool.ndjson"
        results["idle"] = {}
        for pipe in (False, True):
            mode = "silent pipe" if pipe else "finished file"
            note(f"idle CPU on a {mode} ({idle_seconds:g} s)...")
            results["idle"][mode] = idle_probe(recording, idle_seconds, pipe)
    if "dialects" not in skip:
        rounds = args.dialect_repeats or (1 if args.quick else 3)
        only = {part.strip() for part in args.dialects.split(",") if part.strip()}
        results["dialects"] = bench_dialects(
            args.data_dir, args.dialect_size, rounds, note, only=only
        )
    results["machine"]["load_after"] = os.getloadavg()[0]
    text = markdown(results)
    results["markdown"] = text
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(orjson.dumps(results, option=orjson.OPT_INDENT_2) + b"\n")
    args.markdown.write_text(text)
    for document in args.performance or (BENCH / "PERFORMANCE.md", BENCH.parent / "README.md"):
        update_table(document, text)
    print(text)
    return 0


def update_table(path: Path, text: str) -> None:
    """Put ``text`` between the ``<!-- TABLE -->`` markers of ``path``, if it has them."""
    if not path.is_file():
        return
    document = path.read_text()
    start, end = document.find(TABLE_START), document.find(TABLE_END)
    if start < 0 or end < start:
        return
    path.write_text(document[: start + len(TABLE_START)] + "\n" + text + document[end:])


if __name__ == "__main__":
    raise SystemExit(main())
