"""The reliability campaign's part on recorded runs (issue 20.1, 20.4, 20.9, 20.10, 21.11).

Real ``streamview run`` processes: many started at once, one on a 64 KB tmpfs that fills
up (RLIMIT_FSIZE when a tmpfs cannot be mounted), an agent that fails before its first
line, and the modes of what they leave on disk. ``bench/reliability.py --only runs``.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

import orjson

REPO = Path(__file__).resolve().parents[1]
AGENTS = REPO / "tests" / "run" / "agents"
PYTHON = sys.executable
RECV = b"streamview_recv_ms"


class Part(Protocol):
    """What :mod:`bench.reliability` hands each part."""

    def add(self, tried: str, held: str) -> None: ...
    def fail(self, what: str) -> None: ...


def agent(name: str, *arguments: str) -> list[str]:
    return [PYTHON, str(AGENTS / f"{name}.py"), *arguments]


def env_for(state: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = str(state)
    return env


def streamview(*arguments: str, env: dict[str, str], **options: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen(  # type: ignore[no-any-return]
        [PYTHON, "-m", "streamview", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
        **options,  # type: ignore[call-overload]
    )


def torn(data: bytes) -> int:
    """Lines that are not one whole JSON object with one timing key."""
    count = 0 if data.endswith(b"\n") or not data else 1
    for line in data.splitlines():
        try:
            whole = isinstance(orjson.loads(line), dict) and line.count(RECV) == 1
        except orjson.JSONDecodeError:
            whole = False
        count += not whole
    return count


def recorded_path(stderr: str) -> Path | None:
    for line in stderr.splitlines():
        if " lines to " in line:
            return Path(line.split(" lines to ", 1)[1].split(" (cut: ")[0])
    return None


def part_runs(part: Part, workdir: Path, count: int = 24) -> None:
    """Runs at once, a full disk, an agent failing at once, file modes, re-recording."""
    from streamview.runs.recording import strip_timing
    from streamview.runs.run_meta import read_meta, sidecar_path

    state = workdir / "runs-state"
    env = env_for(state)
    tags = [f"p{n:02d}" for n in range(count)] + ["j00", "j01"]
    started = time.perf_counter()
    running = {
        tag: streamview(
            "run",
            "--json" if tag[0] == "j" else "--print",
            "--",
            *agent("tagged", tag, "40", "200"),
            env=env,
        )
        for tag in tags
    }
    paths: dict[str, Path | None] = {}
    for tag, process in running.items():
        _, err = process.communicate(timeout=300)
        paths[tag] = recorded_path(err.decode())
    seconds = time.perf_counter() - started
    wrong = 0
    for tag, path in paths.items():
        expected = subprocess.run(agent("tagged", tag, "40", "200"), capture_output=True).stdout
        data = path.read_bytes() if path is not None else b""
        lines = data.splitlines(keepends=True)
        if torn(data) or b"".join(strip_timing(line) for line in lines) != expected:
            wrong += 1
    files = sorted((state / "streamview" / "runs").glob("*.ndjson"))
    suffixed = sum(1 for path in files if path.stem.rsplit("-", 1)[-1].isdigit())
    tried = (
        f"{count} `run --print` and 2 `run --json` started at once"
        " (before: 24 gave 7 files, 2 of them holding two runs)"
    )
    held = (
        f"{len(files)} files ({suffixed} named with a -N suffix) in {seconds:.1f}s;"
        f" {len(tags) - wrong} whole and holding exactly their own run"
    )
    part.add(tried, held)
    if wrong or len(files) != len(tags):
        part.fail(
            f"runs at once: {wrong} recordings wrong, {len(files)} files for {len(tags)} runs"
        )

    from tests.run.disk import small_disk

    with small_disk(workdir / "small-disk") as disk:
        process = streamview(
            "run",
            "--print",
            "--",
            *agent("tagged", "full", "300", "300"),
            env=env_for(disk.folder),
            preexec_fn=disk.preexec,
        )
        _, err = process.communicate(timeout=120)
        path = recorded_path(err.decode())
        data = path.read_bytes() if path is not None else b""
        meta = read_meta(path) if path is not None else None
        listing = subprocess.run(
            [PYTHON, "-m", "streamview", "runs"],
            capture_output=True,
            text=True,
            env=env_for(disk.folder),
            cwd=REPO,
        ).stdout.splitlines()
        row = listing[2] if len(listing) > 2 else ""
        how = (
            "a 64 KB tmpfs"
            if disk.preexec is None
            else "RLIMIT_FSIZE 64 KB (no tmpfs could be mounted)"
        )
        whole = data.count(b"\n")
        said = f"cut: {disk.reason}" if f"cut: {disk.reason}" in row else repr(row)
        part.add(
            f"`run --print` of a 100 KB run with the state directory on {how} (before:"
            ' the recording stopped at 65,536 bytes mid-line; `runs` said "no result")',
            f"exit {process.returncode}; recording {len(data):,} bytes, {whole} whole lines,"
            f" {torn(data)} torn; sidecar cut={meta.cut if meta else None!r},"
            f" exit {meta.exit_code if meta else None}; `runs` row says {said}",
        )
        if torn(data) or meta is None or meta.cut != disk.reason or process.returncode != 0:
            part.fail(f"full disk: torn {torn(data)}, meta {meta}")

    failing = workdir / "failing-state"
    process = streamview("run", "--print", "--", *agent("silent_failure"), env=env_for(failing))
    process.communicate(timeout=60)
    last = subprocess.run(
        [PYTHON, "-m", "streamview", "last", "--print"],
        capture_output=True,
        text=True,
        env=env_for(failing),
        cwd=REPO,
    )
    explained = "stderr: ⚠ Workspace Trust Required" in last.stdout and last.returncode == 3
    part.add(
        "an agent failing at once (stderr only, exit 3), then `streamview last --print`"
        ' (before: "input is empty", exit 2)',
        f"`last` exit {last.returncode}, says {last.stdout.strip().splitlines()[0]!r}"
        " and the stderr line",
    )
    if not explained:
        part.fail(f"failing agent: last said {last.stdout!r} {last.stderr!r}")

    modes = []
    runs_dir = state / "streamview" / "runs"
    modes.append(f"runs directory {stat.S_IMODE(runs_dir.stat().st_mode):o}")
    any_path = files[0]
    modes.append(f"recording {stat.S_IMODE(any_path.stat().st_mode):o}")
    modes.append(f"sidecar {stat.S_IMODE(sidecar_path(any_path).stat().st_mode):o}")
    part.add(
        "modes of what a run leaves (umask 022; before: 755 directory, 644 files)", ", ".join(modes)
    )
    if modes != ["runs directory 700", "recording 600", "sidecar 600"]:
        part.fail(f"modes: {modes}")

    again = workdir / "again.ndjson"
    with any_path.open("rb") as stdin:
        subprocess.run(
            [PYTHON, "-m", "streamview", "--print", "--record", str(again)],
            stdin=stdin,
            capture_output=True,
            cwd=REPO,
        )
    keys = {line.count(RECV) for line in again.read_bytes().splitlines()}
    part.add(
        "a recording piped into `--record` again (before: a second timing key on every line)",
        f"timing keys per line: {sorted(keys)};"
        f" bytes {'identical' if again.read_bytes() == any_path.read_bytes() else 'differ'}",
    )
    if keys != {1}:
        part.fail(f"re-recording: keys per line {keys}")
