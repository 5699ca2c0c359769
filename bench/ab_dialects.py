"""Two trees of streamview against the bare loop, each dialect's ``--json``, alternated.

Usage::

    python bench/ab_dialects.py --base /path/to/old/checkout [--runs 5]
        [--data-dir bench/data] [--dialects kimi,amp] [--events]

For each dialect (its ``<dialect>_100k.ndjson`` in ``--data-dir``, as ``bench/run.py``
writes them; Cursor's is ``events_100k.ndjson``), ``--runs`` rounds of: the bare loop,
the base tree's ``--json``, this tree's ``--json``, each a fresh process. Prints a
Markdown row per dialect with the least CPU (user + system, ``wait4``) of each and both
ratios. The least of alternated runs is what tells two trees apart on a shared machine:
the bench table's median of three moves by a fifth between two runs of one tree on the
small files. ``--events`` measures ``--events`` instead of ``--json``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
DIALECTS = "cursor,pi,goose,claude,qwen,gemini,copilot,cline,kilo,opencode,codex,droid,amp,kimi"


def cpu_seconds(command: list[str], tree: Path | None) -> float:
    """CPU (user + system) of ``command`` run to its end, with ``tree`` first on the path."""
    env = dict(os.environ)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    child = subprocess.Popen(
        command,
        cwd=tree or BENCH,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
    return usage.ru_utime + usage.ru_stime


def bench_file(data_dir: Path, dialect: str) -> Path | None:
    """The dialect's bench file in ``data_dir`` (Cursor's is ``events_100k.ndjson``); if
    it is missing, a table row that says so, and ``None``."""
    name = "events" if dialect == "cursor" else dialect
    path = data_dir / f"{name}_100k.ndjson"
    if not path.is_file():
        print(f"| {dialect} | no {path} (bench/run.py writes it) |", flush=True)
        return None
    return path


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--data-dir", type=Path, default=BENCH / "data")
    parser.add_argument("--dialects", default=DIALECTS)
    parser.add_argument("--events", action="store_true", help="--events, not --json")
    args = parser.parse_args(argv)
    mode = "--events" if args.events else "--json"
    python = sys.executable
    print("| dialect | bare loop | base | this | ratio base | ratio this | change |")
    print("|---|---|---|---|---|---|---|")
    for dialect in args.dialects.split(","):
        path = bench_file(args.data_dir, dialect)
        if path is None:
            continue
        bare, base, this = [], [], []
        for _ in range(args.runs):
            bare.append(cpu_seconds([python, str(BENCH / "bare_loop.py"), str(path)], None))
            run = [python, "-m", "streamview", mode, str(path)]
            base.append(cpu_seconds(run, args.base.resolve()))
            this.append(cpu_seconds(run, REPO))
        b, old, new = min(bare), min(base), min(this)
        print(
            f"| {dialect} | {b:.3f} s | {old:.3f} s | {new:.3f} s | {old / b:.2f}x | "
            f"{new / b:.2f}x | {100 * (new - old) / old:+.1f} % |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
