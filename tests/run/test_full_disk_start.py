"""A disk full when the run starts keeps the run's note (issue 26, point 8).

With 0 bytes free the sidecar is 0 bytes: ``runs`` said "empty" and ``last --print``
"input is empty" (exit 2), as if the run had printed nothing. With 4 KB free the sidecar
kept the start state for ever ("unfinished") though the reserved room's first 4 KB were
there to say "cut: disk full". Now the failed reservation is said at the start, what
fits is used, and a missing, unreadable or start-state note reads "cut or unknown".
A real tmpfs filled to the byte (see tests/run/disk.py).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from streamview.cli.runs import UNKNOWN, outcome_of
from streamview.runs.run_meta import RunMeta, read_meta, sidecar_path

from .disk import small_disk

REPO = Path(__file__).resolve().parents[2]
AGENT = [sys.executable, str(Path(__file__).parent / "agents" / "success.py")]


def streamview(
    *arguments: str, env: dict[str, str], preexec: object = None
) -> tuple[int, str, str]:
    done = subprocess.run(
        [sys.executable, "-m", "streamview", *arguments],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        preexec_fn=preexec,  # type: ignore[arg-type]
        timeout=120,
    )
    return done.returncode, done.stdout, done.stderr


def recorded(folder: Path) -> Path:
    (path,) = (folder / "streamview" / "runs").glob("*.ndjson")
    return path


def test_no_room_at_all_says_so_at_the_start_and_reads_cut_or_unknown(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", free=0, make=["streamview/runs"]) as disk:
        env = dict(os.environ, XDG_STATE_HOME=str(disk.folder))
        code, _, err = streamview("run", "--print", "--", *AGENT, env=env, preexec=disk.preexec)
        assert code == 0, err  # the run succeeded: the disk's trouble is not the run's
        path = recorded(disk.folder)
        assert f"cannot reserve room for the run's note {sidecar_path(path)}" in err
        assert path.stat().st_size == 0 and read_meta(path) is None
        _, listing, _ = streamview("runs", env=env)
        row = listing.splitlines()[2]
        assert UNKNOWN in row and "empty" not in row
        code, out, err = streamview("last", "--print", env=env)
        assert "input is empty" not in err
        assert "how this run ended is unknown (cut or unknown)" in out
        assert code != 2


def test_4_kb_of_room_still_says_the_recording_was_cut(tmp_path: Path) -> None:
    with small_disk(tmp_path / "disk", free=4096, make=["streamview/runs"]) as disk:
        env = dict(os.environ, XDG_STATE_HOME=str(disk.folder))
        code, _, err = streamview("run", "--print", "--", *AGENT, env=env, preexec=disk.preexec)
        assert code == 0, err
        path = recorded(disk.folder)
        assert "cannot reserve room for the run's note" in err
        meta = read_meta(path)
        assert meta is not None
        assert (meta.cut, meta.ended, meta.exit_code) == (disk.reason, "finished", 0)
        _, listing, _ = streamview("runs", env=env)
        assert f"✂ cut: {disk.reason}" in listing.splitlines()[2]
        _, out, _ = streamview("last", "--print", env=env)
        assert f"!! recording cut: {disk.reason} after" in out


@pytest.mark.parametrize("status", ["empty", "incomplete", "success"])
def test_a_note_left_as_at_the_start_reads_cut_or_unknown(status: str) -> None:
    start = RunMeta("run.ndjson", "agent -p hi", agent_pid=42, writer_pid=41)
    assert outcome_of(status, start, held=False) == UNKNOWN
    assert outcome_of(status, start, held=True) == "● recording"


def test_an_empty_recording_without_a_note_reads_cut_or_unknown() -> None:
    assert outcome_of("empty", None, held=False) == UNKNOWN
    assert outcome_of("success", None, held=False) == "✓ success"  # older, whole: its stream says
