"""What session files can hold (issue 27.5): a file rewritten, truncated or deleted while
it is read, one that cannot be read, a folder that loops, a record no release documents,
a 2 GB file; and what streamview never does to them (write, move, send, serve them
beyond this machine unasked)."""

from __future__ import annotations

import io
import os
import socket
from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.cli import main
from streamview.core.reader import fold
from streamview.runs import session_discovery
from streamview.runs.session_discovery import RunFile, bounded_read, describe, discover
from streamview.runs.session_index import SessionIndex, index_path
from tests.sessions.home import BASE

PROMPT = {
    "type": "user",
    "uuid": "u1",
    "parentUuid": None,
    "sessionId": "s1",
    "cwd": "/work/shop",
    "timestamp": "2026-11-01T10:00:00.000Z",
    "message": {"role": "user", "content": "the cart total is wrong"},
}


def _lines(*records: object) -> bytes:
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


class _ShrinksAfterFirstRead:
    """A file object whose file is cut short by its writer right after the first read."""

    def __init__(self, file: Any, path: Path, keep: int) -> None:
        self._file, self._path, self._keep, self._cut = file, path, keep, False

    def __enter__(self) -> _ShrinksAfterFirstRead:
        return self

    def __exit__(self, *exc: object) -> None:
        self._file.close()

    def read(self, size: int = -1) -> bytes:
        data: bytes = self._file.read(size)
        if not self._cut:
            self._cut = True
            os.truncate(self._path, self._keep)
        return data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._file, name)


def test_a_file_cut_short_while_read_gives_what_could_be_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file truncated between the head's read and the tail's seek (a rewrite in
    place) is described from what was read, not listed as unreadable."""
    monkeypatch.setattr(session_discovery, "HEAD_BYTES", 200)
    monkeypatch.setattr(session_discovery, "TAIL_BYTES", 400)
    path = tmp_path / "s.jsonl"
    path.write_bytes(_lines(PROMPT) + b'{"type":"progress","n":0}\n' * 100)
    real_open = Path.open

    def opened(self: Path, *args: Any, **kwargs: Any) -> Any:
        file = real_open(self, *args, **kwargs)
        return _ShrinksAfterFirstRead(file, self, 300) if self == path else file

    monkeypatch.setattr(Path, "open", opened)
    entry = describe(RunFile(path, "claude", "session"), now=0)
    assert (entry.problem, entry.title) == (None, "the cart total is wrong")


def test_a_truncated_or_rewritten_file_is_read_again(
    home: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A session file rewritten shorter (another session in its place) is read anew,
    by a later pass and by a later process through the index."""
    assert main(["sessions", "--json"]) == 0
    capsys.readouterr()
    home["claude"].write_bytes(_lines({**PROMPT, "message": {"content": "a new start"}}))
    os.utime(home["claude"], (BASE + 60, BASE + 60))  # same mtime: the size tells
    assert main(["sessions", "--json"]) == 0
    runs = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [run["title"] for run in runs if run["path"] == str(home["claude"])] == ["a new start"]


