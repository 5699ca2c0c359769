"""Input without end (issue 20, point 6): ``/dev/zero``, a producer that never writes a
newline, one line over the limit. Memory stays bounded in every front end; a line over
the limit is reported with its size and reading goes on at the next newline."""

from __future__ import annotations

import shlex
import subprocess
import sys
import time
from pathlib import Path

import orjson

from tests.e2e.terminal import Tmux

from .helpers import REPO, cli_env, command, run_cli
from .streams import dumps, text_message

SECONDS = 4.0
"""How long each endless input is read (at several hundred MB/s: gigabytes)."""
RSS_BOUND_MB = 300
"""The default limit is 64 MiB a line; the framer and the dialect's sniffing may each
hold up to that, plus the interpreter and the viewer."""


def rss_mb(pid: int) -> float | None:
    """The process's resident memory from /proc, or ``None`` once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def peak_rss(pid: int, seconds: float) -> float:
    """The highest RSS sampled every 50 ms for ``seconds``."""
    peak = 0.0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = rss_mb(pid)
        if value is None:
            break
        peak = max(peak, value)
        time.sleep(0.05)
    return peak


def endless(*args: str, stdin: int | None = subprocess.DEVNULL) -> float:
    """Peak RSS of ``streamview ARGS`` reading for :data:`SECONDS`, then killed."""
    child = subprocess.Popen(
        command(*args),
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=REPO,
        env=cli_env(),
    )
    try:
        time.sleep(0.5)
        assert child.poll() is None, "it must still be reading"
        return peak_rss(child.pid, SECONDS)
    finally:
        child.kill()
        child.wait()


def test_dev_zero_keeps_print_and_json_bounded() -> None:
    """``/dev/zero`` is one endless line: --print and --json stay under the bound."""
    for mode in ("--print", "--json"):
        peak = endless(mode, "/dev/zero")
        assert 0 < peak < RSS_BOUND_MB, (mode, peak)


def test_a_producer_without_newline_keeps_a_pipe_bounded() -> None:
    """A pipe that never ends a line (here at full speed, 64 KiB writes)."""
    code = "import sys\nwhile True: sys.stdout.buffer.write(b'a' * 65536)"
    producer = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        peak = endless("--print", stdin=producer.stdout.fileno() if producer.stdout else None)
    finally:
        producer.kill()
        producer.wait()
    assert 0 < peak < RSS_BOUND_MB, peak


def test_dev_zero_keeps_the_viewer_bounded() -> None:
    """The TUI on ``/dev/zero`` in a real terminal (tmux): it stays up, and bounded."""
    terminal = Tmux()
    try:
        python = shlex.quote(sys.executable)
        terminal.start(f"cd {shlex.quote(str(REPO))} && exec {python} -m streamview /dev/zero")
        pid = int(terminal.tmux("display", "-p", "#{pane_pid}").strip())
        time.sleep(1.0)
        peak = peak_rss(pid, SECONDS)
        assert rss_mb(pid) is not None, "the viewer died"
        assert 0 < peak < RSS_BOUND_MB, peak
        # The UI thread is free: the first screen is up (a fold of /dev/zero before the
        # first frame once held it, with no screen and no way to answer a signal).
        assert "Transcript" in terminal.tmux("capture-pane", "-p")
    finally:
        terminal.kill()
    # Its terminal gone, the viewer is gone too: never left reading for ever.
    deadline = time.monotonic() + 10
    while rss_mb(pid) is not None and time.monotonic() < deadline:
        time.sleep(0.1)
    assert rss_mb(pid) is None, "the viewer outlived its terminal"


def test_a_line_over_the_limit_is_reported_and_reading_goes_on(tmp_path: Path) -> None:
    """With ``--max-line 1M``, a 5 MB line is shown as too long with its size and first
    bytes; the records after it are read as usual, in --print and --json."""
    path = tmp_path / "long.ndjson"
    long_line = b'{"type":"assistant","text":"' + b"A" * 5_000_000 + b'"}'
    path.write_bytes(
        dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "M"})
        + long_line
        + b"\n"
        + dumps(text_message("user", "after the long line", session_id="s"))
    )
    printed = run_cli("--print", "--max-line", "1M", str(path))
    text = printed.stdout.decode()
    assert "after the long line" in text
    assert f"line 2: line too long: 4.8 MiB ({len(long_line):,} bytes)" in text
    assert "over the 1.0 MiB limit" in text
    summary = orjson.loads(run_cli("--json", "--max-line", "1M", str(path)).stdout)
    assert summary["lines"]["malformed"] == 1, summary["lines"]
    assert summary["lines"]["total"] == 3
    assert run_cli("--print", "--max-line", "lots", str(path)).returncode == 2
