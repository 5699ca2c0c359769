"""``--print`` and ``--json`` account for every record an agent prints about its own
work (issue 22.2), name the agent and model from wherever the stream says them, and
print hooks that come before ``init`` under the session it opens (issue 22.3).

Fixtures: tests/fixtures/dialects/claude/ (see its SOURCES.md).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import orjson

from .helpers import REPO_ROOT, run

CLAUDE = REPO_ROOT / "tests" / "fixtures" / "dialects" / "claude"
CONVERSATION = {"assistant", "user", "stream_event", "result"}


def own_records(path: Path) -> Counter[str]:
    """``type/subtype`` of each record of the file that is not the conversation nor init."""
    counted: Counter[str] = Counter()
    for line in path.read_bytes().splitlines():
        record = orjson.loads(line)
        if record["type"] in CONVERSATION or record.get("subtype") == "init":
            continue
        name = record["type"] + (f"/{record['subtype']}" if "subtype" in record else "")
        counted[name] += 1
    return counted


def test_json_counts_every_record_of_the_cli_and_none_is_unknown() -> None:
    path = CLAUDE / "every-record.jsonl"
    done = run("--json", str(path))
    assert done.returncode == 0, done.stderr
    document = orjson.loads(done.stdout)
    lines = path.read_bytes().count(b"\n")
    assert document["lines"] == {"total": lines, "events": lines, "malformed": 0, "unknown": 0}
    # A retry is a connection notice, named as such; every other record by its own name.
    expected = own_records(path)
    expected["retry/api_retry"] = expected.pop("system/api_retry")
    assert Counter(document["notices"]) == expected


def test_print_writes_each_notice_once_and_never_inside_the_answer() -> None:
    path = CLAUDE / "every-record.jsonl"
    done = run("--print", str(path))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode().splitlines()
    assert not [line for line in out if "unknown record" in line]
    assert "~~ compacting the context" in out
    assert "~~ rate limited (five hour window, resets 2026-09-02 04:00 UTC)" in out
    assert "~~ hook SessionStart:startup error (exit 127): lint.sh: not found" in out
    # The answer's lines are whole: no notice sits between a delta and the rest of it.
    assert out.count("   Running the tests in the background.") == 1
    assert out.count("   All tests pass.") == 1
    # Frequent bookkeeping (a token meter, a progress tick) is left to the event log.
    assert not [line for line in out if "running 12s" in line or "turn took" in line]


def test_hooks_before_init_print_under_the_one_session_it_opens() -> None:
    """Real Claude Code 2.1.247 lines: the SessionStart hooks, then init."""
    path = CLAUDE / "real-2.1.247-hooks-before-init.jsonl"
    out = run("--print", str(path)).stdout.decode().splitlines()
    headers = [line for line in out if line.startswith("== session")]
    assert headers == [
        "== session c34ee513-e375-415f-ae7b-1fb9a71b5953 · Claude Code"
        " · claude-haiku-4-5-20251001 · /Users/jacobposel/Documents/HQ · default · none"
    ]
    assert out[:2] == [
        "~~ hook SessionStart:startup started",
        "~~ hook SessionStart:startup success (exit 0)",
    ]
    (session,) = orjson.loads(run("--json", str(path)).stdout)["sessions"]
    assert (session["agent"], session["model"]) == ("claude", "claude-haiku-4-5-20251001")


def test_a_stream_without_init_is_named_with_or_without_agent() -> None:
    """Real Claude Code 2.1.247 lines of a run cut before its init."""
    path = CLAUDE / "real-2.1.247-no-init.jsonl"
    for forced in ([], ["--agent", "claude"]):
        (session,) = orjson.loads(run("--json", *forced, str(path)).stdout)["sessions"]
        assert (session["agent"], session["model"]) == ("claude", "claude-haiku-4-5-20251001")
        out = run("--print", *forced, str(path)).stdout.decode().splitlines()
        assert out[0] == (
            "== session bda49ac8-be7a-402e-aa29-530eb37cad06 · Claude Code"
            " · claude-haiku-4-5-20251001"
        )
