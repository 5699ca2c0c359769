"""One export run as a user runs it, in a child process: its wall time and peak RSS.

Shared by ``bench/html_export.py``, ``bench/cast_export.py`` and ``bench/ci_summary.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from child_peak import peak_command, split_peak

REPO = Path(__file__).resolve().parents[1]


def export_child(recording: Path, options: list[str]) -> tuple[float, int]:
    """``(wall seconds, peak RSS bytes)`` of ``python -m streamview RECORDING OPTIONS``;
    exit status 0 or 1 (a run that failed is still exported), anything else stops."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    began = time.perf_counter()
    child = subprocess.Popen(
        peak_command(sys.executable, "streamview", str(recording), *options),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    said, peak = split_peak(child.communicate()[1])
    wall = time.perf_counter() - began
    if child.returncode not in (0, 1) or peak is None:
        raise SystemExit(f"{' '.join(options)} failed with status {child.returncode}: {said}")
    return wall, peak * 1024
