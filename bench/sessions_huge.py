"""A 2 GB session file in ``streamview sessions``: what listing it costs.

Usage::

    python bench/sessions_huge.py [--gigabytes 2]

Writes, under ``/tmp`` (deleted at the end), a Claude Code session of ``--gigabytes``:
its first 8 MB and last 8 MB real records (``tests/fixtures/sessions/claude``), the
middle a hole (a sparse file: no disk, and nothing discovery reads). Then, in a fresh
process each, ``streamview sessions --json`` lists the home holding it and a home
holding a 2 MB session, side by side; prints their wall times and peak RSS (the
child's own ``VmHWM``, ``child_peak.py``). Bounded means the two are alike.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from child_peak import peak_command, split_peak

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
SOURCE = REPO / "tests" / "fixtures" / "sessions" / "claude" / "tool_heavy.jsonl"


def write_session(path: Path, size: int) -> None:
    """A session of ``size`` bytes: real records at both ends, a hole between."""
    body = SOURCE.read_bytes()
    end = min(8 << 20, size // 2)
    chunk = body * max(1, end // len(body))
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        out.write(chunk[:end][: chunk[:end].rfind(b"\n") + 1])
        out.seek(size - end - 1)
        out.write(b"\n" + chunk[:end][: chunk[:end].rfind(b"\n") + 1][-(end - 1) :])
        out.truncate(size)


def listed(root: Path) -> dict[str, Any]:
    """``streamview sessions --json`` on the home under ``root``: seconds, peak RSS."""
    env = {
        **os.environ,
        "PYTHONPATH": str(REPO),
        "HOME": str(root),
        "CLAUDE_CONFIG_DIR": str(root / "claude"),
        "XDG_CACHE_HOME": str(root / "cache"),
        "XDG_STATE_HOME": str(root / "state"),
    }
    began = time.monotonic()
    child = subprocess.Popen(
        peak_command(sys.executable, "streamview", "sessions", "--json"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=REPO,
    )
    out, said = child.communicate()
    wall = time.monotonic() - began
    _, peak = split_peak(said)
    assert peak is not None, said
    run = orjson.loads(out.splitlines()[0])
    return {
        "wall_s": round(wall, 3),
        "peak_rss_mb": round(peak / 1024, 1),
        "size": run["size"],
        "title": run["title"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gigabytes", type=float, default=2.0)
    args = parser.parse_args(argv)
    root = Path(tempfile.mkdtemp(prefix="streamview-sessions-huge-"))
    try:
        small, huge = root / "small", root / "huge"
        write_session(small / "claude" / "projects" / "-work" / "small.jsonl", 2 << 20)
        write_session(
            huge / "claude" / "projects" / "-work" / "huge.jsonl", int(args.gigabytes * (1 << 30))
        )
        result = {"small": listed(small), "huge": listed(huge)}
        result["huge_disk_mb"] = round(
            (huge / "claude" / "projects" / "-work" / "huge.jsonl").stat().st_blocks
            * 512
            / (1 << 20),
            1,
        )
        print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode())
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
