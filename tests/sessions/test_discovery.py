"""Finding every run on a machine: each agent's session files where its settings put
them, recordings and ``--dir`` jobs, described from a bounded read."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from streamview.runs import session_discovery
from streamview.runs.session_discovery import RunFile, bounded_read, describe, discover
from tests.sessions.home import BASE, RUNS


def test_every_agent_found_newest_first(home: dict[str, Path], tmp_path: Path) -> None:
    """Each agent's file in its place (Claude's and Codex's moved by their settings),
    the recording and the job, newest activity first."""
    entries = discover(runs_folder=tmp_path / RUNS, folders=[tmp_path / "jobs"], now=BASE + 400)
    assert [entry.path for entry in entries] == [
        home[name]
        for name in (
            "recording",
            "opencode",
            "cursor",
            "gemini",
            "codex",
            "claude",
            "job",
            "opencode-db",
        )
    ]
    by_path = {entry.path: entry for entry in entries}
    claude = by_path[home["claude"]]
    assert (claude.agent, claude.project, claude.title) == (
        "Claude Code",
        "~/work/shop",
        "Fix the cart total",
    )
    assert claude.started == BASE  # its first record's timestamp, not the file's
    codex = by_path[home["codex"]]
    assert (codex.agent, codex.project, codex.title) == (
        "Codex",
        "/srv/api",
        "add a health endpoint",
    )
    assert codex.tokens == 3456  # its last running total
    assert by_path[home["gemini"]].title == "explain the build"
    cursor = by_path[home["cursor"]]
    assert (cursor.project, cursor.title) == ("work-site", "rename the site")  # its folder
    opencode = by_path[home["opencode"]]
    assert (opencode.project, opencode.title) == ("~/notes", "Tidy the notes")
    assert opencode.started == 1_768_464_000.0


def test_counts_of_a_small_file_from_its_fold(home: dict[str, Path], tmp_path: Path) -> None:
    """A file read whole is folded by its dialect: agent, calls, errors, tokens; the
    live mark goes by its last change."""
    entries = discover(runs_folder=tmp_path / RUNS, now=BASE + 370)
    recording = next(entry for entry in entries if entry.source == "recording")
    assert (recording.agent, recording.calls, recording.errors) == ("Claude Code", 8, 1)
    assert recording.tokens == 262
    assert (recording.title, recording.started) == ("claude -p 'fix it'", BASE + 1)  # its note
    assert recording.live
    assert not next(entry for entry in entries if entry.source == "session").live


def test_default_places_without_settings(tmp_path: Path) -> None:
    """Without CLAUDE_CONFIG_DIR and CODEX_HOME, the folders are under HOME."""
    homes = session_discovery.agent_homes({"HOME": "/h"})
    assert homes["claude"] == Path("/h/.claude/projects")
    assert homes["codex"] == Path("/h/.codex/sessions")
    assert homes["opencode"] == Path("/h/.local/share/opencode")


def test_a_big_file_is_read_by_its_head_and_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the bounded read, only the head and the tail are read, cut at whole lines,
    and the calls are unknown rather than counted from a part (a running total of
    tokens in the tail is the whole's); a title given
    late is found in the tail."""
    monkeypatch.setattr(session_discovery, "HEAD_BYTES", 100)
    monkeypatch.setattr(session_discovery, "TAIL_BYTES", 200)
    path = tmp_path / "big.jsonl"
    lines = [b'{"type":"user","message":{"content":"first words"},"n":%d}' % n for n in range(50)]
    lines.append(b'{"type":"summary","summary":"named late"}')
    lines.append(
        b'{"payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":9}}}}'
    )
    path.write_bytes(b"\n".join(lines) + b"\n")
    head, tail, whole = bounded_read(path)
    assert not whole
    assert head == lines[0] + b"\n"
    assert tail.endswith(lines[-1] + b"\n") and len(tail) < 200
    entry = describe(RunFile(path, "claude", "session"), now=0)
    assert entry.title == "named late"  # from the tail, the head had none
    assert entry.calls is None  # not counted from a part
    assert entry.tokens == 9  # a running total: the tail's last is the whole's


