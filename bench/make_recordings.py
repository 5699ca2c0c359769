"""Write the demo recordings in ``recordings/`` (run from anywhere; deterministic).

Usage::

    python bench/make_recordings.py            # rewrite every recording
    python bench/make_recordings.py --check    # fail if a file would change

Each recording is a stream-json file exactly as the Cursor agent CLI prints it, with
``"streamview_recv_ms"`` appended as the last key of every line (see
``recordings/README.md``). The scripted ones tell one believable story: the
``tidepool`` package has a flaky test, ``test_delays_never_decrease``, because
``Backoff.delay`` adds jitter after capping and draws it from the global ``random``
module; the agent reproduces it, fixes it and runs the suite.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))

# The recordings' world, helpers and builders live in recordings_*.py; their names stay
# importable from here.
from recordings_calls import (
    COMPOSER,
    GPT,
    hit,
    new_run,
    shell,
    start_shell,
    think,
)
from recordings_failures import (
    FAILURE_STDERR,
    denied_tools,
    failure_no_result,
)
from recordings_success import (
    long_run,
    partial_output_thinking,
    success_multi_tool,
)
from recordings_tidepool import (
    BACKOFF_AFTER,
    BACKOFF_BEFORE,
    CWD,
    PYTEST_FLAKY,
    RETRY_PY,
    SUITE,
    TEST_AFTER,
    TEST_BEFORE,
    B,
    C,
    E,
    G,
    R,
    X,
    Y,
    crlf,
    p,
    progress,
    pytest_header,
    pytest_suite,
)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "recordings"

__all__ = [
    "BACKOFF_AFTER",
    "BACKOFF_BEFORE",
    "COMPOSER",
    "CWD",
    "EXTRA_FILES",
    "FAILURE_STDERR",
    "GPT",
    "OUT",
    "PYTEST_FLAKY",
    "RECORDINGS",
    "RETRY_PY",
    "ROOT",
    "SUITE",
    "TEST_AFTER",
    "TEST_BEFORE",
    "B",
    "C",
    "E",
    "G",
    "R",
    "X",
    "Y",
    "crlf",
    "denied_tools",
    "failure_no_result",
    "hit",
    "long_run",
    "main",
    "new_run",
    "p",
    "partial_output_thinking",
    "progress",
    "pytest_header",
    "pytest_suite",
    "render",
    "shell",
    "start_shell",
    "success_multi_tool",
    "think",
]

RECORDINGS: dict[str, Callable[[], list[bytes]]] = {
    "success-multi-tool.ndjson": success_multi_tool,
    "partial-output-thinking.ndjson": partial_output_thinking,
    "failure-no-result.ndjson": failure_no_result,
    "denied-tools.ndjson": denied_tools,
    "long-run.ndjson": long_run,
}
"""File name to builder."""

EXTRA_FILES = {"failure-no-result.stderr.txt": FAILURE_STDERR}
"""Non-recording files written beside them."""


def render() -> dict[str, bytes]:
    """Build every file's bytes."""
    out = {name: b"".join(build()) for name, build in RECORDINGS.items()}
    out.update({name: text.encode() for name, text in EXTRA_FILES.items()})
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only verify the files are current")
    parser.add_argument("--out", type=Path, default=OUT, help="folder (default: recordings/)")
    args = parser.parse_args(argv)
    stale = []
    for name, data in render().items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        lines = data.count(b"\n")
        print(f"{path}: {lines} lines, {len(data) / 1024:.0f} KB", file=sys.stderr)
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
