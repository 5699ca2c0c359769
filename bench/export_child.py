"""One export run as a user runs it, in a child process: its wall time and peak RSS.

Shared by ``bench/html_export.py``, ``bench/cast_export.py`` and ``bench/ci_summary.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def export_child(recording: Path, options: list[str]) -> tuple[float, int]:
    """``(wall seconds, peak RSS bytes)`` of ``python -m streamview RECORDING OPTIONS``;
    exit status 0 or 1 (a run that failed is still exported), anything else stops."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    began = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-m", "streamview", str(recording), *options],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
    wall = time.perf_counter() - began
    if os.waitstatus_to_exitcode(status) not in (0, 1):
        raise SystemExit(f"{' '.join(options)} failed with status {status}")
    return wall, usage.ru_maxrss * 1024
