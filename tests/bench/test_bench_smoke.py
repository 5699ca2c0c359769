"""The benchmark runs end to end on a tiny input and writes a valid results file.

No timing is asserted: the numbers depend on the machine. What must hold is that
the one documented command still works as the code under it changes.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

REPO = Path(__file__).resolve().parents[2]


def test_quick_run_writes_every_figure(tmp_path: Path) -> None:
    """``bench/run.py --quick`` on 1,000 events fills every section of results.json."""
    out = tmp_path / "results.json"
    table = tmp_path / "results.md"
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "run.py"),
            "--quick",
            "--sizes",
            "1k",
            "--live-seconds",
            "0.5",
            "--dialect-size",
            "1k",
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
    json_entry = results["json"]["1k"]
    assert json_entry["bare"]["wall_s"] > 0
    assert json_entry["json"]["wall_s"] > 0
    assert json_entry["json"]["peak_rss_mb"] > 0
    tui = results["tui"]["1k"]
    assert tui["timed_out"] is False
    assert tui["events"] > 1_000
    assert tui["first_frame_s"] <= tui["final_state_s"]
    playback = results["playback"]["1k"]
    assert playback.get("error") is None and playback["timed_out"] is False
    assert playback["first_key_s"] > 0 and playback["seek_s"] > 0 and playback["step_back_s"] > 0
    assert playback["peak_rss_mb"] > 0
    assert "playback first key" in table.read_text()
    assert set(results["idle"]) == {"finished file", "silent pipe"}
    for idle in results["idle"].values():
        assert idle["seconds"] > 0 and idle["ticks"] >= 0
    assert "idle CPU" in table.read_text()
    assert set(results["live"]) == {"100", "1000", "10000"}
    for live in results["live"].values():
        # How many lines reach the screen in time depends on the machine: only
        # check that the probe saw the viewer paint some of them.
        assert 0 < live["shown"] <= live["lines"]
        assert live["latency_ms"]["p50"] is not None
    assert results["startup"]["first_frame_s"] > 0
    screen = results["first_screen"]
    # Both programs reached their full screen on a pseudo-terminal, every time.
    assert screen["bare"]["timed_out"] == 0 and screen["streamview"]["timed_out"] == 0
    assert screen["bare"]["wall_s"] > 0 and screen["ratio_wall"] > 0
    assert "first full screen" in table.read_text()
    from streamview.core.dialects import DIALECTS

    # One --json line per registered dialect (each needs a generator).
    assert set(results["dialects"]) == {dialect.name for dialect in DIALECTS}
    for name, entry in results["dialects"].items():
        # Kimi CLI's stream has no final record: it reads as incomplete, so exits 1.
        assert entry["json"]["exit_codes"] == [1 if name == "kimi" else 0], name
        assert entry["bare"]["wall_s"] > 0
    assert results["machine"]["nproc"] >= 1
    assert "| figure |" in table.read_text()
    assert table.read_text() == results["markdown"]
