"""The benchmark runs end to end on a tiny input and writes a valid results file.

No timing is asserted: the numbers depend on the machine. What must hold is that
the one documented command still works as the code under it changes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

REPO = Path(__file__).resolve().parents[2]


FIGURES = (
    *("json", "events", "dialects", "tui", "playback", "memory"),
    *("startup", "live", "idle", "screen"),
)
GROUPS = {
    "outputs": ("json", "events"),
    "dialects": ("dialects",),
    "viewer": ("tui", "playback"),
    "viewer's memory": ("memory", "startup"),
    "live": ("live",),
    "idle": ("idle",),
    "screen": ("screen",),
}
"""The figures, a few per test: the whole quick run took 50 s on a busy machine, and
three figures to a test up to 23 s in a fresh-clone round at load 5 (issue 30.7)."""


def quick_run(
    tmp_path: Path,
    figures: tuple[str, ...],
    sizes: str = "1k",
    rates: str = "100,1000,10000",
    dialects: str = "",
) -> tuple[Any, str]:
    """``bench/run.py --quick`` on ``sizes`` with only ``figures``: (results.json, table)."""
    out = tmp_path / "results.json"
    table = tmp_path / "results.md"
    skip = ",".join(f for f in FIGURES if f not in figures)
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "run.py"),
            "--quick",
            "--sizes",
            sizes,
            "--skip",
            skip,
            "--live-seconds",
            "0.5",
            "--rates",
            rates,
            "--dialect-size",
            "1k",
            "--dialects",
            dialects,
            "--data-dir",
            str(tmp_path / "data"),
            "--out",
            str(out),
            "--markdown",
            str(table),
            "--performance",
            str(tmp_path / "PERFORMANCE.md"),
        ],
        cwd=REPO,
        capture_output=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    results = orjson.loads(out.read_bytes())
    text = table.read_text()
    assert results["machine"]["nproc"] >= 1
    assert "| figure |" in text
    assert text == results["markdown"]
    return results, text


def test_every_figure_is_in_one_group() -> None:
    assert sorted(f for group in GROUPS.values() for f in group) == sorted(FIGURES)


def test_quick_run_of_the_outputs_side_by_side(tmp_path: Path) -> None:
    """``--json`` and ``--events`` against the bare loop, in one table, with
    ``--events``' peak RSS on the larger file against the smaller's."""
    results, table = quick_run(tmp_path, GROUPS["outputs"], sizes="1k,2k")
    json_entry = results["json"]["1k"]
    assert json_entry["bare"]["wall_s"] > 0
    assert json_entry["json"]["wall_s"] > 0
    assert json_entry["json"]["peak_rss_mb"] > 0
    assert set(results["events"]) == {"1k", "2k"}
    assert "| `--events` time (CPU) | 1k |" in table
    events = results["events"]["1k"]
    assert len(events["pairs_cpu"]) == 1 and events["ratio_cpu_median"] > 0
    assert "| `--events` peak RSS | 2k vs 1k |" in table
    # And a window of the larger file as long as the smaller, around its longest line
    # (the generated 10k file has no multi-MB line, the 1M file has: the row above
    # compares those lines as much as the runs' lengths).
    same = results["events_longest"]
    data = tmp_path / "data"
    small, large = (next(data.glob(f"*{size}.ndjson")) for size in ("_1k", "_2k"))
    lines = large.read_bytes().splitlines(keepends=True)
    longest = max(lines, key=len)
    window = small.with_name(f"{small.stem}_around_longest{small.suffix}").read_bytes()
    assert (same["small"], same["large"], same["line_bytes"]) == ("1k", "2k", len(longest))
    assert longest in window and window in b"".join(lines)
    assert window.count(b"\n") == small.read_bytes().count(b"\n")
    assert same["peak_rss_mb"] > 0
    mb = len(longest) / 1e6
    said = f"2k vs 1k lines of it (around its {mb:.1f} MB line)"
    assert f"| `--events` peak RSS, the same longest line | {said} |" in table


def stream_dialects() -> list[str]:
    """Every registered stream dialect (each needs a generator in the bench)."""
    from streamview.core.dialects import DIALECTS, SESSION_FILES

    return sorted(dialect.name for dialect in DIALECTS if dialect.name not in SESSION_FILES)


@pytest.mark.parametrize("half", [0, 1])
def test_quick_run_of_every_dialect_side_by_side(tmp_path: Path, half: int) -> None:
    """Every stream dialect's ``--json`` against the bare loop on its own file; half
    of them per test (all fourteen took 18.5 s beside another copy of the suite)."""
    names = stream_dialects()[half::2]
    results, table = quick_run(tmp_path, GROUPS["dialects"], dialects=",".join(names))
    # One --json line per dialect asked for, and only those.
    assert sorted(results["dialects"]) == names
    for name, entry in results["dialects"].items():
        # Kimi CLI's stream has no final record: it reads as incomplete, so exits 1.
        assert entry["json"]["exit_codes"] == [1 if name == "kimi" else 0], name
        assert entry["bare"]["wall_s"] > 0
        # Rounds over every dialect side by side, each row their median (one, quick).
        assert entry["statistic"] == "median of 1", name
        assert len(entry["json"]["samples_cpu_s"]) == len(entry["bare"]["samples_cpu_s"]) == 1
        assert f"| `--json` time, {name} | 1k, median of 1 |" in table


def test_quick_run_of_the_viewer(tmp_path: Path) -> None:
    results, table = quick_run(tmp_path, GROUPS["viewer"])
    tui = results["tui"]["1k"]
    assert tui["timed_out"] is False
    assert tui["events"] > 1_000
    assert tui["first_frame_s"] <= tui["final_state_s"]
    playback = results["playback"]["1k"]
    assert playback.get("error") is None and playback["timed_out"] is False
    assert playback["first_key_s"] > 0 and playback["seek_s"] > 0 and playback["step_back_s"] > 0
    assert playback["peak_rss_mb"] > 0
    assert "playback first key" in table


def test_quick_run_of_the_viewers_memory_and_start_up(tmp_path: Path) -> None:
    results, _ = quick_run(tmp_path, GROUPS["viewer's memory"])
    assert set(results["memory"]) >= {"replay", "pipe"}
    assert results["startup"]["first_frame_s"] > 0


@pytest.mark.parametrize("rates", ["100,1000", "10000"])
def test_quick_run_live(tmp_path: Path, rates: str) -> None:
    results, _ = quick_run(tmp_path, GROUPS["live"], rates=rates)
    assert set(results["live"]) == set(rates.split(","))
    for live in results["live"].values():
        # How many lines reach the screen in time depends on the machine: only
        # check that the probe saw the viewer paint some of them.
        assert 0 < live["shown"] <= live["lines"]
        assert live["latency_ms"]["p50"] is not None


def test_quick_run_idle(tmp_path: Path) -> None:
    results, table = quick_run(tmp_path, GROUPS["idle"])
    assert set(results["idle"]) == {"finished file", "silent pipe"}
    for idle in results["idle"].values():
        assert idle["seconds"] > 0 and idle["ticks"] >= 0
    assert "idle CPU" in table


def test_quick_run_of_the_first_screen(tmp_path: Path) -> None:
    results, table = quick_run(tmp_path, GROUPS["screen"])
    screen = results["first_screen"]
    # Both programs reached their full screen on a pseudo-terminal, every time.
    assert screen["bare"]["timed_out"] == 0 and screen["streamview"]["timed_out"] == 0
    assert screen["bare"]["wall_s"] > 0 and screen["ratio_wall"] > 0
    assert "first full screen" in table
