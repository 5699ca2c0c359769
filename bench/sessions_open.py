"""A 200 MB Claude Code session opened in the viewer, beside headless recordings of the
same run and the same size.

Usage::

    python bench/sessions_open.py [--megabytes 200] [--repeats 3] [--keep DIR]

One run of :mod:`dialect_streams`' Claude generator is written three ways, each cut at
``--megabytes`` on a whole line:

- ``session``: what Claude Code keeps in ``~/.claude/projects`` for it: a prompt line,
  then each ``assistant`` and ``user`` record in the session envelope (``uuid`` chained
  by ``parentUuid``, ``sessionId``, ``cwd``, ``version``, ``timestamp``);
- ``headless``: ``claude -p --output-format stream-json --verbose`` (the same records,
  no token deltas);
- ``headless_deltas``: the same with ``--include-partial-messages`` (token deltas:
  more lines, the fold's fast path).

Each file is opened by ``bench/tui_probe.py`` (the real viewer, headless, 120x40) in a
fresh process, taking turns; the figure is the time until the final state is on
screen (every line folded, the outcome shown), the CPU time of the viewer's process
(every thread; steadier than the wall time on a shared machine), and the peak RSS.
Prints one JSON object: medians, samples, the ratios of the session over each headless
file (wall and CPU), the load average. The files are deleted at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, BinaryIO

import orjson

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from dialect_streams import GENERATORS  # noqa: E402
from sessions_list import print_result  # noqa: E402

KINDS = ("session", "headless", "headless_deltas")


def _session_line(record: dict[str, Any], number: int, parent: str | None) -> dict[str, Any]:
    line: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/work/app",
        "sessionId": "bench-claude-0001",
        "version": "2.1.38",
        "type": record["type"],
        "message": record["message"],
        "uuid": f"u-{number:09d}",
        "timestamp": f"2026-11-01T10:{number // 60000 % 60:02d}:{number // 1000 % 60:02d}."
        f"{number % 1000:03d}Z",
    }
    if record.get("tool_use_result") is not None:
        line["toolUseResult"] = record["tool_use_result"]
    return line


def write_files(folder: Path, megabytes: float) -> dict[str, Path]:
    """The three files of one run, each cut at ``megabytes``."""
    limit = int(megabytes * (1 << 20))
    paths = {
        kind: folder / f"{kind}.{'jsonl' if kind == 'session' else 'ndjson'}" for kind in KINDS
    }
    outs: dict[str, BinaryIO] = {kind: path.open("wb") for kind, path in paths.items()}
    sizes = dict.fromkeys(KINDS, 0)

    def put(kind: str, record: dict[str, Any]) -> None:
        data = orjson.dumps(record) + b"\n"
        if sizes[kind] + len(data) <= limit:
            outs[kind].write(data)
        sizes[kind] += len(data)

    prompt = {"type": "user", "message": {"role": "user", "content": "fix the parser"}}
    put("session", _session_line(prompt, 0, None))
    parent: str | None = "u-000000000"
    number = 0
    try:
        for record in GENERATORS["claude"](10**9, 0):
            if min(sizes.values()) > limit:
                break
            put("headless_deltas", record)
            if record["type"] != "stream_event":
                put("headless", record)
            if record["type"] in ("assistant", "user"):
                number += 1
                put("session", _session_line(record, number, parent))
                parent = f"u-{number:09d}"
    finally:
        for out in outs.values():
            out.close()
    return paths


def probe(path: Path) -> dict[str, Any]:
    """``bench/tui_probe.py`` on ``path`` in a fresh process, with the CPU time that
    process took (``cpu_s``: user and system, every thread, from ``wait4``: on a shared
    machine it moves far less with the load than the wall time does)."""
    began = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        child = subprocess.Popen(
            [sys.executable, str(BENCH / "tui_probe.py"), str(path), "--t0", str(began)],
            stdout=out,
            stderr=err,
            cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)},
        )
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)  # reaped: tell Popen
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        lines = out.read().decode(errors="replace").strip().splitlines()
        said = err.read().decode(errors="replace")
    found: dict[str, Any] = orjson.loads(lines[-1]) if lines else {"error": said[-2000:]}
    found["cpu_s"] = round(usage.ru_utime + usage.ru_stime, 2)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=200.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write (or reuse) the files here, keep them")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="streamview-session-open-"))
    try:
        folder.mkdir(parents=True, exist_ok=True)
        paths = {
            kind: folder / f"{kind}.{'jsonl' if kind == 'session' else 'ndjson'}" for kind in KINDS
        }
        if not all(path.exists() for path in paths.values()):
            paths = write_files(folder, args.megabytes)
        load_before = os.getloadavg()[0]
        samples: dict[str, list[dict[str, Any]]] = {kind: [] for kind in KINDS}
        for _ in range(args.repeats):
            for kind in KINDS:
                samples[kind].append(probe(paths[kind]))
        result: dict[str, Any] = {}
        for kind in KINDS:
            finals = [s.get("final_state_s") for s in samples[kind]]
            known = [value for value in finals if isinstance(value, int | float)]
            cpus = [s["cpu_s"] for s in samples[kind] if s.get("final_state_s") is not None]
            result[kind] = {
                "bytes": paths[kind].stat().st_size,
                "lines": sum(1 for _ in paths[kind].open("rb")),
                "final_state_s": round(statistics.median(known), 2) if known else None,
                "samples": finals,
                "cpu_s": round(statistics.median(cpus), 2) if cpus else None,
                "cpu_samples": cpus,
                "peak_rss_mb": max((s.get("peak_rss_mb") or 0) for s in samples[kind]),
                "errors": [s["error"] for s in samples[kind] if s.get("error")][:1],
            }
        session = result["session"]["final_state_s"]
        for kind in KINDS[1:]:
            other = result[kind]["final_state_s"]
            result[f"ratio_over_{kind}"] = round(session / other, 2) if session and other else None
            mine, theirs = result["session"]["cpu_s"], result[kind]["cpu_s"]
            result[f"cpu_ratio_over_{kind}"] = round(mine / theirs, 2) if mine and theirs else None
        print_result(result, load_before)
    finally:
        if args.keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