def test_a_file_deleted_before_it_is_read_is_not_listed(
    home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deleted between the listing and the read: gone from the list (not a run that
    cannot be read), and from the index."""
    real = session_discovery.bounded_read

    def delete_first(path: Path) -> tuple[bytes, bytes, bool]:
        if path == home["codex"]:
            path.unlink()
        return real(path)

    monkeypatch.setattr(session_discovery, "bounded_read", delete_first)
    index = SessionIndex(index_path())
    entries = discover(now=BASE, cache=index.cache)
    index.save()
    assert home["codex"] not in {entry.path for entry in entries}
    assert all(entry.problem is None for entry in entries)
    assert home["codex"] not in SessionIndex(index_path()).cache


def test_permission_denied_is_listed_with_the_reason(
    home: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file this user may not read is a run of the list all the same, its reason in
    ``problem`` (and the title). As root, permissions do not stop a read: the refusal
    is the open's, as the kernel gives it to anyone else."""
    locked = home["codex"]
    locked.chmod(0o000)
    if os.geteuid() == 0:
        real_open = Path.open

        def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
            if self == locked:
                raise PermissionError(13, "Permission denied", str(self))
            return real_open(self, *args, **kwargs)

        monkeypatch.setattr(Path, "open", refuse)
    assert main(["sessions", "--json", "--agent", "codex"]) == 0
    (run,) = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (run["path"], run["agent"]) == (str(locked), "Codex")
    assert run["problem"] == run["title"] == "unreadable: Permission denied"
    assert run["size"] == locked.stat().st_size


def test_a_symlink_loop_ends_and_a_linked_project_is_found(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """A folder linking back up (and one linking to itself) is entered once; a project
    folder kept elsewhere and linked in is followed."""
    projects = home["claude"].parent.parent
    (projects / "-home-me-work-shop" / "up").symlink_to(projects)
    (projects / "self").symlink_to(projects / "self")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    linked = elsewhere / "9d1e.jsonl"
    linked.write_bytes(_lines(PROMPT))
    (projects / "-work-linked").symlink_to(elsewhere)
    paths = [entry.path for entry in discover(now=BASE) if entry.agent == "Claude Code"]
    assert sorted(paths) == sorted([home["claude"], projects / "-work-linked" / "9d1e.jsonl"])


def test_a_link_to_somewhere_far_is_looked_into_a_few_levels_only(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """A folder in an agent's place linking far away (``/``, the home) is walked no
    deeper than the agents' own layouts go: a session two levels in is found, one nine
    levels in is not looked for."""
    far = tmp_path / "far"
    near = far / "near" / "s1.jsonl"
    deep = far.joinpath(*"abcdefgh") / "s2.jsonl"
    for path in (near, deep):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_lines(PROMPT))
    projects = home["claude"].parent.parent
    (projects / "-far").symlink_to(far)
    paths = {entry.path for entry in discover(now=BASE)}
    assert projects / "-far" / "near" / "s1.jsonl" in paths
    assert not any(path.name == "s2.jsonl" for path in paths)


def test_an_undocumented_record_is_counted_never_painted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A record type no release documents is counted for the event log; its words
    reach neither the transcript nor ``--print``."""
    hologram = {"type": "hologram-v9", "uuid": "h1", "text": "HOLOGRAM WORDS", "n": 1}
    answer = {
        "type": "assistant",
        "uuid": "a1",
        "parentUuid": "u1",
        "sessionId": "s1",
        "timestamp": "2026-11-01T10:00:01.000Z",
        "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "ok"}]},
    }
    data = _lines(PROMPT, hologram, answer)
    state = fold([data])
    assert [record.type for record in state.unknown] == ["hologram-v9"]
    assert state.counts.unknown == 1
    painted = repr([block for session in state.sessions for block in session.blocks])
    assert "HOLOGRAM" not in painted and "the cart total" in painted
    path = tmp_path / "s1.jsonl"
    path.write_bytes(data)
    main([str(path), "--print"])
    assert "HOLOGRAM" not in capsys.readouterr().out


def test_a_2gb_file_costs_its_head_and_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 2 GB session (sparse here: its head and tail written, the rest a hole) is read
    by :data:`HEAD_BYTES` + :data:`TAIL_BYTES` at most, and described."""
    path = tmp_path / "huge.jsonl"
    tail = _lines({"type": "summary", "summary": "a very long day"})
    with path.open("wb") as file:
        file.write(_lines(PROMPT))
        file.truncate(2 << 30)
        file.seek((2 << 30) - len(tail) - 1)
        file.write(b"\n" + tail)
    read: list[int] = []
    real_open = Path.open

    class Counting(io.BufferedReader):
        def read(self, size: int | None = -1) -> bytes:
            data = super().read(size)
            read.append(len(data))
            return data

    def opened(self: Path, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if self == path:
            return Counting(io.FileIO(self, "rb"))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", opened)
    head, tail_read, whole = bounded_read(path)
    assert not whole and tail_read == tail and head.startswith(b'{"type":"user"')
    assert sum(read) <= session_discovery.HEAD_BYTES + session_discovery.TAIL_BYTES
    entry = describe(RunFile(path, "claude", "session"), now=0)
    assert (entry.size, entry.title, entry.calls) == (2 << 30, "a very long day", None)


def test_session_files_are_only_read_and_nothing_is_sent(
    home: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Listing every run and printing one opens each session file for reading only,
    leaves it as it was (bytes, size, mtime, inode), creates nothing beside it, and
    connects to nothing."""
    roots = [path.parent for path in home.values()]
    before = {
        path: (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_ino)
        for root in roots
        for path in root.rglob("*")
        if path.is_file()
    }
    writes: list[str] = []
    real_io_open, real_os_open = io.open, os.open

    def io_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(flag in mode for flag in "wax+") and str(file).startswith(
            str(home["claude"].parents[3])
        ):
            writes.append(f"{file} {mode}")
        return real_io_open(file, mode, *args, **kwargs)

    def os_open(file: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR) and Path(file) in before:
            writes.append(f"{file} {flags}")
        return real_os_open(file, flags, *args, **kwargs)

    def no_network(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("streamview connected somewhere")

    monkeypatch.setattr(io, "open", io_open)
    monkeypatch.setattr("builtins.open", io_open)
    monkeypatch.setattr(os, "open", os_open)
    monkeypatch.setattr(socket.socket, "connect", no_network)
    monkeypatch.setattr(socket, "create_connection", no_network)
    assert main(["sessions", "--json"]) == 0
    main([str(home["claude"]), "--print"])  # its status: cut mid-turn
    capsys.readouterr()
    after = {
        path: (path.read_bytes(), path.stat().st_mtime_ns, path.stat().st_ino)
        for root in roots
        for path in root.rglob("*")
        if path.is_file()
    }
    assert writes == []
    assert after == before


def test_serving_a_session_file_stays_on_this_machine(
    home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--serve`` of a session file listens on localhost unless ``--host`` says where."""
    from streamview.fronts import serve

    hosts: list[str] = []
    monkeypatch.setattr(serve, "serve", lambda arguments, host, **options: hosts.append(host) or 0)
    assert main([str(home["claude"]), "--serve"]) == 0
    assert main([str(home["claude"]), "--serve", "--host", "0.0.0.0"]) == 0
    assert hosts == ["localhost", "0.0.0.0"]


@pytest.mark.parametrize(
    ("version", "newer"), [("3.0.1", True), ("2.2.0", True), ("2.1.999", False)]
)
def test_a_newer_format_is_read_with_what_can_be_read_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], version: str, newer: bool
) -> None:
    """A session written by a release past the ones its dialect was checked against
    (Claude Code 2.1.x) is shown as far as it can be read, a notice in the event log
    and ``--print`` saying so; its unknown records are counted, not painted."""
    record = {**PROMPT, "version": version}
    future = {"type": "thought-stream", "uuid": "t1", "parentUuid": "u1", "text": "FUTURE"}
    data = _lines(record, future)
    state = fold([data])
    said = [n.text for n in state.notices if getattr(n, "subtype", None) == "newer-format"]
    assert bool(said) is newer
    if newer:
        assert said == [
            f"written by Claude Code {version}, newer than the 2.1.x streamview knows: shown "
            "with what can be read; records it does not know are counted in the event log"
        ]
    assert state.sessions[0].prompt == "the cart total is wrong"
    assert state.counts.unknown == 1
    path = tmp_path / "future.jsonl"
    path.write_bytes(data)
    main([str(path), "--print"])
    printed = capsys.readouterr().out
    assert ("newer than the 2.1.x" in printed) is newer and "FUTURE" not in printed
