"""Each figure of ``bench/run.py``, measured in fresh children: ``--json`` and
``--events`` against the bare loop, the headless viewer, playback keys, memory of long
runs, live runs at a rate, idle CPU, and ``--json`` on every agent's dialect."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from run_measure import BENCH, REPO, Run, child_json, dialect_file, measure, median


def bench_json(path: Path, repeats: int) -> dict[str, Any]:
    """``streamview --json`` against the bare loop, alternating, ``repeats`` times each.

    Both sides keep their best (smallest) time: on a shared machine other jobs only ever
    add time, so the minimum is the closest to each program's own cost.
    """
    bare: list[Run] = []
    json_runs: list[Run] = []
    for _ in range(repeats):
        bare.append(measure([sys.executable, str(BENCH / "bare_loop.py"), str(path)]))
        json_runs.append(measure([sys.executable, "-m", "streamview", "--json", str(path)]))
    bare_wall = min(r.wall_s for r in bare)
    bare_cpu = min(r.cpu_s for r in bare)
    json_wall = min(r.wall_s for r in json_runs)
    json_cpu = min(r.cpu_s for r in json_runs)
    return {
        "bare": {
            "wall_s": bare_wall,
            "cpu_s": bare_cpu,
            "peak_rss_mb": max(r.peak_rss_mb for r in bare),
            "samples_wall_s": [r.wall_s for r in bare],
        },
        "json": {
            "wall_s": json_wall,
            "cpu_s": json_cpu,
            "peak_rss_mb": max(r.peak_rss_mb for r in json_runs),
            "samples_wall_s": [r.wall_s for r in json_runs],
            "exit_codes": sorted({r.returncode for r in json_runs}),
        },
        "ratio_wall": json_wall / bare_wall,
        "ratio_cpu": json_cpu / bare_cpu,
    }


def bench_events(path: Path, repeats: int) -> dict[str, Any]:
    """``streamview --events`` against the bare loop, alternating; each side's best time,
    and the median of the ratios of each pair (a run and the bare loop just before it:
    on a noisy machine the two of a pair see about the same load)."""
    bare: list[Run] = []
    runs: list[Run] = []
    for _ in range(repeats):
        bare.append(measure([sys.executable, str(BENCH / "bare_loop.py"), str(path)]))
        runs.append(measure([sys.executable, "-m", "streamview", "--events", str(path)]))
    bare_wall = min(r.wall_s for r in bare)
    bare_cpu = min(r.cpu_s for r in bare)
    wall = min(r.wall_s for r in runs)
    cpu = min(r.cpu_s for r in runs)
    pairs_cpu = [run.cpu_s / loop.cpu_s for run, loop in zip(runs, bare, strict=True)]
    pairs_wall = [run.wall_s / loop.wall_s for run, loop in zip(runs, bare, strict=True)]
    return {
        "bare": {
            "wall_s": bare_wall,
            "cpu_s": bare_cpu,
            "peak_rss_mb": max(r.peak_rss_mb for r in bare),
        },
        "events": {
            "wall_s": wall,
            "cpu_s": cpu,
            "peak_rss_mb": max(r.peak_rss_mb for r in runs),
            "samples_wall_s": [r.wall_s for r in runs],
            "samples_cpu_s": [r.cpu_s for r in runs],
            "samples_rss_mb": [r.peak_rss_mb for r in runs],
            "exit_codes": sorted({r.returncode for r in runs}),
        },
        "ratio_wall": wall / bare_wall,
        "ratio_cpu": cpu / bare_cpu,
        "pairs_cpu": pairs_cpu,
        "pairs_wall": pairs_wall,
        "ratio_cpu_median": median(pairs_cpu),
        "ratio_wall_median": median(pairs_wall),
    }


def around_longest(large: Path, small: Path) -> tuple[Path, int]:
    """As many lines as ``small`` holds, taken from ``large`` around its longest line,
    written beside ``small``.

    The generated files below 100k events hold no multi-MB line; the larger ones hold
    3.3 MB tool results. A peak RSS of 1M events against 10k then compares a 3.3 MB
    line with none, not a long run with a short one: this window of the large file holds
    the same longest line, in the same place of its run, and is as long as ``small``.

    Returns:
        The file written, and the length of its longest line.
    """
    count = small.read_bytes().count(b"\n")
    longest, at = 0, 0
    with large.open("rb") as file:
        for index, line in enumerate(file):
            if len(line) > longest:
                longest, at = len(line), index
    first = max(0, at - count // 2)
    out = small.with_name(f"{small.stem}_around_longest{small.suffix}")
    with large.open("rb") as file, out.open("wb") as window:
        for index, line in enumerate(file):
            if index >= first + count:
                break
            if index >= first:
                window.write(line)
    return out, longest


def events_rss(path: Path, repeats: int) -> float:
    """``streamview --events``' peak RSS on ``path`` (MB, the largest of ``repeats`` runs)."""
    runs = [
        measure([sys.executable, "-m", "streamview", "--events", str(path)]) for _ in range(repeats)
    ]
    return max(run.peak_rss_mb for run in runs)


