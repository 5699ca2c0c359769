"""How ``bench/run.py`` measures: the recordings it generates, one child process run
with its wall time, CPU time (``os.wait4``) and peak RSS (its own ``VmHWM``,
:mod:`child_peak`), the JSON a probe prints, and the machine the numbers come from."""

from __future__ import annotations

import datetime
import functools
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from child_peak import measured, split_peak

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent


def parse_size(name: str) -> int:
    """``10k`` -> 10,000; ``1M`` -> 1,000,000; ``2500`` -> 2,500."""
    text = name.strip().lower()
    scale = {"k": 1_000, "m": 1_000_000}.get(text[-1:], 1)
    digits = text[:-1] if scale != 1 else text
    return int(float(digits) * scale)


def data_file(data_dir: Path, name: str) -> Path:
    """Where the recording of size ``name`` lives (``events_1m.ndjson``, as generate.py)."""
    return data_dir / f"events_{name.strip().lower()}.ndjson"


def ensure_data(path: Path, events: int) -> None:
    """Generate ``path`` with ``bench/generate.py`` unless it exists."""
    if path.exists() and path.stat().st_size > 0:
        return
    print(f"generating {path} ({events:,} events)...", file=sys.stderr, flush=True)
    subprocess.run(
        [sys.executable, str(BENCH / "generate.py"), "--events", str(events), "--out", str(path)],
        check=True,
        cwd=REPO,
    )


@dataclass
class Run:
    """One child process, measured."""

    wall_s: float
    cpu_s: float
    peak_rss_mb: float
    returncode: int
    stdout: bytes


@functools.cache
def empty_config_home() -> str:
    """An empty ``XDG_CONFIG_HOME`` for every child: settings the viewer remembered for
    someone (a tool-call filter, thinking hidden) must not change what is measured."""
    return tempfile.mkdtemp(prefix="streamview-bench-config-")


def measure(command: list[str], capture: bool = False, timeout: float = 900.0) -> Run:
    """Run ``command`` in a fresh child; wall clock here, CPU from wait4, peak RSS the
    child's own (``VmHWM``, :mod:`child_peak`: ``wait4``'s ``ru_maxrss`` would be at
    least this process's peak) for a Python command, else ``wait4``'s."""
    began = time.monotonic()
    wrapped = measured(command)
    with tempfile.TemporaryFile() as said:
        child = subprocess.Popen(
            wrapped or command,
            cwd=REPO,
            env={**os.environ, "XDG_CONFIG_HOME": empty_config_home()},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
            stderr=said if wrapped else None,
        )
        output = b""
        if capture and child.stdout is not None:
            output = child.stdout.read()
            child.stdout.close()
        run = _reap(child, began, timeout, output)
        if wrapped:
            said.seek(0)
            text, peak_kb = split_peak(said.read())
            sys.stderr.write(text)
            run.peak_rss_mb = peak_kb / 1024 if peak_kb is not None else run.peak_rss_mb
    return run


def _reap(child: subprocess.Popen[bytes], began: float, timeout: float, output: bytes) -> Run:
    """Wait for ``child`` (killed past ``timeout``); its wall, CPU and ``wait4`` peak."""
    deadline = began + timeout
    while True:
        pid, status, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            child.kill()
            pid, status, usage = os.wait4(child.pid, 0)
            break
        time.sleep(0.002)
    wall = time.monotonic() - began
    child.returncode = os.waitstatus_to_exitcode(status)
    return Run(
        wall_s=wall,
        cpu_s=usage.ru_utime + usage.ru_stime,
        peak_rss_mb=usage.ru_maxrss / 1024,
        returncode=child.returncode,
        stdout=output,
    )


def child_json(run: Run) -> dict[str, Any]:
    """The JSON object a probe printed on its last line (``{}`` if none)."""
    for line in reversed(run.stdout.splitlines()):
        if line.startswith(b"{"):
            result: dict[str, Any] = orjson.loads(line)
            return result
    return {}


def median(values: list[float]) -> float:
    """The median, for a handful of repetitions."""
    return statistics.median(values)


def compile_bytecode() -> None:
    """Write streamview's bytecode before anything is timed, as ``pip install`` does.

    A user's second run reads cached bytecode; a run with ``PYTHONDONTWRITEBYTECODE``
    set (or an editable install never run before) would compile every module again in
    each timed child, about 50 ms of every figure that counts start-up.
    """
    import compileall

    compileall.compile_dir(str(REPO / "streamview"), quiet=1)


def machine() -> dict[str, Any]:
    """What the numbers were measured on."""
    model = platform.processor() or "unknown"
    memory = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass

    def version(module: str) -> str | None:
        try:
            from importlib.metadata import version as dist_version

            return dist_version(module)
        except Exception:
            return None

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    return {
        "cpu": model,
        "nproc": os.cpu_count(),
        "memory_gb": memory,
        "os": f"{platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "orjson": version("orjson"),
        "textual": version("textual"),
        "commit": commit or None,
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load_before": os.getloadavg()[0],
    }


def dialect_file(data_dir: Path, dialect: str, size: str) -> Path:
    """A file of ``size`` events in ``dialect``, generated unless it exists."""
    if dialect == "cursor":
        path = data_file(data_dir, size)
        ensure_data(path, parse_size(size))
        return path
    path = data_dir / f"{dialect}_{size.strip().lower()}.ndjson"
    if not (path.exists() and path.stat().st_size > 0):
        command = [sys.executable, str(BENCH / "dialect_streams.py"), "--dialect", dialect]
        command += ["--events", str(parse_size(size)), "--out", str(path)]
        subprocess.run(command, check=True, cwd=REPO)
    return path
