"""Issue 20, points 5-7 in the reliability campaign: a followed file replaced by ``cp``
or a rename, endless input, one huge line, invalid UTF-8 (``--only input``).

The same checks as ``tests/hostile/test_follow_replaced.py`` and
``tests/hostile/test_endless_input.py``, with more rounds and the figures printed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Protocol

import orjson

from tests.hostile.helpers import REPO, cli_env, command
from tests.hostile.streams import dumps, text_message
from tests.hostile.test_endless_input import SECONDS, endless, peak_rss, rss_mb
from tests.hostile.test_follow_replaced import Follower, prompts, run_file


class Part(Protocol):
    """What :mod:`bench.reliability` gives each part."""

    def add(self, tried: str, held: str) -> None: ...

    def fail(self, what: str) -> None: ...


def _cp_round(workdir: Path, round_number: int) -> tuple[int, int, int]:
    """One follower, one ``cp`` over its file: (records lost, torn lines, notices)."""
    followed = workdir / f"followed-{round_number}.ndjson"
    followed.write_bytes(run_file("old", 40))
    new = workdir / f"new-{round_number}.ndjson"
    new.write_bytes(run_file("new", 56))
    viewer = Follower(followed)
    try:
        viewer.wait_for("old prompt 039")
        subprocess.run(["cp", str(new), str(followed)], check=True)
        viewer.wait_for("new prompt 055", timeout=10)
    except AssertionError:
        pass
    finally:
        output = viewer.stop()
    seen = set(prompts(output, "new"))
    lost = 56 - len(seen)
    torn = output.count("not JSON") + output.count("malformed")
    return lost, torn, output.count("~~ input/truncated")


def _rename_round(workdir: Path, round_number: int) -> tuple[int, int]:
    """Rename while a writer appends 150 records: (records written, records read)."""
    followed = workdir / f"app-{round_number}.ndjson"
    followed.write_bytes(run_file("w", 0))
    code = (
        "import sys, time, json\n"
        "out = open(sys.argv[1], 'ab', buffering=0)\n"
        "for n in range(150):\n"
        "    rec = {'type': 'user', 'session_id': 'w', 'message': {'role': 'user',"
        " 'content': [{'type': 'text', 'text': 'w prompt %03d' % n}]}}\n"
        "    out.write(json.dumps(rec).encode() + b'\\n')\n"
        "    time.sleep(0.005)\n"
    )
    viewer = Follower(followed)
    writer = subprocess.Popen([sys.executable, "-c", code, str(followed)])
    try:
        viewer.wait_for("w prompt 005")
        os.rename(followed, workdir / f"app-{round_number}.ndjson.1")
        followed.write_bytes(run_file("fresh", 3))
        writer.wait(30)
        viewer.wait_for("fresh prompt 002", timeout=15)
    except AssertionError:
        pass
    finally:
        writer.kill()
        output = viewer.stop()
    return 150, len(set(prompts(output, "w")))


def _tui_on_dev_zero() -> float:
    """Peak RSS (MB) of the viewer reading ``/dev/zero`` in a tmux pane."""
    import shlex

    from tests.e2e.terminal import Tmux

    terminal = Tmux()
    try:
        python = shlex.quote(sys.executable)
        terminal.start(f"cd {shlex.quote(str(REPO))} && exec {python} -m streamview /dev/zero")
        pid = int(terminal.tmux("display", "-p", "#{pane_pid}").strip())
        time.sleep(1.0)
        peak = peak_rss(pid, SECONDS)
        return peak if rss_mb(pid) is not None else -1.0
    finally:
        terminal.kill()


def _huge_line_json(size: int) -> tuple[float, dict[str, int]]:
    """``--json`` on a pipe carrying one ``size``-byte line then a record."""
    code = (
        "import sys\n"
        f"left = {size}\n"
        "out = sys.stdout.buffer\n"
        "while left > 0:\n"
        "    n = min(left, 1 << 20); out.write(b'a' * n); left -= n\n"
        "out.write(b'\\n')\n"
        f"out.write({dumps(text_message('user', 'after', session_id='s'))!r})\n"
    )
    producer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    child = subprocess.Popen(
        command("--json"),
        stdin=producer.stdout,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env=cli_env(),
    )
    peak = 0.0
    while child.poll() is None:
        peak = max(peak, rss_mb(child.pid) or 0.0)
        time.sleep(0.02)
    assert child.stdout is not None
    lines = orjson.loads(child.stdout.read())["lines"]
    producer.wait()
    return peak, lines


def part_input(part: Part, workdir: Path, rounds: int) -> None:
    """Followed files replaced, endless input, a huge line, invalid UTF-8."""
    lost = torn = notices = 0
    for number in range(rounds):
        round_lost, round_torn, round_notices = _cp_round(workdir, number)
        lost, torn, notices = lost + round_lost, torn + round_torn, notices + round_notices
    if lost or torn or notices != rounds:
        part.fail(f"cp over a followed file: {lost} records lost, {torn} torn lines")
    part.add(
        f"{rounds} runs of `cp new.ndjson followed.ndjson` (56 records over 40, same inode) under "
        "`--print --follow`",
        f"{lost} of {rounds * 56:,} records lost, {torn} torn lines, {notices} "
        "`input/truncated` notices (before: 16 of 56 lost and a torn line)",
    )
    written = read = 0
    for number in range(rounds):
        round_written, round_read = _rename_round(workdir, number)
        written, read = written + round_written, read + round_read
    if read != written:
        part.fail(f"rename while the writer appends: {written - read} records lost")
    part.add(
        f"{rounds} runs: a followed file renamed while its writer goes on appending (150 records, "
        "5 ms apart), a new file created at the path",
        f"{read:,} of {written:,} records read, then the new file (tail -F loses the "
        "records appended after it switches)",
    )
    figures = []
    for mode in ("--print", "--json"):
        figures.append(f"{mode} {endless(mode, '/dev/zero'):,.0f} MB")
    figures.append(f"viewer (tmux) {_tui_on_dev_zero():,.0f} MB")
    code = "import sys\nwhile True: sys.stdout.buffer.write(b'a' * 65536)"
    producer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        stdin = producer.stdout.fileno() if producer.stdout else None
        figures.append(f"pipe without newline --print {endless('--print', stdin=stdin):,.0f} MB")
    finally:
        producer.kill()
        producer.wait()
    part.add(
        f"`/dev/zero` and a producer that never writes a newline, read {SECONDS:g} s at full "
        "speed (several GB), peak RSS",
        "; ".join(figures) + " (before: the viewer passed 5 GB in 8.5 s)",
    )
    peak, lines = _huge_line_json(500_000_000)
    if lines.get("malformed") != 1 or lines.get("total") != 2:
        part.fail(f"one 500 MB line: {lines}")
    part.add(
        "`--json` on a pipe: one 500 MB line, then a record",
        f"peak RSS {peak:,.0f} MB (before: 1.9 GB); the line counted as malformed (too long, "
        f"its size said), the record after it read: {lines['total']} lines",
    )
    bad = workdir / "bad-utf8.ndjson"
    text = "the answer with one bad byte in the middle of seventy characters of text"
    raw = dumps(text_message("assistant", text, session_id="s"))
    bad.write_bytes(raw.replace(b"bad byte", b"bad \xff byte"))
    done = subprocess.run(command("--json", str(bad)), capture_output=True, env=cli_env())
    answer = orjson.loads(done.stdout)["sessions"][0].get("text", "")
    if "bad \ufffd byte" not in answer:
        part.fail(f"invalid UTF-8: the answer lost its text: {answer!r}")
    part.add(
        "an answer of 72 characters with one invalid UTF-8 byte",
        f"--json answer keeps {len(answer)} characters with U+FFFD in place of the byte, "
        "marked `input/invalid-utf8` (before: the record dropped, 0 characters)",
    )