def tui_probe(path: Path, timeout: float) -> dict[str, Any]:
    """One headless viewer run on ``path``; times are from the child's launch."""
    t0 = time.monotonic()
    run = measure(
        [
            sys.executable,
            str(BENCH / "tui_probe.py"),
            str(path),
            "--t0",
            repr(t0),
            "--timeout",
            str(timeout),
        ],
        capture=True,
        timeout=timeout + 60,
    )
    result = child_json(run)
    result["wall_s"] = run.wall_s
    result["cpu_s"] = run.cpu_s
    result["peak_rss_mb"] = run.peak_rss_mb
    result["returncode"] = run.returncode
    return result


def best_tui_run(path: Path, times: int) -> dict[str, Any]:
    """The viewer's run on ``path`` that reached its final state soonest, of ``times``.

    Like the bare loop's best time it is compared with: load only ever adds time.
    The peak RSS is the largest of all runs; every run's times are kept.
    """
    runs = [tui_probe(path, timeout=300.0) for _ in range(times)]
    best = min(runs, key=lambda run: run.get("final_state_s") or float("inf"))
    best["peak_rss_mb"] = max(run["peak_rss_mb"] for run in runs)
    best["samples_final_state_s"] = [run.get("final_state_s") for run in runs]
    return best


def playback_probe(path: Path, timeout: float = 300.0) -> dict[str, Any]:
    """``bench/playback_probe.py`` on ``path`` in a fresh child: keys timed, peak RSS."""
    run = measure(
        [sys.executable, str(BENCH / "playback_probe.py"), str(path), "--timeout", str(timeout)],
        capture=True,
        timeout=timeout * 2 + 60,
    )
    result = child_json(run)
    result["peak_rss_mb"] = run.peak_rss_mb
    result["returncode"] = run.returncode
    return result


def memory_probe(path: Path, mode: str, timeout: float = 600.0) -> dict[str, Any]:
    """``bench/memory_probe.py`` on ``path`` (``--replay`` or ``--pipe``), fresh child."""
    command = [sys.executable, str(BENCH / "memory_probe.py"), str(path), f"--{mode}"]
    run = measure([*command, "--timeout", str(timeout)], capture=True, timeout=timeout + 60)
    result = child_json(run)
    result["peak_rss_mb"] = run.peak_rss_mb
    result["returncode"] = run.returncode
    return result


def live_probe(path: Path, rate: int, seconds: float) -> dict[str, Any]:
    """One live run at ``rate`` lines per second."""
    run = measure(
        [
            sys.executable,
            str(BENCH / "live_probe.py"),
            str(path),
            "--rate",
            str(rate),
            "--seconds",
            str(seconds),
        ],
        capture=True,
        timeout=seconds + 120,
    )
    result = child_json(run)
    result["peak_rss_mb"] = run.peak_rss_mb
    result["returncode"] = run.returncode
    return result


