"""The sessions benchmarks' homes are what discovery reads as a heavy user's: each
file found, its agent and prompt read; a huge sparse session listed like a small one.
No timing is asserted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from streamview.runs.session_discovery import discover

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "bench"))

import sessions_list  # noqa: E402


def test_the_list_bench_home_is_read_as_sessions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty files of a small home: Claude and Codex sessions, newest last numbered,
    each titled by its prompt; the big one read by its head and tail."""
    monkeypatch.setattr(sessions_list, "BIG_SIZE", 1 << 20)
    built = sessions_list.build_home(tmp_path, 20, 2 / 1024)
    env = {
        "HOME": str(tmp_path / "home"),
        "CLAUDE_CONFIG_DIR": str(tmp_path / "claude"),
        "CODEX_HOME": str(tmp_path / "codex"),
    }
    entries = discover(env=env, now=0)
    assert built["files"] == len(entries) == 20
    assert [entry.title for entry in entries[:3]] == [
        "bench task 0019",
        "bench task 0018",
        "bench task 0017",
    ]
    assert {entry.agent for entry in entries} == {"Claude Code", "Codex"}
    assert entries[-1].size >= 1 << 20 and entries[-1].calls is None  # past the bounded read


def test_the_huge_bench_lists_a_sparse_session(tmp_path: Path) -> None:
    """``bench/sessions_huge.py`` at 64 MB prints both listings, the same title."""
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "sessions_huge.py"), "--gigabytes", "0.0625"],
        capture_output=True,
        check=True,
        cwd=REPO,
        timeout=120,
    )
    result = orjson.loads(done.stdout)
    assert result["huge"]["size"] == 64 << 20
    assert result["huge"]["title"] == result["small"]["title"] is not None
