"""``--events`` streams in constant memory: a long run of many sessions costs no more
peak memory than a short one (issue 30.8: 25 MB for 10k events, 163 MB for 1.2M).

Not a timing test: it compares the peak RSS of two children, one reading 10k events and
one 20 times as many, of the same sessions: each child's own ``VmHWM``
(``bench/child_peak.py``). ``wait4``'s ``ru_maxrss`` was no measure: a child started by
this worker reports at least the worker's own peak (Linux carries it across ``exec``),
so both children read alike whatever they held, and the test could not fail."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.helpers import (
    REPO_ROOT,
    SID,
    assistant_record,
    child_env,
    init_record,
    ndjson,
    result_record,
    tool_record,
    user_record,
)

sys.path.insert(0, str(REPO_ROOT / "bench"))
from child_peak import peak_command, split_peak

SESSION_LINES = 1_000


def one_session() -> bytes:
    """A run of :data:`SESSION_LINES` lines: text, a read with its result, in turns."""
    records = [init_record(), user_record("go")]
    turn = 0
    while len(records) + 4 <= SESSION_LINES:
        turn += 1
        records.append(assistant_record(f"step {turn}: " + "words of the answer " * 20))
        records.append(tool_record("started", f"c{turn}", "read", {"path": f"src/m{turn}.py"}))
        result = {"success": {"content": "line of the file\n" * 20, "totalLines": 20}}
        records.append(
            tool_record("completed", f"c{turn}", "read", {"path": f"src/m{turn}.py"}, result)
        )
    records.append(result_record("done"))
    return ndjson(*records)


def stream(path: Path, sessions: int) -> Path:
    """``sessions`` runs one after another, each with its own session id."""
    session = one_session()
    with path.open("wb") as out:
        for number in range(sessions):
            out.write(session.replace(SID.encode(), f"{SID[:-6]}{number:06d}".encode()))
    return path


def peak_rss_kb(path: Path) -> int:
    """The peak RSS (kB) of ``streamview --events PATH`` (its output thrown away)."""
    child = subprocess.Popen(
        peak_command(sys.executable, "streamview", "--events", str(path)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    said, peak = split_peak(child.communicate()[1])
    assert child.returncode == 0, said
    assert peak is not None, said
    return peak


def test_twenty_times_the_events_take_no_more_peak_memory(tmp_path: Path) -> None:
    short = peak_rss_kb(stream(tmp_path / "10k.ndjson", 10))
    long = peak_rss_kb(stream(tmp_path / "200k.ndjson", 200))
    assert long < short * 1.2, f"{long >> 10} MB for 200k events, {short >> 10} MB for 10k"