def test_a_file_unchanged_since_the_last_pass_is_not_read_again(
    home: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a cache, a second pass reads only the file that grew; the others keep what
    was read, and their live mark is judged anew."""
    read: list[Path] = []
    real = session_discovery.bounded_read
    monkeypatch.setattr(
        session_discovery, "bounded_read", lambda path: read.append(path) or real(path)
    )
    cache: session_discovery.DescribeCache = {}
    first = discover(now=BASE + 300, cache=cache)
    assert len(read) == len(first) - 1  # opencode.db is not read
    assert next(e for e in first if e.path == home["opencode"]).live
    with home["codex"].open("ab") as file:
        file.write(b'{"type":"event_msg","payload":{"type":"agent_message"}}\n')
    read.clear()
    second = discover(now=BASE + 1000, cache=cache)
    assert read == [home["codex"]]
    assert not next(e for e in second if e.path == home["opencode"]).live
    assert second[0].path == home["codex"]  # its activity is now


def test_an_unreadable_file_is_listed_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A session file that cannot be read (permission denied) is still a run of the
    list, its title saying why."""
    path = tmp_path / "locked.jsonl"
    path.write_bytes(b"{}\n")

    def refuse(path: Path) -> tuple[bytes, bytes, bool]:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(session_discovery, "bounded_read", refuse)
    entry = describe(RunFile(path, "claude", "session"), now=0)
    assert (entry.agent, entry.title, entry.size) == (
        "Claude Code",
        "unreadable: Permission denied",
        3,
    )


def test_claude_s_interrupt_mark_is_not_a_session_s_title() -> None:
    """A Claude Code session whose first user record is Claude Code's own
    ``[Request interrupted by user]`` was listed under that title (seen in tmux on the
    real tool_heavy fixture): its first prompt is the person's words after it."""
    from streamview.runs.session_heads import read_head, records

    path = Path(__file__).resolve().parents[1] / "fixtures/sessions/claude/tool_heavy.jsonl"
    data = path.read_bytes()
    prompt = read_head(records(data[:65536])).prompt
    assert prompt and not prompt.startswith("[Request interrupted")
    assert prompt in data.decode()


def test_a_codex_thread_spawned_by_another_is_listed_under_its_parent_only(
    tmp_path: Path,
) -> None:
    """The spawned thread's rollout (its session_meta names a parent) is read inside the
    parent's, under the spawn call: the list holds the parent alone, also from the index
    a second pass reads."""
    day = tmp_path / "codex-home" / "sessions" / "2026" / "09" / "28"
    day.mkdir(parents=True)
    spawned = Path(__file__).parents[1] / "fixtures" / "sessions" / "codex" / "spawned"
    for rollout in sorted(spawned.rglob("rollout-*.jsonl")):
        (day / rollout.name).write_bytes(rollout.read_bytes())
    env = {"HOME": str(tmp_path / "home"), "CODEX_HOME": str(tmp_path / "codex-home")}
    cache: session_discovery.DescribeCache = {}
    for _ in range(2):
        entries = discover(env=env, cache=cache, now=BASE)
        assert [entry.path.name for entry in entries] == [
            "rollout-2026-09-28T13-01-29-01a0e81b-2a8b-7240-b94c-ad2ada7813da.jsonl"
        ]
        assert entries[0].calls is not None and entries[0].calls >= 1


def test_an_opencode_subagent_session_file_is_not_listed_as_a_run(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """opencode 1.0's session files: a task call's child session names its parent
    (``parentID``); the parent is the run listed."""
    parent = home["opencode"]
    child = parent.with_name("ses_2.json")
    child.write_text('{"id": "ses_2", "parentID": "ses_1", "title": "find (@general subagent)"}')
    listed = [entry.path for entry in discover(now=BASE + 400)]
    assert parent in listed
    assert child not in listed


def test_opencode_s_database_is_listed_as_its_newest_session(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """Its title, folder, start and calls (a failed one counted), read-only; a file that
    only looks like a database is listed from its place, as before."""
    fixture = Path(__file__).parents[1] / "fixtures" / "sessions" / "opencode" / "opencode.db"
    database = home["opencode-db"]
    listed = {entry.path: entry for entry in discover(now=BASE + 400)}
    assert (listed[database].title, listed[database].calls) == (None, None)
    database.write_bytes(fixture.read_bytes())
    before = database.read_bytes()
    entry = {entry.path: entry for entry in discover(now=BASE + 400)}[database]
    assert (entry.agent, entry.title, entry.project) == ("opencode", "Read the config", "/work/app")
    assert (entry.calls, entry.errors) == (2, 1)
    assert entry.started is not None
    assert database.read_bytes() == before


def test_a_database_written_through_its_log_is_live_and_read_again(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """opencode writes the -wal file as it goes (the database file changes only at a
    checkpoint): the run's activity is the log's, and a session renamed in the log is
    what a second pass shows, though the database file's size and time did not move."""
    fixture = Path(__file__).parents[1] / "fixtures" / "sessions" / "opencode" / "opencode.db"
    database = home["opencode-db"]
    database.write_bytes(fixture.read_bytes())
    os.utime(database, (BASE, BASE))
    cache: session_discovery.DescribeCache = {}
    first = {entry.path: entry for entry in discover(now=BASE + 400, cache=cache)}[database]
    assert (first.title, first.live) == ("Read the config", False)
    with closing(sqlite3.connect(database)) as writer:  # opencode keeps it open, in WAL mode
        writer.execute("PRAGMA journal_mode = WAL")
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE session SET title = 'Read the config again', time_updated ="
                       " time_updated + 1 WHERE id = 'ses_4b1f0c2a7ffeA1b2C3d4E5f6G7'")  # fmt: skip
        writer.commit()
        os.utime(database, (BASE, BASE))
        wal = database.with_name(database.name + "-wal")
        os.utime(wal, (BASE + 390, BASE + 390))
        second = {entry.path: entry for entry in discover(now=BASE + 400, cache=cache)}[database]
    assert (second.title, second.live, second.last_activity) == (
        "Read the config again", True, BASE + 390,
    )  # fmt: skip
