"""``streamview --json FILE`` imports only what it uses (issue 30.8: start-up counts
in every dialect's ratio to the bare orjson loop, ~40 ms of a 100k-line file's ~250)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

NOT_NEEDED = (
    "platformdirs",  # the settings path (Linux): computed
    "tomllib",  # no settings file
    "streamview.runs.run_meta",  # no sidecar beside FILE
    "streamview.runs.recording_files",
    "streamview.sources.signals",  # --json installs no handler
    "streamview.core.dialects.claude",  # dialects before Gemini CLI's, by type
    "streamview.core.dialects.codex",
    "streamview.core.dialects.amp",
    "shutil",  # argparse's formatters ask the terminal's width only to show help
    "textual",
    "selectors",  # a pipe's reader
    "signal",  # its enums: 0.5 ms
    "argparse",  # --json FILE is read without it (streamview.cli.plain_args)
    "gettext",  # argparse's help strings, looked up on disk
    "locale",
    "streamview.cli.parsers",
    "streamview.core.normalized",  # --events' structs: the summary needs only the kinds
    "streamview.config.settings",  # no settings file: only its path is looked up
)


GEMINI_RUN = (
    b'{"type":"init","timestamp":"2026-11-20T10:00:00.000Z","session_id":"s","model":"m"}\n'
    b'{"type":"message","timestamp":"2026-11-20T10:00:01.000Z","role":"assistant",'
    b'"content":"hi","delta":true}\n'
    b'{"type":"result","timestamp":"2026-11-20T10:00:02.000Z","status":"success"}\n'
)
"""A whole Gemini run of three lines: what a start-up test reads."""


def bare_env(tmp_path: Path) -> dict[str, str]:
    """A child's environment with nothing of this one's but its paths: no settings file,
    no home of the person running the tests."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": os.environ.get("PYTHONPATH", ""),
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }


def test_json_of_a_gemini_file_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    stream = tmp_path / "gemini.ndjson"
    stream.write_bytes(GEMINI_RUN)
    code = (
        "import sys\n"
        "from streamview.cli import main\n"
        f"status = main(['--json', {str(stream)!r}])\n"
        f"loaded = [m for m in {NOT_NEEDED!r} if m in sys.modules]\n"
        "print(status, loaded, file=sys.stderr)\n"
    )
    env = bare_env(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert b'"agent":"gemini"' in done.stdout.encode()
    expected = "0 []" if sys.platform == "linux" else "0 ['platformdirs']"
    assert done.stderr.splitlines()[-1] == expected
