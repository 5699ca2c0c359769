"""``streamview FILE --print/--json/--events/--export-markdown`` on the agents'
interactive session files, recognised without ``--agent`` (issue 27.1)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


def test_a_claude_session_with_its_subagents_file_through_every_front_end(
    tmp_path: Path,
) -> None:
    """The session read with its ``subagents/agent-*.jsonl``: ``--json`` counts the
    subagent's twelve calls (its file's, not the session's partial mirror of them),
    ``--print`` indents them under the Task call, and the cast plays that account."""
    path = SESSIONS / "claude" / "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"
    plain = tmp_path / path.name  # the same session without its folder beside it
    plain.write_bytes(path.read_bytes())
    summaries = [json.loads(run("--json", str(p)).stdout)["sessions"][0] for p in (path, plain)]
    ids = [[c["call_id"] for c in s["tool_calls"]] for s in summaries]
    agent = path.with_suffix("") / "subagents" / "agent-aac57f5.jsonl"
    made = {call for call in ids[0] if call.encode() in agent.read_bytes()}
    assert len(made) == 12 and sorted(ids[0]) == sorted(ids[1])  # each once, none lost
    usage = [s["outcome"]["usage"]["output_tokens"] for s in summaries]
    assert usage[0] > usage[1]  # the subagent's thinking and last answer, counted
    printed = run("--print", str(path)).stdout.decode()
    task = printed.index("Search hex.pm")
    assert printed[task:].split("\n", 2)[1].startswith("   ")  # its first call, nested
    exported = run("--export-markdown", "-", str(path)).stdout.decode()
    nested = [c["target"] for c in summaries[0]["tool_calls"] if c["call_id"] in made]
    assert all(target in exported for target in nested if target)


def test_the_cast_of_a_session_read_whole_plays_what_was_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--export-cast`` plays a file by reading it again, unless it is a session read
    whole: its bytes (subagents fed in, a branch left out) are not the file's."""
    import argparse
    from types import SimpleNamespace

    from streamview.cli import view
    from streamview.ui.cast import export

    played: list[object] = []

    def write_cast(path: Path, source: object, **_: object) -> SimpleNamespace:
        played.append(source)
        return SimpleNamespace(frames=1, duration=1.0, size=1)

    monkeypatch.setattr(export, "write_cast", write_cast)
    path = SESSIONS / "claude" / "ae4a77f8-aedd-4bc1-888f-c94edc91af04.jsonl"
    args = argparse.Namespace(
        export_cast=str(tmp_path / "x.cast"), input=str(path), size=None, speed=None,
        idle_limit=None, theme=None, agent=None, redact=False,
    )  # fmt: skip
    for whole in (True, False):
        assert view.export_cast(args, b"{}\n", "label", None, whole=whole) is None
    assert [type(s).__name__ for s in played] == ["MemorySource", "FileSource"]
