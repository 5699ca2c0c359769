"""End to end: the real viewer in a pseudo-terminal; read every byte the terminal gets.

The widget-level checks prove each painted line is clean. This proves the same at the
last step, where it matters: in the byte stream the terminal receives, no sequence
from the stream appears live. Textual's own sequences (alternate screen, mouse, paste
mode) are allowed only as often as they appear when showing a clean stream.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from .corpus import CORPUS
from .helpers import REPO, cli_env
from .streams import hostile_stream

ROWS, COLUMNS = 50, 160


def run_in_pty(path: Path, timeout: float = 60.0) -> tuple[bytes, int]:
    """Run ``streamview path`` in a pty, press ``q`` once it has drawn; return output, status."""
    env = cli_env()
    # LINES/COLUMNS win over the pty's size in Textual: an inherited LINES=24 drew the
    # run at 160x24, where the sequences this test looks for were scrolled away.
    env.update(TERM="xterm-256color", COLORTERM="truecolor", COLUMNS=str(COLUMNS), LINES=str(ROWS))
    env.pop("TEXTUAL", None)
    pid, master = pty.fork()
    if pid == 0:  # the child: size the terminal, then become streamview
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
            os.chdir(REPO)
            os.execve(sys.executable, [sys.executable, "-m", "streamview", str(path)], env)
        finally:
            os._exit(127)
    output = bytearray()
    deadline = time.monotonic() + timeout
    quit_sent_at: float | None = None
    status: int | None = None
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.1)
            if ready:
                try:
                    data = os.read(master, 1 << 16)
                except OSError:  # EIO: the child closed the terminal
                    data = b""
                if not data:
                    break
                output += data
                if quit_sent_at is None and "✓ success in".encode() in output:
                    # A file opens at its final state, scrolled to the end: go to the
                    # top too, so the whole (short) transcript has been drawn.
                    os.write(master, b"\x1b[H")  # Home
                    time.sleep(0.5)  # let a last frame through
                    os.write(master, b"q")
                    quit_sent_at = time.monotonic()
            elif quit_sent_at is not None and time.monotonic() - quit_sent_at > 5:
                os.write(master, b"q")
                quit_sent_at = time.monotonic()
            if status is None:  # reaped once: asked again, waitpid raises ECHILD
                done, code = os.waitpid(pid, os.WNOHANG)
                if done:
                    status = code
        if status is None:
            _, status = os.waitpid(pid, 0) if quit_sent_at else (0, -1)
    finally:
        if status is None or status == -1:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(master)
    assert quit_sent_at is not None, f"the viewer never drew the run; got {bytes(output[-2000:])!r}"
    return bytes(output), os.waitstatus_to_exitcode(status)


@pytest.fixture(scope="module")
def outputs(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """What the terminal received for a clean run and for the all-corpus run."""
    folder = tmp_path_factory.mktemp("pty")
    clean_file = folder / "clean.ndjson"
    clean_file.write_bytes(hostile_stream("clean text"))
    hostile_file = folder / "hostile.ndjson"
    hostile_file.write_bytes(
        hostile_stream("".join(f"<{s.name}>{s.text}" for s in CORPUS if not s.sgr))
    )
    clean, clean_code = run_in_pty(clean_file)
    hostile, hostile_code = run_in_pty(hostile_file)
    assert clean_code == 0 and hostile_code == 0
    return clean, hostile


def test_the_run_was_drawn(outputs: tuple[bytes, bytes]) -> None:
    """The hostile text reached the terminal, as pictures.

    The run is drawn scrolled to the top before quitting (Home), so the start of the
    hostile text is on screen; each ESC-started sequence there shows as ``␛``.
    """
    clean, hostile = outputs
    picture = "␛".encode()
    assert picture in hostile
    assert picture not in clean
    assert "␛]0;PWNED-TITLE␇".encode() in hostile  # a window-title change, shown inert


def test_no_marker_inside_a_live_sequence(outputs: tuple[bytes, bytes]) -> None:
    """No OSC, DCS, APC, PM or SOS string the terminal receives carries stream text."""
    _, hostile = outputs
    strings = re.findall(rb"\x1b[\]P_^X][^\x07\x1b]*", hostile)
    leaked = [s for s in strings if b"PWNED" in s or b"evil" in s or b"Y3VybC" in s]
    assert leaked == []
    assert b"Traceback" not in hostile


def test_no_c1_control_reaches_the_terminal(outputs: tuple[bytes, bytes]) -> None:
    """8-bit controls (UTF-8 ``C2 80``-``C2 9F``) never appear."""
    _, hostile = outputs
    assert re.search(rb"\xc2[\x80-\x9f]", hostile) is None


@pytest.mark.parametrize(
    "sequence",
    [s for s in CORPUS if not s.sgr and s.text.startswith("\x1b") and len(s.text) > 1],
    ids=lambda s: s.name,
)
def test_sequence_is_not_sent_more_than_textual_sends_it(
    outputs: tuple[bytes, bytes], sequence: object
) -> None:
    """Each ESC sequence of the corpus appears no more often than in the clean run."""
    clean, hostile = outputs
    raw = sequence.text.encode()  # type: ignore[attr-defined]
    assert hostile.count(raw) <= clean.count(raw)