def live_runs(path: Path, rate: int, seconds: float, times: int) -> dict[str, Any]:
    """``times`` live runs at ``rate``; the one with the median p99 stands for them.

    One 5 s run's p99 at 1,000 lines/s is its 50th worst line: a single pause of the
    shared machine decides it. The median of a few runs says what the viewer does;
    the others' p99 and key p99 are kept beside it (``p99_runs_ms``, ``key_p99_runs_ms``).
    """
    runs = [live_probe(path, rate, seconds) for _ in range(times)]

    def p99(run: dict[str, Any]) -> float:
        value = run.get("latency_ms", {}).get("p99")
        return float("inf") if value is None else float(value)

    ordered = sorted(runs, key=p99)
    chosen = dict(ordered[len(ordered) // 2])  # of an even count, the worse middle one
    chosen["p99_runs_ms"] = [run.get("latency_ms", {}).get("p99") for run in runs]
    chosen["key_p99_runs_ms"] = [run.get("key_ms", {}).get("p99") for run in runs]
    chosen["keeps_up"] = all(run.get("keeps_up") for run in runs)
    return chosen


def idle_probe(path: Path, seconds: float, pipe: bool) -> dict[str, Any]:
    """``bench/idle_probe.py`` on ``path`` in a fresh process: the viewer's idle CPU."""
    command = [sys.executable, str(BENCH / "idle_probe.py"), str(path), "--seconds", str(seconds)]
    run = measure([*command, "--pipe"] if pipe else command, capture=True, timeout=180.0)
    return child_json(run)


def bench_dialects(
    data_dir: Path,
    size: str,
    repeats: int,
    note: Any,
    only: frozenset[str] | set[str] = frozenset(),
) -> dict[str, dict[str, Any]]:
    """``--json`` against the bare loop on a file of every dialect a generator exists for.

    Side by side: each round runs every dialect once (the bare loop, then ``--json``, on
    its file), so every row sees the same load; a row keeps the median of its rounds.
    Its ratio is the median of each round's own ratio (``--json`` over the bare loop
    run just before it), which a burst of load on the machine moves less than a ratio
    of two medians. ``only``: these dialects (every one when empty).
    """
    sys.path.insert(0, str(REPO))
    sys.path.insert(0, str(BENCH))
    from dialect_streams import GENERATORS

    from streamview.core.dialects import DIALECTS

    unknown = sorted(only - {dialect.name for dialect in DIALECTS})
    if unknown:
        raise SystemExit(f"bench/run.py: no dialect named {', '.join(unknown)}")
    paths: dict[str, Path] = {}
    for dialect in DIALECTS:
        if only and dialect.name not in only:
            continue
        if dialect.name != "cursor" and dialect.name not in GENERATORS:
            note(f"no generator for {dialect.name}: add one to bench/dialect_streams.py")
            continue
        paths[dialect.name] = dialect_file(data_dir, dialect.name, size)
    runs: dict[str, tuple[list[Run], list[Run]]] = {name: ([], []) for name in paths}
    for round_ in range(repeats):
        note(
            f"--json and bare loop on every dialect's {size} file,"
            f" round {round_ + 1} of {repeats}..."
        )
        for name, path in paths.items():
            bare, json_runs = runs[name]
            bare.append(measure([sys.executable, str(BENCH / "bare_loop.py"), str(path)]))
            json_runs.append(measure([sys.executable, "-m", "streamview", "--json", str(path)]))
    measured: dict[str, dict[str, Any]] = {}
    for name, (bare, json_runs) in runs.items():
        pairs = list(zip(bare, json_runs, strict=True))
        measured[name] = {
            "bare": {
                "wall_s": median([r.wall_s for r in bare]),
                "cpu_s": median([r.cpu_s for r in bare]),
                "peak_rss_mb": max(r.peak_rss_mb for r in bare),
                "samples_wall_s": [r.wall_s for r in bare],
                "samples_cpu_s": [r.cpu_s for r in bare],
            },
            "json": {
                "wall_s": median([r.wall_s for r in json_runs]),
                "cpu_s": median([r.cpu_s for r in json_runs]),
                "peak_rss_mb": max(r.peak_rss_mb for r in json_runs),
                "samples_wall_s": [r.wall_s for r in json_runs],
                "samples_cpu_s": [r.cpu_s for r in json_runs],
                "exit_codes": sorted({r.returncode for r in json_runs}),
            },
            "ratio_wall": median([j.wall_s / b.wall_s for b, j in pairs]),
            "ratio_cpu": median([j.cpu_s / b.cpu_s for b, j in pairs]),
            "statistic": f"median of {len(bare)}",
            "file_mb": paths[name].stat().st_size / 1e6,
            "size": size,
        }
    return measured
