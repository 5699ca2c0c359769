"""What a tracing backend that is down costs ``streamview run --otlp`` (issue 28).

Runs the same fake agent (``tests/run/agents/success.py``: six lines, one tool call,
exit 0) side by side: without ``--otlp``, with ``--otlp`` to a port nothing listens on
(refused), and to a socket that accepts but never answers (a hung backend). Prints each
case's median wall time and exit status as a Markdown table. Nothing fails on timing.

    python bench/otlp_down.py [--repeats N]
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
AGENT = REPO / "tests" / "run" / "agents" / "success.py"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def _run(options: list[str], record: Path) -> tuple[float, int, str]:
    command = [sys.executable, "-m", "streamview", "run", "--print", "--record", str(record)]
    started = time.perf_counter()
    done = subprocess.run(
        [*command, *options, "--", sys.executable, str(AGENT)],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=120,
    )
    said = [line for line in done.stderr.splitlines() if "--otlp" in line]
    return time.perf_counter() - started, done.returncode, said[0] if said else ""


def main() -> int:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="runs per case (default 5)")
    args = parser.parse_args()
    hung = socket.socket()
    hung.bind(("127.0.0.1", 0))
    hung.listen(64)  # accepts connections (the kernel does) and never answers
    cases = {
        "no --otlp": [],
        "--otlp, port refused": ["--otlp", "--otlp-endpoint", f"http://127.0.0.1:{_free_port()}"],
        "--otlp, backend hung": [
            "--otlp",
            "--otlp-endpoint",
            f"http://127.0.0.1:{hung.getsockname()[1]}",
        ],
    }
    print("| case | median wall time | exit status | stderr |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for name, options in cases.items():
            runs = [_run(options, Path(folder) / "run.ndjson") for _ in range(args.repeats)]
            median = statistics.median(seconds for seconds, _, _ in runs)
            codes = sorted({code for _, code, _ in runs})
            said = runs[-1][2].replace("|", "\\|")
            print(f"| {name} | {median:.2f} s | {codes} | {said} |")
    hung.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
