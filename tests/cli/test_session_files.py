"""``streamview FILE --print/--json/--events/--export-markdown`` on the agents'
interactive session files, recognised without ``--agent`` (issue 27.1)."""

from __future__ import annotations

import json
from pathlib import Path

from .helpers import REPO_ROOT, run

SESSIONS = REPO_ROOT / "tests" / "fixtures" / "sessions"
CLAUDE = SESSIONS / "claude" / "subagent.jsonl"
CODEX = (
    SESSIONS / "codex" / "rollout-2026-05-11T13-28-45-019e1695-0522-7c83-8b39-0dd379793f80.jsonl"
)


def test_the_front_ends_read_session_files_without_agent(tmp_path: Path) -> None:
    summary = json.loads(run("--json", str(CLAUDE)).stdout)
    (session,) = summary["sessions"]
    assert session["agent"] == "claude-session"
    assert session["prompt"] == "create the beads"
    assert session["outcome"]["status"] == "success"
    assert session["outcome"]["usage"]["output_tokens"] > 0
    assert [c["name"] for c in session["tool_calls"]].count("task") == 1

    printed = run("--print", str(CODEX))
    assert printed.returncode == 0
    text = printed.stdout.decode()
    assert "Codex (session)" in text and "I analyzed `/Users/Sample_User/Downloads/" in text
    assert text.count("I analyzed `/Users/Sample_User/Downloads/") == 1

    events = [json.loads(line) for line in run("--events", str(CODEX)).stdout.splitlines()]
    kinds = {e["type"] for e in events}
    assert {"session.start", "prompt", "tool.start", "tool.end"} <= kinds

    out = tmp_path / "claude.md"
    exported = run("--export-markdown", str(out), str(CLAUDE))
    assert exported.returncode == 0
    markdown = out.read_text()
    assert "Claude Code (session)" in markdown and "create the beads" in markdown
