"""``streamview sessions`` on a heavy user's home: 2,000 session files, 5 GB in all.

Usage::

    python bench/sessions_list.py [--files 2000] [--gigabytes 5] [--repeats 3] [--keep DIR]

Builds a home under ``/tmp`` (deleted at the end unless ``--keep``): Claude Code
sessions (``projects/<project>/<uuid>.jsonl``) and one in ten a Codex rollout, each
begun with its own prompt (``bench task NNNN``), its body real records of the test
fixtures repeated to size; one file in a hundred 100 MB, the rest about 1.5 MB, so
that the whole is ``--gigabytes``. File ``NNNN`` changed last is the newest.

Then, side by side in one run (each a fresh process on its own pseudo-terminal,
120x40, :func:`first_screen.first_screen`):

- ``cold``: no index, every session file dropped from the page cache
  (``posix_fadvise(DONTNEED)`` after ``sync``): the first screen shows the newest
  run's and the 30th newest run's titles;
- ``warm``: the index under ``XDG_CACHE_HOME`` full (one ``--json`` pass filled it),
  the files in the page cache;
- ``bare``: a bare Textual app's first screen (the framework's floor);
- ``json_cold`` / ``json_warm``: ``streamview sessions --json`` reading all 2,000 (no
  budget: a script gets every run), without and with the index.

Prints one JSON object: each figure's median and samples (seconds), the home's size,
the load average before and after. Nothing here fails on timing.
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
import uuid
from pathlib import Path
from typing import Any

import orjson

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
sys.path.insert(0, str(BENCH))

from first_screen import BARE_LINE, first_screen  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures" / "sessions"
BIG_EVERY = 100
"""One file in this many is big."""
BIG_SIZE = 100 << 20


def _body(path: Path) -> bytes:
    """A fixture's records, its first line dropped (each file writes its own)."""
    return path.read_bytes().split(b"\n", 1)[1]


