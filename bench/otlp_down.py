"""What a tracing backend that is down costs ``streamview run --otlp`` (issue 28).

Runs the same fake agent (``tests/run/agents/success.py``: six lines, one tool call,
exit 0) side by side: without ``--otlp``, with ``--otlp`` to a backend that answers (a
local HTTP server taking every POST), to a port nothing listens on (refused), and to a
socket that accepts but never answers (a hung backend). Prints, per case, the median
time until the run's summary line was on stdout (what a person waits for), the median
time until streamview exited, the exit statuses and what stderr said, as a Markdown
table. Then, against the hung backend, the time from a first SIGTERM to the exit of
``run --otlp`` (its agent paused after a call whose span is being sent) and of
``sessions --watch --otlp`` (its batch being sent), as a second table. Nothing fails
on timing.

    python bench/otlp_down.py [--repeats N]
"""

from __future__ import annotations

import argparse
import http.server
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AGENT = REPO / "tests" / "run" / "agents" / "success.py"
PAUSED = REPO / "tests" / "otlp" / "paused_agent.py"
JOB = REPO / "recordings" / "success-multi-tool.ndjson"
SENDING = 2.0
"""Seconds given to a send to start (the run's batch leaves within 0.5 s) before SIGTERM."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


class _Taker(http.server.BaseHTTPRequestHandler):
    """A backend that answers: 200 to every POST."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def _run(options: list[str], record: Path) -> tuple[float, float, int, str]:
    """Seconds until the summary line (``== success ...``), until exit; status; stderr."""
    command = [sys.executable, "-m", "streamview", "run", "--print", "--record", str(record)]
    started = time.perf_counter()
    run = subprocess.Popen(
        [*command, *options, "--", sys.executable, str(AGENT)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
    )
    assert run.stdout is not None and run.stderr is not None
    shown = None
    for line in run.stdout:
        if line.startswith("== "):
            shown = time.perf_counter() - started
    err = run.stderr.read()
    code = run.wait(timeout=120)
    ended = time.perf_counter() - started
    said = [line for line in err.splitlines() if "--otlp" in line]
    return shown if shown is not None else ended, ended, code, said[0] if said else ""


def _sigterm_exit(command: list[str], folder: Path, ready: Path | None) -> tuple[float, int, str]:
    """Start ``command``, let its send start, SIGTERM it: seconds to exit, status, the
    ``--otlp`` line of stderr."""
    env = dict(os.environ, HOME=str(folder), XDG_STATE_HOME=str(folder / "state"))
    process = subprocess.Popen(
        command,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=env,
    )
    deadline = time.monotonic() + 60
    while ready is not None and not ready.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    time.sleep(SENDING)
    started = time.perf_counter()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=120)
    ended = time.perf_counter() - started
    said = [line for line in err.splitlines() if "--otlp" in line]
    return ended, process.returncode, said[-1] if said else ""


def _sigterm_cases(url: str, repeats: int) -> None:
    """Print how long a first SIGTERM takes to end a run and a watch sending to ``url``."""
    print()
    print("| SIGTERM while a send hangs | exited in (median) | exit status | stderr |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        runs: dict[str, list[tuple[float, int, str]]] = {"run --otlp": [], "watch": []}
        for n in range(repeats):
            record = folder / f"run-{n}.ndjson"
            command = [sys.executable, "-m", "streamview", "run", "--print", "--otlp"]
            command += ["--otlp-endpoint", url, "--record", str(record), "--"]
            command += [sys.executable, str(PAUSED), str(folder / "never"), "--end-call"]
            runs["run --otlp"].append(_sigterm_exit(command, folder, record))
            jobs = folder / f"jobs-{n}"
            jobs.mkdir()
            (jobs / "job.ndjson").write_bytes(JOB.read_bytes())
            command = [sys.executable, "-m", "streamview", "sessions", "--watch", "--otlp"]
            command += ["--otlp-endpoint", url, "--dir", str(jobs), "--interval", "0.1"]
            runs["watch"].append(_sigterm_exit(command, folder, None))
        for case, seen in runs.items():
            ended = statistics.median(run[0] for run in seen)
            codes = sorted({run[1] for run in seen})
            said = seen[-1][2].replace("|", "\\|")
            print(f"| {case} | {ended:.2f} s | {codes} | {said} |")


def main() -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per case (default 5)")
    args = parser.parse_args()
    taker = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Taker)
    threading.Thread(target=taker.serve_forever, daemon=True).start()
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)  # accepts connections (the kernel does) and never answers
    cases = {
        "no --otlp": [],
        "--otlp, backend up": [
            "--otlp",
            "--otlp-endpoint",
            f"http://127.0.0.1:{taker.server_port}",
        ],
        "--otlp, port refused": ["--otlp", "--otlp-endpoint", f"http://127.0.0.1:{_free_port()}"],
        "--otlp, backend hung": [
            "--otlp",
            "--otlp-endpoint",
            f"http://127.0.0.1:{hung.getsockname()[1]}",
        ],
    }
    print("| case | run shown in (median) | exited in (median) | exit status | stderr |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        runs_of: dict[str, list[tuple[float, float, int, str]]] = {name: [] for name in cases}
        for _ in range(args.repeats):  # in turns: the machine's load drifts alike for all
            for name, options in cases.items():
                runs_of[name].append(_run(options, Path(folder) / "run.ndjson"))
        for name, runs in runs_of.items():
            shown = statistics.median(run[0] for run in runs)
            ended = statistics.median(run[1] for run in runs)
            codes = sorted({run[2] for run in runs})
            said = runs[-1][3].replace("|", "\\|")
            print(f"| {name} | {shown:.2f} s | {ended:.2f} s | {codes} | {said} |")
    _sigterm_cases(f"http://127.0.0.1:{hung.getsockname()[1]}", args.repeats)
    hung.close()
    taker.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
