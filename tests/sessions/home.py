"""A fake home directory with one small session file per agent, in each one's layout."""

from __future__ import annotations

import os
from pathlib import Path

import orjson

from streamview.runs.run_meta import RunMeta, write_meta

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dialects"
RUNS = "state/streamview/runs"
"""Where ``streamview run``'s recordings are, under ``XDG_STATE_HOME=root/state``."""
BASE = 1_700_000_000.0
"""The fake files' times (epoch seconds): each file is a minute apart."""


def _write(path: Path, lines: list[object], mtime: float) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))
    os.utime(path, (mtime, mtime))
    return path


def build_home(root: Path) -> dict[str, Path]:
    """Session files of five agents under ``root/home`` (Claude and Codex moved by
    ``CLAUDE_CONFIG_DIR`` and ``CODEX_HOME``), a recording in ``root/`` :data:`RUNS` and a job
    in ``root/jobs``; their shapes follow ``../shared/design/session-files.md``.

    Returns:
        Each file by agent (``recording`` and ``job`` for the last two).
    """
    home = root / "home"
    files: dict[str, Path] = {}
    files["claude"] = _write(
        root / "claude-config" / "projects" / "-home-me-work-shop" / "0b6c.jsonl",
        [
            {"type": "summary", "summary": "Fix the cart total", "leafUuid": "u2"},
            {
                "type": "user",
                "uuid": "u1",
                "parentUuid": None,
                "cwd": f"{home}/work/shop",
                "sessionId": "0b6c",
                "timestamp": "2023-11-14T22:13:20.000Z",
                "message": {"role": "user", "content": "the cart total is wrong"},
            },
        ],
        BASE + 60,
    )
    for subagent in ("agent-a2271d1.jsonl", "0b6c/subagents/agent-a4ca7529859c158c2.jsonl"):
        _write(  # subagents' transcripts: their parent session is the run listed
            root / "claude-config" / "projects" / "-home-me-work-shop" / subagent,
            [{"type": "user", "isSidechain": True, "message": {"content": "Warmup"}}],
            BASE + 500,
        )
    files["codex"] = _write(
        root
        / "codex-home"
        / "sessions"
        / "2027"
        / "01"
        / "15"
        / "rollout-2027-01-15T08-00-00-019b.jsonl",
        [
            {
                "timestamp": "2023-11-14T22:13:20.000Z",
                "type": "session_meta",
                "payload": {"id": "019b", "cwd": "/srv/api", "originator": "codex_cli_rs"},
            },
            {
                "timestamp": "2027-01-15T08:00:01.000Z",
                "type": "event_msg",
                "payload": {"type": "user_message", "message": "add a health endpoint"},
            },
            *(
                {
                    "type": "event_msg",
                    "payload": {
                        "type": "token_count",
                        "info": {"total_token_usage": {"total_tokens": total}},
                    },
                }
                for total in (1200, 3456)
            ),
        ],
        BASE + 120,
    )
    files["gemini"] = _write(
        home / ".gemini" / "tmp" / "ab12" / "chats" / "session-2027-01-15T08-00-5b8f.json",
        [
            {
                "sessionId": "5b8f",
                "startTime": "2027-01-15T08:00:00.000Z",
                "messages": [{"id": "m1", "type": "user", "content": "explain the build"}],
            }
        ],
        BASE + 180,
    )
    files["cursor"] = _write(
        home / ".cursor" / "projects" / "work-site" / "agent-transcripts" / "c1" / "c1.jsonl",
        [{"role": "user", "message": {"content": [{"type": "text", "text": "rename the site"}]}}],
        BASE + 240,
    )
    files["opencode"] = _write(
        home / ".local" / "share" / "opencode" / "storage" / "session" / "p1" / "ses_1.json",
        [
            {
                "id": "ses_1",
                "directory": f"{home}/notes",
                "title": "Tidy the notes",
                "time": {"created": 1_768_464_000_000, "updated": 1_768_464_060_000},
            }
        ],
        BASE + 300,
    )
    database = home / ".local" / "share" / "opencode" / "opencode.db"
    database.write_bytes(b"SQLite format 3\x00")  # newer opencode keeps its sessions here
    os.utime(database, (BASE - 60, BASE - 60))
    files["opencode-db"] = database
    recording = root / RUNS / "20270115-080000-claude.ndjson"
    recording.parent.mkdir(parents=True)
    recording.write_bytes((FIXTURES / "claude" / "success-tools.jsonl").read_bytes())
    os.utime(recording, (BASE + 360, BASE + 360))
    meta = RunMeta(recording.name, "claude -p 'fix it'", ("claude",), "/work/app", BASE + 1)
    write_meta(recording, meta, first=True)
    files["recording"] = recording
    job = root / "jobs" / "job-7.ndjson"
    job.parent.mkdir()
    job.write_bytes((FIXTURES / "codex" / "success-tools.jsonl").read_bytes())
    os.utime(job, (BASE, BASE))
    files["job"] = job
    return files


def fake_env(root: Path) -> dict[str, str]:
    """The environment that points the agents at :func:`build_home`'s folders."""
    return {
        "HOME": str(root / "home"),
        "CLAUDE_CONFIG_DIR": str(root / "claude-config"),
        "CODEX_HOME": str(root / "codex-home"),
        "XDG_STATE_HOME": str(root / "state"),
        "XDG_CACHE_HOME": str(root / "cache"),
    }
