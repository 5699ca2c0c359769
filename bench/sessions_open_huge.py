"""A 2 GB Claude Code session opened (``--json`` and the viewer): is its memory bounded?

Usage::

    python bench/sessions_open_huge.py [--copies 10] [--megabytes 200] [--keep DIR]
        [--skip-viewer]

Writes ``bench/sessions_open.py``'s session of ``--megabytes`` (one run of the Claude
generator in the session envelope) and a file of ``--copies`` of it one after another,
each copy's ``uuid`` and tool ids renamed (``u3-…``, ``toolu3_…``) so that the tree and
the calls stay whole: a session of about 2 GB, every byte real records, no branch.
Then, in a fresh process each: ``streamview FILE --json`` on the small one and on the
big one (wall time and peak RSS, the child's own ``VmHWM``: ``child_peak.py``), and
``bench/tui_probe.py`` on both (the viewer, 120x40, headless: time until the final
state is on screen, peak RSS). Bounded means the big one's memory is not ten times the
small one's. Prints one JSON object; the files are deleted at the end unless ``--keep``.
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

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from child_peak import peak_command, split_peak  # noqa: E402
from sessions_list import print_result  # noqa: E402
from sessions_open import probe, write_files  # noqa: E402


def write_big(small: Path, big: Path, copies: int) -> None:
    """``copies`` of ``small`` one after another, each with its own ids."""
    data = small.read_bytes()
    with big.open("wb") as out:
        for copy in range(copies):
            renamed = data.replace(b'"u-', b'"u%d-' % copy)
            out.write(renamed.replace(b'"toolu_', b'"toolu%d_' % copy))


def as_json(path: Path) -> dict[str, Any]:
    """``streamview FILE --json`` in a fresh process: wall seconds, peak RSS."""
    began = time.monotonic()
    child = subprocess.Popen(
        peak_command(sys.executable, "streamview", str(path), "--json"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    said, peak = split_peak(child.communicate()[1])
    error = said[-500:]
    return {
        "wall_s": round(time.monotonic() - began, 2),
        "peak_rss_mb": round(peak / 1024, 1) if peak is not None else None,
        "exit": child.returncode,
        **({"error": error} if child.returncode else {}),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=10)
    parser.add_argument("--megabytes", type=float, default=200.0)
    parser.add_argument("--keep", type=Path, help="write (or reuse) the files here, keep them")
    parser.add_argument("--skip-viewer", action="store_true", help="only --json")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="streamview-session-huge-"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        small = folder / "session.jsonl"
        if not small.exists():
            write_files(folder, args.megabytes)
        big = folder / f"session-x{args.copies}.jsonl"
        if not big.exists():
            write_big(small, big, args.copies)
        load_before = os.getloadavg()[0]
        result: dict[str, Any] = {}
        for name, path in (("small", small), ("big", big)):
            result[name] = {"bytes": path.stat().st_size, "json": as_json(path)}
            if not args.skip_viewer:
                result[name]["viewer"] = probe(path)
        small_rss = result["small"]["json"]["peak_rss_mb"]
        result["json_rss_ratio"] = round(result["big"]["json"]["peak_rss_mb"] / small_rss, 2)
        print_result(result, load_before)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
