"""Drive the real ``python -m streamview`` on a pseudo-terminal and keep every byte.

tmux is a terminal of its own: it interprets what the viewer writes and shows only the
result, so an OSC 52 or a DCS string the viewer let through never reaches a tmux test.
Here the viewer's terminal is a bare pty: a reader thread keeps every byte it writes
(:attr:`PtyTerminal.output`), feeds them to a ``pyte`` screen for waits on what is
shown, and answers the queries a real xterm would (device attributes, DECRQM, cursor
position), so the viewer never waits on a terminal that says nothing.

Waits poll conditions (a word on the screen, the output going quiet, the process
ending) with generous deadlines: a slow machine makes a test slower, never wrong.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import selectors
import signal
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pyte

KEYS: dict[str, bytes] = {
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "home": b"\x1b[H",
    "end": b"\x1b[F",
    "pageup": b"\x1b[5~",
    "pagedown": b"\x1b[6~",
    "insert": b"\x1b[2~",
    "delete": b"\x1b[3~",
    "enter": b"\r",
    "tab": b"\t",
    "shift+tab": b"\x1b[Z",
    "escape": b"\x1b",
    "space": b" ",
    "backspace": b"\x7f",
    # Written as the help writes them (streamview.ui.frame.commands.KEY_NAMES).
    "↑": b"\x1b[A",
    "↓": b"\x1b[B",
    "←": b"\x1b[D",
    "→": b"\x1b[C",
    "pgup": b"\x1b[5~",
    "pgdn": b"\x1b[6~",
}
"""What an xterm sends for a key, by Textual's name (and the help's)."""

QUERY_ANSWERS: tuple[tuple[bytes, bytes], ...] = (
    (b"\x1b[c", b"\x1b[?62;22c"),  # primary device attributes: a VT220 with colour
    (b"\x1b[>c", b"\x1b[>41;380;0c"),  # secondary device attributes: xterm 380
    (b"\x1b[5n", b"\x1b[0n"),  # device status: OK
)
"""Fixed answers to the queries an xterm answers (DECRQM and DSR 6 are computed)."""

C1_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
"""An 8-bit control in UTF-8."""
STRINGS = re.compile(rb"\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)?")
"""An OSC, DCS, APC, PM or SOS string (or its start, cut at the end of a read)."""
LONE_ESCAPE = re.compile(rb"\x1b(?!\[)")
UNFINISHED = re.compile(rb"\x1b(?:\[[0-?]*[ -/]*|[\]P_^X][^\x07\x1b]*)?\Z")
"""A sequence cut by the end of a read (``ESC``, ``ESC [ 0``, an open OSC): held back
until the next read completes it, or ``ESC`` alone would be taken for a lone one and
its ``[0m`` drawn as text."""
"""An escape that starts no CSI: Textual draws with CSI only (``ESC D`` would scroll)."""


def for_screen(data: bytes) -> bytes:
    """``data`` as the screen model is fed it: without terminal strings (a leaked
    OSC cut short would keep pyte swallowing every frame after it), escapes that
    start no CSI, and with C1 controls shown as U+FFFD (a leaked C1 CSI would erase
    its screen). What got through is for the byte checks to report; the waits must
    still see what the viewer drew."""
    data = LONE_ESCAPE.sub(b"", STRINGS.sub(b"", data))
    return C1_UTF8.sub("\ufffd".encode(), data)


DECRQM = re.compile(rb"\x1b\[\?(\d+)\$p")
"""A DECRQM query of a private mode: the answer says the mode is not recognised."""


def key_bytes(key: str) -> bytes:
    """The bytes a terminal sends for ``key`` (a Textual key name or a help's name).

    Raises:
        KeyError: A key no plain xterm can send (``super+c``), or an unknown name.
    """
    if key in KEYS:
        return KEYS[key]
    if key.startswith("ctrl+") and len(key) == 6 and key[5].isalpha():
        return bytes([ord(key[5].lower()) & 0x1F])
    if len(key) == 1:
        return key.encode()
    raise KeyError(key)


class PtyTerminal:
    """One viewer process on a pty of a fixed size, with everything it wrote.

    Args:
        argv: The command (``[python, -m, streamview, FILE]``).
        env: Its environment (``TERM`` is set to ``xterm-256color`` here; ``LINES``
            and ``COLUMNS``, which would override the pty's size, are removed).
        cwd: Its working directory.
        rows, columns: The window size, set with ``TIOCSWINSZ`` before it starts.
    """

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        cwd: Path,
        rows: int = 40,
        columns: int = 140,
    ) -> None:
        self.rows = rows
        self.columns = columns
        self.output = bytearray()
        """Every byte the viewer wrote to its terminal, in order."""
        self.answered: list[bytes] = []
        """The queries answered, in order (for assertion messages)."""
        self._lock = threading.Lock()
        self._screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self._screen)
        self._pending = b""
        """The end of the last read, held back: a sequence it began is not complete."""
        self._hung_up = threading.Event()
        """Set by :meth:`hang_up`: the reader stops and the terminal's master is closed."""
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        environ = {k: v for k, v in env.items() if k not in ("LINES", "COLUMNS", "TEXTUAL")}
        environ.update(TERM="xterm-256color", COLORTERM="truecolor")
        self.master = master
        self.process = subprocess.Popen(
            list(argv),
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=cwd,
            env=environ,
            start_new_session=True,
            preexec_fn=_take_terminal,  # the pty becomes its controlling terminal
            close_fds=True,
        )
        os.close(slave)
        self._reader = threading.Thread(target=self._read, name="pty-reader", daemon=True)
        self._reader.start()

    # -- the reader ------------------------------------------------------------------

    def _read(self) -> None:
        """Keep every byte; answer queries; stop when the terminal closes."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.master, selectors.EVENT_READ)
            while not self._hung_up.is_set():
                if selector.select(0.05) and not self._read_once():
                    return

    def _read_once(self) -> bool:
        """Keep what the viewer wrote; ``False`` once the terminal is closed."""
        try:
            data = os.read(self.master, 1 << 16)
        except OSError:  # EIO: every process holding the pty's slave is gone
            return False
        if not data:
            return False
        with self._lock:
            self.output += data
            # pyte on a sequence it cannot parse: the screen may lag, the bytes remain.
            pending = self._pending + data
            cut = UNFINISHED.search(pending)
            at = cut.start() if cut is not None else len(pending)
            self._pending = pending[at:]
            with contextlib.suppress(Exception):
                self._stream.feed(for_screen(pending[:at]))
        self._answer(data)
        return True

    def _answer(self, data: bytes) -> None:
        """Reply to the queries in ``data`` as an xterm would (a query cut between two
        reads goes unanswered, as on a slow link: the viewer must not wait on it)."""
        for query, reply in QUERY_ANSWERS:
            for _ in range(data.count(query)):
                self._reply(query, reply)
        for match in DECRQM.finditer(data):
            self._reply(match.group(), b"\x1b[?" + match.group(1) + b";0$y")
        for _ in range(data.count(b"\x1b[6n")):
            with self._lock:
                y, x = self._screen.cursor.y, self._screen.cursor.x
            self._reply(b"\x1b[6n", f"\x1b[{y + 1};{x + 1}R".encode())

    def _reply(self, query: bytes, reply: bytes) -> None:
        self.answered.append(query)
        with contextlib.suppress(OSError):
            os.write(self.master, reply)

    # -- what the test does ------------------------------------------------------------

    def mark(self) -> int:
        """Where the output is now: :meth:`since` a mark is what came after it."""
        with self._lock:
            return len(self.output)

    def since(self, mark: int) -> bytes:
        """The bytes written after ``mark``."""
        with self._lock:
            return bytes(self.output[mark:])

    def text(self) -> str:
        """The screen as an xterm would show it now, one line per row."""
        with self._lock:
            return "\n".join(self._screen.display)

    def find(self, word: str) -> tuple[int, int] | None:
        """``(column, row)`` of ``word`` on the screen (0-based), or ``None``."""
        with self._lock:
            rows = list(self._screen.display)
        for y, line in enumerate(rows):
            x = line.find(word)
            if x >= 0:
                return x, y
        return None

    def write(self, data: bytes) -> None:
        """Send raw bytes, as typed or pasted."""
        os.write(self.master, data)

    def press(self, key: str) -> None:
        """Press one key (see :func:`key_bytes`)."""
        self.write(key_bytes(key))

    def paste(self, text: str) -> None:
        """Paste ``text`` with bracketed paste, as a terminal does."""
        self.write(b"\x1b[200~" + text.encode("utf-8", "surrogateescape") + b"\x1b[201~")

    def click(self, column: int, row: int) -> None:
        """A left click at ``(column, row)`` (0-based), in SGR mouse encoding."""
        where = f"{column + 1};{row + 1}"
        self.write(f"\x1b[<0;{where}M\x1b[<0;{where}m".encode())

    def alive(self) -> bool:
        """Whether the viewer is still running."""
        return self.process.poll() is None

    def wait_for(
        self, condition: Callable[[str], bool], timeout: float = 20.0, what: str = ""
    ) -> str:
        """Poll the screen until ``condition(screen)``; fail with the screen if it never does."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.text()
            if condition(screen):
                return screen
            if time.monotonic() > deadline or not self.alive():
                state = "still running" if self.alive() else f"exited {self.process.poll()}"
                raise AssertionError(
                    f"the screen never showed {what or 'what was waited for'} ({state});"
                    f" last screen:\n{screen}\nlast bytes: {self.since(self.mark() - 600)!r}"
                )
            time.sleep(0.03)

    def continue_when_stopped(self, timeout: float = 30.0) -> None:
        """After ctrl+z: wait until the viewer has stopped, as a shell job does, then
        continue it as ``fg`` would (SIGCONT to its group).

        Raises:
            AssertionError: It never stopped (ctrl+z did not suspend it).
        """
        deadline = time.monotonic() + timeout
        stat = Path(f"/proc/{self.process.pid}/stat")
        while time.monotonic() < deadline and self.alive():
            try:
                state = stat.read_text().rpartition(")")[2].split()[0]
            except (OSError, IndexError):
                state = ""
            if state in ("T", "t"):
                os.killpg(self.process.pid, signal.SIGCONT)
                return
            time.sleep(0.02)
        raise AssertionError("ctrl+z did not suspend the viewer (it never stopped)")

    def back_from_suspend(self, mark: int, timeout: float = 15.0) -> bool:
        """If the viewer left its screen after ``mark`` (``o``, ``p``: it suspends for
        the editor or pager), wait until it is back: keys typed while it is away may
        be dropped when it resumes. Whether it had left."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.alive():
            after = self.since(mark)
            left = after.find(b"\x1b[?1049l")
            if left < 0:
                return False
            if b"\x1b[?1049h" in after[left:]:
                return True
            time.sleep(0.03)
        return True

    def settle(self, quiet: float = 0.07, timeout: float = 10.0, answer: float = 0.3) -> bool:
        """Wait until the viewer has answered (written something, or ``answer`` seconds
        passed: some keys change nothing) and then written nothing for ``quiet``
        seconds (its frame is drawn); ``False`` if it never went quiet (a busy loop,
        a hang that repaints)."""
        start = time.monotonic()
        deadline = start + timeout
        first = self.mark()
        last = first
        last_change = start
        while time.monotonic() < deadline:
            time.sleep(0.02)
            now = self.mark()
            if now != last:
                last, last_change = now, time.monotonic()
            elif time.monotonic() - last_change >= quiet and (
                now != first or time.monotonic() - start >= answer
            ):
                return True
            if not self.alive():
                return True
        return False

    def wait_exit(self, timeout: float = 30.0) -> int | None:
        """The exit status, once the viewer has ended; ``None`` if it did not in time."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self._reader.join(2)
        return code

    def hang_up(self) -> None:
        """Close the terminal under the viewer, as a closed window or a killed tmux pane
        does: the kernel sends SIGHUP to the session's leader only, and every write to
        the terminal fails with EIO from then on."""
        self._hung_up.set()
        self._reader.join(5)
        with contextlib.suppress(OSError):
            os.close(self.master)

    def close(self) -> None:
        """Kill the viewer's session if it still runs; close the terminal."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)
        self._reader.join(2)
        if not self._hung_up.is_set():
            with contextlib.suppress(OSError):
                os.close(self.master)


def _take_terminal() -> None:
    """In the child: make the pty (its stdin) the controlling terminal of its session."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
