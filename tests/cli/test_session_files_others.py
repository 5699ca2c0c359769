"""``streamview FILE`` on Gemini CLI's and opencode's session files: every front end
recognises them without ``--agent`` (issue 27.1)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import orjson
import pytest

from .helpers import REPO_ROOT, run

SESSIONS = REPO_ROOT / "tests" / "fixtures" / "sessions"
FILES = {
    "gemini-jsonl": (SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.jsonl", "two Python"),
    "gemini-json": (SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.json", "two Python"),
    "opencode-db": (SESSIONS / "opencode" / "opencode.db", "The port is 8080."),
}


@pytest.mark.parametrize("which", sorted(FILES))
def test_json_and_the_markdown_export_read_a_session_file(which: str, tmp_path: Path) -> None:
    fixture, answer = FILES[which]
    session = tmp_path / fixture.name
    shutil.copy2(fixture, session)
    before = (session.read_bytes(), os.stat(session).st_mtime_ns)
    done = run("--json", str(session))
    assert done.returncode == 0, done.stderr
    summary = orjson.loads(done.stdout)
    (said,) = summary["sessions"]
    assert answer in said["text"]
    assert said["agent"] in ("gemini", "opencode")
    assert [c["status"] for c in said["tool_calls"]] == ["succeeded", "error"]
    assert said["outcome"]["usage"]["input_tokens"] in (2700, 2300)
    assert summary["lines"]["unknown"] == (0 if which == "gemini-json" else 1)
    page = tmp_path / "run.md"
    done = run("--export-markdown", str(page), str(session))
    assert done.returncode == 0, done.stderr
    assert answer in page.read_text()
    assert (session.read_bytes(), os.stat(session).st_mtime_ns) == before


def test_print_and_events_read_a_legacy_gemini_session_and_an_opencode_database() -> None:
    gemini, _ = FILES["gemini-json"]
    done = run("--print", str(gemini))
    assert done.returncode == 0, done.stderr
    printed = done.stdout.decode()
    assert "> List the python files and read main.py" in printed
    assert printed.count("-> glob") == 1  # one call, though its record came four times
    database, _ = FILES["opencode-db"]
    done = run("--events", str(database))
    assert done.returncode == 0, done.stderr
    events = [orjson.loads(line) for line in done.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds.count("tool.end") == 2 and kinds[-1] == "stream.end"
    assert [e["record_type"] for e in events if e["type"] == "unknown"] == ["part/future-part"]


def test_an_opencode_session_is_named_after_its_database() -> None:
    """``DATABASE#SESSION_ID`` reads that session (the database alone, the newest)."""
    database, _ = FILES["opencode-db"]
    done = run("--json", f"{database}#ses_0older")
    (said,) = orjson.loads(done.stdout)["sessions"]
    assert said["session_id"] == "ses_0older" and said["prompt"] is None
    done = run("--json", f"{database}#ses_nope")
    assert done.returncode == 2
    assert done.stderr.decode().endswith("no opencode session ses_nope\n")
    done = run("--replay", "--print", str(database))  # no timeline to play: said, not garbled
    assert done.returncode == 2 and b"--replay needs a stream" in done.stderr
