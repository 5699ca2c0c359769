"""One account for scripts: ``--json`` says usage and calls in the words ``--events``
uses, for every agent, and ``run`` and ``last`` give ``process`` the same shape."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from streamview import read_events
from streamview.core.markdown_export import to_markdown
from streamview.core.normalized import Usage, shared_kind
from streamview.core.reader import fold
from streamview.core.state import StreamState
from streamview.core.summary import summarize
from tests.core.dialects.fixtures import FIXTURES, every_fixture

from .helpers import REPO_ROOT, child_env, command

USAGE_KEYS = [
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
]
FIXTURES_BY_AGENT = every_fixture()
LINGER = [sys.executable, str(REPO_ROOT / "tests" / "run" / "agents" / "linger.py")]


def summary_of(path: Path) -> dict[str, Any]:
    return summarize(fold([path.read_bytes()], StreamState(track_changes=False)))


@pytest.mark.parametrize(
    ("agent", "path"), FIXTURES_BY_AGENT, ids=[f"{a}/{p.name}" for a, p in FIXTURES_BY_AGENT]
)
def test_usage_has_the_same_keys_for_every_agent_and_the_raw_object_beside_it(
    agent: str, path: Path
) -> None:
    told = {
        event.session: event for event in read_events(path.read_bytes()) if isinstance(event, Usage)
    }
    for index, session in enumerate(summary_of(path)["sessions"]):
        outcome = session["outcome"]
        assert list(outcome["usage"]) == USAGE_KEYS
        event = told.get(index)
        if event is None:
            continue
        # The normalized usage is --events' usage; the agent's own object is kept raw.
        assert outcome["usage"] == {key: getattr(event, key) for key in USAGE_KEYS}
        assert outcome["usage_raw"] == event.raw


def test_claude_and_codex_usage_read_the_same_way() -> None:
    claude = summary_of(FIXTURES / "claude" / "success-tools.jsonl")["sessions"][0]["outcome"]
    codex = summary_of(FIXTURES / "codex" / "every-kind.jsonl")["sessions"][0]["outcome"]
    assert claude["usage"]["input_tokens"] == claude["usage_raw"]["input_tokens"]
    assert codex["usage"]["input_tokens"] == codex["usage_raw"]["inputTokens"] == 48210


def test_a_calls_kind_is_the_shared_kind_and_its_name_the_tools_own() -> None:
    session = summary_of(FIXTURES / "codex" / "every-kind.jsonl")["sessions"][0]
    calls = [(call["kind"], call["name"]) for call in session["tool_calls"]]
    assert calls == [
        ("todo", "updateTodos"),
        ("shell", "shell"),
        ("edit", "edit"),
        ("mcp", "mcp"),
        ("web-search", "webSearch"),
        ("shell", "shell"),
    ]
    for agent, path in FIXTURES_BY_AGENT:
        for listed in summary_of(path)["sessions"]:
            for call in listed["tool_calls"]:
                assert call["kind"] == shared_kind(call["name"]), (agent, path.name)


def test_run_and_last_give_lingered_one_type(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}

    def streamview(*args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(command(*args), capture_output=True, env=env, timeout=60, check=False)

    live = json.loads(streamview("run", "--json", "--", *LINGER).stdout)["process"]
    last = json.loads(streamview("last", "--json").stdout)["process"]
    assert isinstance(live["lingered"], list) and isinstance(last["lingered"], list)
    (agent,) = last["lingered"]
    assert agent["command"] == shlex.join(LINGER) == live["lingered"][0]["command"]
    assert agent["stopped"] is True
    assert set(agent) == set(live["lingered"][0]) == {"pid", "command", "stopped"}


def test_run_takes_agent(tmp_path: Path) -> None:
    env = child_env() | {"XDG_STATE_HOME": str(tmp_path / "state")}
    path = FIXTURES / "opencode" / "success-tools.jsonl"
    argv = command("run", "--print", "--agent", "kilo", "--", "cat", str(path))
    done = subprocess.run(argv, capture_output=True, env=env, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert " · Kilo Code CLI" in done.stdout.decode().splitlines()[0]


def test_print_and_markdown_name_cursor_too() -> None:
    path = FIXTURES / "cursor" / "read-and-answer.ndjson"
    done = subprocess.run(
        command("--print", str(path)), capture_output=True, env=child_env(), timeout=60
    )
    assert " · Cursor · " in done.stdout.decode().splitlines()[0]
    state = fold([path.read_bytes()], StreamState())
    assert "- **Agent:** `Cursor`" in to_markdown(state)
