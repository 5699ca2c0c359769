"""The index ``streamview sessions`` keeps under ``XDG_CACHE_HOME``: a second pass reads
only what changed; a torn, corrupt or foreign index is ignored and rebuilt; files are
read newest first within a budget, the rest listed pending."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from streamview.cli import main
from streamview.runs import session_discovery
from streamview.runs.session_discovery import discover
from streamview.runs.session_index import SessionIndex, index_path, load_index, save_index
from tests.sessions.home import BASE


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files discovery reads from now on."""
    read: list[Path] = []
    real = session_discovery.bounded_read
    monkeypatch.setattr(
        session_discovery, "bounded_read", lambda path: read.append(path) or real(path)
    )
    return read


def _listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    assert main(["sessions", "--json"]) == 0
    return [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_a_second_run_reads_only_what_changed(
    home: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first run writes a private index; the next one, in a new process's shoes (a
    fresh load), reads no file but the one that grew, and lists the same runs."""
    first = _listed(capsys)
    path = index_path()
    assert path.is_file()
    assert (path.stat().st_mode & 0o777, path.parent.stat().st_mode & 0o777) == (0o600, 0o700)
    read = _reads(monkeypatch)
    assert _listed(capsys) == first
    assert read == []
    with home["codex"].open("ab") as file:
        file.write(b'{"type":"event_msg","payload":{"type":"agent_message"}}\n')
    second = _listed(capsys)
    assert read == [home["codex"]]
    assert second[0]["path"] == str(home["codex"])  # its activity is now


@pytest.mark.parametrize(
    "damage",
    [
        b'{"format":1,"runs":{"/x":{"size":1,"mtime',  # torn mid-write
        b"\x00\xff garbage",
        b'{"format":99,"runs":{}}',  # a later streamview's
        b"[1,2,3]",
    ],
)
def test_a_damaged_index_is_ignored_and_rebuilt(
    home: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    damage: bytes,
) -> None:
    """Whatever the index holds, the list is what the files say, and the index is
    written whole again."""
    fresh = _listed(capsys)
    path = index_path()
    path.write_bytes(damage)
    read = _reads(monkeypatch)
    assert _listed(capsys) == fresh
    assert len(read) == len(fresh) - 1  # every file read again (opencode.db never is)
    assert len(load_index(path)) == len(fresh)


def test_wrong_entries_and_foreign_files_are_not_trusted(
    home: dict[str, Path], tmp_path: Path
) -> None:
    """An entry of the wrong types is dropped, the others kept; an index another user
    could write (group or world bits), or a symlink, is not read at all."""
    cache: session_discovery.DescribeCache = {}
    discover(now=BASE, cache=cache)
    path = tmp_path / "cache" / "index.json"
    assert save_index(path, cache)
    document = orjson.loads(path.read_bytes())
    victim = str(home["claude"])
    document["runs"][victim]["title"] = ["not", "a", "title"]
    path.write_bytes(orjson.dumps(document))
    loaded = load_index(path)
    assert Path(victim) not in loaded and len(loaded) == len(cache) - 1
    path.chmod(0o644)
    assert load_index(path) == {}
    path.chmod(0o600)
    link = tmp_path / "cache" / "link.json"
    link.symlink_to(path)
    assert load_index(link) == {} and load_index(path) != {}


def test_an_unreadable_file_is_not_kept_in_the_index(
    home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose read failed is read again next time (a chmod does not change its
    mtime): its reason is shown now, its runs once it can be read."""
    real = session_discovery.bounded_read

    def refuse(path: Path) -> tuple[bytes, bytes, bool]:
        if path == home["claude"]:
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(session_discovery, "bounded_read", refuse)
    index = SessionIndex(index_path())
    entries = discover(now=BASE, cache=index.cache)
    index.save()
    refused = next(entry for entry in entries if entry.path == home["claude"])
    assert refused.problem == "unreadable: Permission denied"
    monkeypatch.setattr(session_discovery, "bounded_read", real)
    again = SessionIndex(index_path())
    assert home["claude"] not in again.cache and home["codex"] in again.cache
    entry = next(e for e in discover(now=BASE, cache=again.cache) if e.path == home["claude"])
    assert (entry.problem, entry.title) == (None, "Fix the cart total")


def test_newest_first_within_the_budget(
    home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of time after two files, the two newest are read and the others listed
    pending (their place and size known); the next pass reads the rest."""
    ticks = iter([0.0, 0.0, 0.0, *[5.0] * 50])
    monkeypatch.setattr(session_discovery.time, "monotonic", lambda: next(ticks))
    cache: session_discovery.DescribeCache = {}
    entries = discover(now=BASE, cache=cache, budget=1.0)
    assert [entry.pending for entry in entries] == [False, False, True, True, True, True]
    assert [entry.path for entry in entries[:2]] == [home["opencode"], home["cursor"]]
    pending = entries[2]
    assert (pending.agent, pending.title, pending.size) == (
        "Gemini CLI",
        None,
        home["gemini"].stat().st_size,
    )
    monkeypatch.setattr(session_discovery.time, "monotonic", lambda: 0.0)
    assert not any(entry.pending for entry in discover(now=BASE, cache=cache, budget=1.0))


def test_index_path_follows_xdg_cache_home() -> None:
    """``$XDG_CACHE_HOME/streamview``; ``~/.cache`` when unset or not absolute."""
    assert index_path({"HOME": "/h", "XDG_CACHE_HOME": "/c"}) == Path(
        "/c/streamview/sessions-index.json"
    )
    for env in ({"HOME": "/h"}, {"HOME": "/h", "XDG_CACHE_HOME": "rel"}):
        assert index_path(env) == Path("/h/.cache/streamview/sessions-index.json")
