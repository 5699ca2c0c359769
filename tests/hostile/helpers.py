"""Shared helpers for the hostile-input tests: run the real command, check output."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from streamview.core.sanitize import UNSAFE_CHARS

REPO = Path(__file__).resolve().parents[2]
REAL_CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"
UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")


def real_captures() -> list[Path]:
    """The real capture files (``.ndjson``/``.jsonl``) (tests/fixtures/cursor-real)."""
    return sorted(p for p in REAL_CAPTURES.iterdir() if p.suffix in (".ndjson", ".jsonl"))


def command(*args: str) -> list[str]:
    """The real ``streamview`` command line."""
    return [sys.executable, "-m", "streamview", *args]


def cli_env() -> dict[str, str]:
    """Environment for the command: the repo importable, UTF-8 output, no colour games."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONIOENCODING"] = "utf-8"
    env.pop("PYTHONWARNINGS", None)
    return env


def run_cli(
    *args: str, stdin: bytes | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[bytes]:
    """Run ``streamview`` with ``args`` to completion and capture its output."""
    return subprocess.run(
        command(*args),
        input=stdin,
        capture_output=True,
        timeout=timeout,
        cwd=REPO,
        env=cli_env(),
        check=False,
    )


def unsafe_in(text: str) -> list[str]:
    """Every unsafe character in ``text`` with a little context, for assertion messages."""
    return [
        f"{m.group()!r} at {m.start()}: {text[max(0, m.start() - 30) : m.end() + 30]!r}"
        for m in UNSAFE.finditer(text)
    ][:10]


def assert_no_traceback(stderr: bytes) -> None:
    """The program reported, it did not crash."""
    text = stderr.decode("utf-8", "replace")
    assert "Traceback" not in text, text[-3000:]
