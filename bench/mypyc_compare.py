"""CPU of ``streamview --json``/``--events``, pure Python against a mypyc build, in one run.

Usage::

    python bench/mypyc_compare.py PURE_ROOT COMPILED_ROOT [--data-dir DIR] [--rounds N]
        [--only kimi,codex,...]

``PURE_ROOT`` and ``COMPILED_ROOT`` are checkouts (the directory holding ``streamview/``);
each run imports streamview from one of them through ``PYTHONPATH``. Every round runs, per
dialect, ``bare, pure, bare, compiled`` (``bare`` is ``bench/bare_loop.py``, the orjson
loop), so both builds are measured against a bare loop timed right beside them on the same
busy machine. The CPU of each child (user + system, from ``os.wait4``) is what counts; the
ratio is the median over the rounds. ``events`` is the Cursor stream, run with ``--json``
and once more with ``--events``. Both builds' output (stdout and stderr) must be the
same byte for byte, or the run stops: a compiled build that crashes is fast. Also times
``streamview --version`` and the import of the fold (``streamview.core.reader``).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATASETS = ("kimi", "codex", "claude", "events", "amp")


def cpu(argv: list[str], root: str | None, out: str = os.devnull) -> float:
    """CPU seconds (user + system) the child spent running ``argv``, its output in ``out``."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if root is None:
        env.pop("PYTHONPATH", None)
    else:
        env["PYTHONPATH"] = root
    with open(out, "wb") as sink:  # cwd /tmp: ``python -m`` puts the cwd before PYTHONPATH
        child = subprocess.Popen(argv, stdout=sink, stderr=sink, cwd="/tmp", env=env)
        _, status, usage = os.wait4(child.pid, 0)
    if os.WIFSIGNALED(status) or os.WEXITSTATUS(status) > 1:  # 1: the run did not succeed
        raise SystemExit(f"{argv} failed ({status})")
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pure")
    parser.add_argument("compiled")
    parser.add_argument("--data-dir", default=str(HERE / "data"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default=",".join(DATASETS))
    args = parser.parse_args()
    py = sys.executable
    bare = str(HERE / "bare_loop.py")
    runs: list[tuple[str, str, str]] = []
    for name in args.only.split(","):
        path = str(Path(args.data_dir) / f"{name}_100k.ndjson")
        runs.append((f"{name} --json", "--json", path))
        if name == "events":
            runs.append(("events --events", "--events", path))
    ratios: dict[str, tuple[list[float], list[float]]] = {k: ([], []) for k, _, _ in runs}
    version: tuple[list[float], list[float]] = ([], [])
    imports: tuple[list[float], list[float]] = ([], [])
    outs = ("/tmp/mypyc_compare_pure.out", "/tmp/mypyc_compare_compiled.out")
    differ: set[str] = set()
    for _ in range(args.rounds):
        for key, flag, path in runs:
            b1 = cpu([py, bare, path], None)
            p = cpu([py, "-m", "streamview", flag, path], args.pure, outs[0])
            b2 = cpu([py, bare, path], None)
            c = cpu([py, "-m", "streamview", flag, path], args.compiled, outs[1])
            same = filecmp.cmp(*outs, shallow=False)  # a crash is not a speed-up
            if same:
                ratios[key][0].append(p / b1)
                ratios[key][1].append(c / b2)
            else:
                differ.add(key)
            say = "" if same else "  OUTPUT DIFFERS (not counted)"
            print(f"  {key:16s} bare {b1:6.2f} pure {p:6.2f} | bare {b2:6.2f} mypyc {c:6.2f}{say}")
        for i, root in enumerate((args.pure, args.compiled)):
            version[i].append(cpu([py, "-m", "streamview", "--version"], root))
            imports[i].append(cpu([py, "-c", "import streamview.core.reader"], root))
    print(f"load average {os.getloadavg()[0]:.1f}")
    print(f"{'':16s} {'pure':>6s} {'mypyc':>6s}  change")
    for key, (pure, comp) in ratios.items():
        if key in differ:
            print(f"{key:16s} the builds' outputs differ: see {outs[1]}")
            continue
        p, c = statistics.median(pure), statistics.median(comp)
        print(f"{key:16s} {p:5.2f}x {c:5.2f}x  {c / p - 1:+.0%}")
    p, c = statistics.median(version[0]), statistics.median(version[1])
    print(f"--version CPU    {p:.3f}s {c:.3f}s  {c / p - 1:+.0%}")
    p, c = statistics.median(imports[0]), statistics.median(imports[1])
    print(f"import the fold  {p:.3f}s {c:.3f}s  {c / p - 1:+.0%}")


if __name__ == "__main__":
    main()
