"""Record a live run to a file, line by line, with each line's arrival time.

A recording is the stream exactly as received, so it stays a valid stream-json
file: every line that is a JSON object gets one key added as its last key,
``"streamview_recv_ms":<epoch ms>``; every other line is written verbatim. Each line
is flushed as soon as it is complete, so a crash of either process loses nothing
that had arrived. A failure to write (read-only place, full disk) never reaches the
viewer as an exception: the recorder stops, keeps the reason, and says so once.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import orjson

from streamview.core.parse import RECV_KEY
from streamview.sources import Source, now_ms

_KEY = RECV_KEY.encode()
_TIMED_TAIL = re.compile(rb',"' + _KEY + rb'":-?\d+(\}\s*)\Z')
_TIMED_ONLY = re.compile(rb'(\{\s*)"' + _KEY + rb'":-?\d+(\}\s*)\Z')


def _json_object(data: bytes) -> dict[str, object] | None:
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return value if isinstance(value, dict) else None


def add_timing(line: bytes, recv_ms: int) -> bytes:
    """The recorded form of one raw line.

    Args:
        line: The line as received, with its terminator (``\\n``, ``\\r\\n``) if any.
        recv_ms: When it arrived, epoch ms.

    Returns:
        ``line`` with ``"streamview_recv_ms":recv_ms`` inserted before its last ``}``
        when it is a JSON object, else ``line`` unchanged.
    """
    body = line.rstrip()
    if not (body.endswith(b"}") and body.lstrip().startswith(b"{")):
        return line
    record = _json_object(body)
    if record is None:
        return line
    separator = b"," if record else b""
    stamp = b'%s"%s":%d}' % (separator, _KEY, recv_ms)
    return body[:-1] + stamp + line[len(body) :]


def strip_timing(line: bytes) -> bytes:
    """Undo :func:`add_timing`: the line as it was received.

    Only the last ``streamview_recv_ms`` key is removed, so a recording of a recording
    gives back the first recording.
    """
    for pattern in (_TIMED_TAIL, _TIMED_ONLY):
        match = pattern.search(line)
        if match is None:
            continue
        original = line[: match.start()] + b"".join(match.groups())
        if _json_object(original.rstrip()) is not None:
            return original
    return line


class Recorder:
    """Write lines to a recording file, flushed one by one.

    Args:
        path: Where to write (created or truncated).
        on_error: Called once, with a one-line message, when writing fails.
    """

    def __init__(self, path: Path, on_error: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.on_error = on_error
        self.error: str | None = None
        """Why recording stopped, when it failed."""
        self.lines = 0
        """Lines written so far."""
        self._handle: BinaryIO | None = None
        self._lock = threading.Lock()
        self._opened = False

    @property
    def failed(self) -> bool:
        """Whether writing failed (the recording then stops)."""
        return self.error is not None

    def open(self) -> bool:
        """Create the file now, so a bad path is reported before the run starts.

        Returns:
            Whether the file is open for writing.
        """
        with self._lock:
            return self._open()

    def _open(self) -> bool:
        if self._opened:
            return self._handle is not None
        self._opened = True
        try:
            self._handle = open(self.path, "wb")  # noqa: SIM115 - closed in close()
        except OSError as error:
            self._fail("cannot create", error)
        return self._handle is not None

    def write(self, line: bytes, recv_ms: int) -> None:
        """Record one complete line as received (terminator included), then flush."""
        with self._lock:
            if self.error is not None or not self._open():
                return
            assert self._handle is not None
            try:
                self._handle.write(add_timing(line, recv_ms))
                self._handle.flush()
            except OSError as error:
                self._fail("cannot write", error)
                return
            self.lines += 1

    def close(self) -> None:
        """Close the file (safe to call more than once)."""
        with self._lock:
            handle, self._handle = self._handle, None
            if handle is None:
                return
            try:
                handle.close()
            except OSError as error:
                self._fail("cannot write", error)

    def _fail(self, what: str, error: OSError) -> None:
        reason = error.strerror or str(error)
        self.error = f"recording stopped: {what} {self.path}: {reason}"
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                handle.close()
        if self.on_error is not None:
            self.on_error(self.error)


class LineTee:
    """Cut chunks into complete raw lines and hand each to a :class:`Recorder`.

    Lines keep their bytes exactly, ``\\r`` and ``\\n`` included; a line's arrival
    time is when the chunk that completed it arrived.
    """

    def __init__(self, recorder: Recorder, clock: Callable[[], int] = now_ms) -> None:
        self.recorder = recorder
        self._clock = clock
        self._pending = bytearray()
        self._pending_ms = 0

    def feed(self, chunk: bytes) -> None:
        """Record the lines ``chunk`` completes; keep the rest for later."""
        if not chunk:
            return
        recv_ms = self._clock()
        self._pending_ms = recv_ms
        start = 0
        end = chunk.find(b"\n")
        while end >= 0:
            if self._pending:
                self._pending += chunk[start : end + 1]
                line = bytes(self._pending)
                self._pending.clear()
            else:
                line = chunk[start : end + 1]
            self.recorder.write(line, recv_ms)
            start = end + 1
            end = chunk.find(b"\n", start)
        self._pending += chunk[start:]

    def finish(self) -> None:
        """Record a last line that had no newline, then close the recording."""
        if self._pending:
            self.recorder.write(bytes(self._pending), self._pending_ms)
            self._pending.clear()
        self.recorder.close()


class RecordingSource(Source):
    """Pass another live source through unchanged while recording it.

    Args:
        inner: The source to read.
        recorder: Where its lines go.
    """

    def __init__(self, inner: Source, recorder: Recorder) -> None:
        self.inner = inner
        self.recorder = recorder
        self.label = inner.label
        self.live = inner.live

    @property
    def path(self) -> Path | None:
        """The inner source's file, if any."""
        return self.inner.path

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the inner source's chunks, recording each line as it completes."""
        tee = LineTee(self.recorder)
        try:
            for chunk in self.inner.chunks(stop):
                tee.feed(chunk)
                yield chunk
        finally:
            tee.finish()


def default_recording_path(command: list[str], directory: Path | None = None) -> Path:
    """A new file for a run of ``command`` in the user's state directory.

    Args:
        command: The agent's command line (its program name goes into the file name).
        directory: Where to put it; default ``user_state_dir("streamview")/runs``.
    """
    if directory is None:
        from platformdirs import user_state_dir

        directory = Path(user_state_dir("streamview")) / "runs"
    program = Path(command[0]).name if command else "run"
    program = re.sub(r"[^A-Za-z0-9._-]+", "-", program).strip("-.") or "run"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    candidate = directory / f"{stamp}-{program}.ndjson"
    number = 2
    while candidate.exists():
        candidate = directory / f"{stamp}-{program}-{number}.ndjson"
        number += 1
    return candidate