def _sizes(files: int, total: int) -> list[int]:
    big = files // BIG_EVERY
    small = max(4096, (total - big * BIG_SIZE) // max(1, files - big))
    return [BIG_SIZE if number % BIG_EVERY == 0 else small for number in range(files)]


def _write_session(path: Path, number: int, size: int, codex: bool, body: bytes) -> None:
    """One session file of about ``size`` bytes."""
    if codex:
        first = [
            {
                "timestamp": "2026-11-01T10:00:00.000Z",
                "type": "session_meta",
                "payload": {"id": str(uuid.uuid4()), "cwd": f"/work/proj-{number % 40}"},
            },
            {
                "timestamp": "2026-11-01T10:00:01.000Z",
                "type": "event_msg",
                "payload": {"type": "user_message", "message": f"bench task {number:04d}"},
            },
        ]
    else:
        first = [
            {
                "type": "user",
                "uuid": f"u-{number}",
                "parentUuid": None,
                "sessionId": str(uuid.uuid4()),
                "cwd": f"/work/proj-{number % 40}",
                "timestamp": "2026-11-01T10:00:00.000Z",
                "message": {"role": "user", "content": f"bench task {number:04d}"},
            }
        ]
    head = b"".join(orjson.dumps(line) + b"\n" for line in first)
    with path.open("wb") as out:
        out.write(head)
        written = len(head)
        chunk = body * max(1, (1 << 20) // len(body))
        while written < size:
            piece = chunk[: size - written] if size - written < len(chunk) else chunk
            if len(piece) < len(chunk):  # end at a whole line
                piece = piece[: piece.rfind(b"\n") + 1] or body
            out.write(piece)
            written += len(piece)


def build_home(root: Path, files: int, gigabytes: float) -> dict[str, Any]:
    """The bench's home under ``root``; returns its file count and bytes."""
    claude_body = _body(FIXTURES / "claude" / "tool_heavy.jsonl")
    codex_body = _body(next((FIXTURES / "codex").glob("rollout-2026-05-11*.jsonl")))
    total = 0
    base = time.time() - files * 60
    for number, size in enumerate(_sizes(files, int(gigabytes * (1 << 30)))):
        codex = number % 10 == 5
        if codex:
            folder = root / "codex" / "sessions" / "2026" / "11" / f"{number % 28 + 1:02d}"
            path = folder / f"rollout-2026-11-01T10-00-00-{uuid.uuid4()}.jsonl"
        else:
            folder = root / "claude" / "projects" / f"-work-proj-{number % 40}"
            path = folder / f"{uuid.uuid4()}.jsonl"
        folder.mkdir(parents=True, exist_ok=True)
        _write_session(path, number, size, codex, codex_body if codex else claude_body)
        mtime = base + number * 60
        os.utime(path, (mtime, mtime))
        total += path.stat().st_size
    return {"files": files, "bytes": total, "gigabytes": round(total / (1 << 30), 2)}


def drop_page_cache(root: Path) -> None:
    """Evict the home's files from the page cache, file by file (no root needed)."""
    os.sync()
    for folder, _, names in os.walk(root):
        for name in names:
            fd = os.open(os.path.join(folder, name), os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def environment(root: Path) -> None:
    """Point this process (and every streamview it starts) at the bench's home."""
    os.environ.update(
        {
            "HOME": str(root / "home"),
            "CLAUDE_CONFIG_DIR": str(root / "claude"),
            "CODEX_HOME": str(root / "codex"),
            "XDG_CACHE_HOME": str(root / "cache"),
            "XDG_STATE_HOME": str(root / "state"),
        }
    )
    for name in ("XDG_DATA_HOME", "GEMINI_CLI_HOME"):
        os.environ.pop(name, None)
    (root / "home").mkdir(exist_ok=True)


def timed_json(root: Path) -> float:
    """Seconds of ``streamview sessions --json`` (every run read), the output discarded."""
    began = time.monotonic()
    subprocess.run(
        [sys.executable, "-m", "streamview", "sessions", "--json"],
        check=True,
        stdout=subprocess.DEVNULL,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    return time.monotonic() - began


def _summary(samples: list[float | None]) -> dict[str, Any]:
    known = [sample for sample in samples if sample is not None]
    median = round(statistics.median(known), 3) if known else None
    return {"median_s": median, "samples": [None if s is None else round(s, 3) for s in samples]}


def measure(root: Path, files: int, repeats: int) -> dict[str, Any]:
    """Every figure, the programs taking turns so that all see the same load."""
    index = root / "cache" / "streamview" / "sessions-index.json"
    markers = (f"bench task {files - 1:04d}", f"bench task {files - 30:04d}")
    command = [sys.executable, "-m", "streamview", "sessions"]
    bare = [sys.executable, str(BENCH / "bare_textual.py")]
    samples: dict[str, list[float | None]] = {
        "cold": [],
        "warm": [],
        "bare": [],
        "json_cold": [],
        "json_warm": [],
    }
    details: list[dict[str, Any]] = []
    for _ in range(repeats):
        index.unlink(missing_ok=True)
        drop_page_cache(root)
        cold = first_screen(command, markers, timeout=60)
        samples["cold"].append(cold["wall_s"])
        index.unlink(missing_ok=True)
        drop_page_cache(root)
        samples["json_cold"].append(timed_json(root))
        samples["json_warm"].append(timed_json(root))
        warm = first_screen(command, markers, timeout=60)
        samples["warm"].append(warm["wall_s"])
        samples["bare"].append(first_screen(bare, (BARE_LINE,), timeout=30)["wall_s"])
        details.append({"cold": cold, "warm": warm})
    result = {name: _summary(values) for name, values in samples.items()}
    result["index_bytes"] = index.stat().st_size if index.exists() else None
    result["index_mode"] = oct(index.stat().st_mode & 0o777) if index.exists() else None
    timed_out = [d for d in details if d["cold"]["timed_out"] or d["warm"]["timed_out"]]
    if timed_out:
        result["timed_out"] = timed_out[:1]
    return result


def print_result(result: dict[str, Any], load_before: float) -> None:
    """Print a bench's figures as JSON, with the load before and after and the commit
    (the sessions benches share it)."""
    result["load_average"] = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    result["commit"] = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=REPO
    ).stdout.strip()
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--gigabytes", type=float, default=5.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the home here, keep it")
    args = parser.parse_args(argv)
    root = args.keep or Path(tempfile.mkdtemp(prefix="streamview-sessions-bench-"))
    try:
        root.mkdir(parents=True, exist_ok=True)
        began = time.monotonic()
        if not (root / "built.json").exists():
            home = build_home(root, args.files, args.gigabytes)
            (root / "built.json").write_bytes(orjson.dumps(home))
        home = orjson.loads((root / "built.json").read_bytes())
        home["build_s"] = round(time.monotonic() - began, 1)
        environment(root)
        load_before = os.getloadavg()[0]
        result: dict[str, Any] = {"home": home, **measure(root, args.files, args.repeats)}
        print_result(result, load_before)
    finally:
        if args.keep is None:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
