"""What the viewer and the summaries know of an agent process: its state, its exit
status in the shell's terms, its stderr as plain text, and whether a ``result`` went by."""

from __future__ import annotations

import re
import signal

import msgspec
import orjson

from streamview.core.sanitize import clean

_ESCAPES = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, DCS, SOS, PM, APC strings
    r"|[ -/]*[0-~])"  # other escapes
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
)


def strip_escapes(text: str) -> str:
    """Terminal output as plain text: escape sequences removed, ``\\r`` overwrites applied.

    A line redrawn with ``\\r`` (spinners, progress) keeps only what was drawn last;
    any other control character is made visible by :func:`clean`.
    """
    text = _ESCAPES.sub("", text).replace("\r\n", "\n")
    lines = []
    for line in text.split("\n"):
        if "\r" in line:
            pieces = [piece for piece in line.split("\r") if piece]
            line = pieces[-1] if pieces else ""
        lines.append(line)
    return clean("\n".join(lines))


def exit_status(returncode: int | None) -> int | None:
    """A shell-style exit status: killed by signal N becomes 128 + N."""
    if returncode is None:
        return None
    return 128 - returncode if returncode < 0 else returncode


class ProcessState(msgspec.Struct, frozen=True):
    """What the viewer shows about the agent process."""

    command: str
    """The command line, shell-quoted."""
    pid: int | None
    running: bool
    exit_code: int | None
    """Shell-style: 130 after SIGINT, 143 after SIGTERM; ``None`` while running."""
    stderr: str
    """The end of its stderr, escape codes stripped, safe to paint."""
    interrupted: bool
    """streamview sent it a signal (Ctrl+C, or quitting)."""
    result_seen: bool
    """A ``result`` line came; the turn is over even if the process lingers."""
    left_behind: tuple[str, ...] = ()
    """Processes it started that still ran once it exited (``pid 42: sleep 120``)."""
    children_kept: bool = False
    """Those were left running (``--keep-children``) instead of stopped."""

    @property
    def failed(self) -> bool:
        """It exited with a non-zero status."""
        return self.exit_code not in (None, 0)

    def describe(self) -> str:
        """One line: ``running``, ``exited with 1``, ``still running after its result``."""
        if self.running:
            return "still running after its result" if self.result_seen else "running"
        if self.pid is None:
            return "starting"
        if self.exit_code is None:
            return "not started"
        if self.exit_code > 128 and self.exit_code - 128 < signal.NSIG:
            try:
                name = signal.Signals(self.exit_code - 128).name
            except ValueError:
                name = f"signal {self.exit_code - 128}"
            return f"exited with {self.exit_code} ({name})"
        return f"exited with {self.exit_code}"

    def describe_left_behind(self) -> str | None:
        """``left 2 processes running: stopped them``, or ``None`` when it left none."""
        count = len(self.left_behind)
        if not count:
            return None
        what = f"{count} process{'es' if count != 1 else ''}"
        them = "them" if count != 1 else "it"
        fate = f"left {them} running (--keep-children)" if self.children_kept else f"stopped {them}"
        return f"left {what} running: {fate}"


class ResultWatcher:
    """Notice a ``result`` line in the raw stream, without parsing every line."""

    def __init__(self) -> None:
        self._pending = bytearray()

    def feed(self, chunk: bytes) -> bool:
        """Whether ``chunk`` completes a line that is a ``result`` record."""
        cut = chunk.rfind(b"\n")
        if cut < 0:
            self._pending += chunk
            return False
        lines = (bytes(self._pending) + chunk[:cut]).split(b"\n")
        self._pending[:] = chunk[cut + 1 :]
        for line in lines:
            if b'"result"' not in line:
                continue
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict) and record.get("type") == "result":
                return True
        return False
