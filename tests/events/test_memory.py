"""``--events`` streams in constant memory: a long run of many sessions costs no more
peak memory than a short one (issue 30.8: 25 MB for 10k events, 163 MB for 1.2M).

Not a timing test: it compares the peak RSS (``ru_maxrss``) of two children, one reading
10k events and one 20 times as many, of the same sessions."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.cli.helpers import (
    SID,
    assistant_record,
    child_env,
    command,
    init_record,
    ndjson,
    result_record,
    tool_record,
    user_record,
)

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
    """The peak RSS of ``streamview --events PATH`` (its output thrown away)."""
    child = subprocess.Popen(
        command("--events", str(path)), stdout=subprocess.DEVNULL, env=child_env()
    )
    _, status, usage = os.wait4(child.pid, 0)
    # Reaped by wait4: Popen is told, or its __del__ warns that the child still runs
    # and polls a pid that is no longer its own.
    child.returncode = os.waitstatus_to_exitcode(status)
    assert os.waitstatus_to_exitcode(status) == 0
    return usage.ru_maxrss


def test_twenty_times_the_events_take_no_more_peak_memory(tmp_path: Path) -> None:
    short = peak_rss_kb(stream(tmp_path / "10k.ndjson", 10))
    long = peak_rss_kb(stream(tmp_path / "200k.ndjson", 200))
    assert long < short * 1.2, f"{long >> 10} MB for 200k events, {short >> 10} MB for 10k"
