"""Record a live run to a file, line by line, with each line's arrival time.

A recording is the stream exactly as received, so it stays a valid stream-json
file: every line that is a JSON object gets one key added as its last key,
``"streamview_recv_ms":<epoch ms>``; every other line is written verbatim. Each line
is written as soon as it is complete, so a crash of either process loses nothing
that had arrived. A line that already carries the key (a recording played into
another) keeps it: its first arrival is the run's own timing.

Recordings are private (0600 in a 0700 runs directory: they hold source code, command
output and the keys an agent printed), claimed with an exclusive create so runs started
together never share a file, and locked while written. A failure to write (read-only
place, full disk) never reaches the viewer as an exception and never leaves half a
line: the recorder cuts back to the last whole line, stops, keeps the reason, says so
once, and marks the recording as cut in its sidecar (:mod:`streamview.runs.run_meta`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import re
import stat
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol

import orjson

from streamview.core.formatting import counted
from streamview.core.parse import RECV_KEY
from streamview.runs import run_meta
from streamview.runs.recording_files import claim_file, take_file
from streamview.sources import signals
from streamview.sources.base import Source
from streamview.sources.line_tee import LineTee

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
        when it is a JSON object without one, else ``line`` unchanged.
    """
    body = line.rstrip()
    if not (body.endswith(b"}") and body.lstrip().startswith(b"{")):
        return line
    record = _json_object(body)
    if record is None or RECV_KEY in record:
        return line
    separator = b"," if record else b""
    stamp = b'%s"%s":%d}' % (separator, _KEY, recv_ms)
    return body[:-1] + stamp + line[len(body) :]


def strip_timing(line: bytes) -> bytes:
    """Undo :func:`add_timing`: the line as it was received.

    A line that came with its key (a recording of a recording) loses it here too: it
    cannot tell it from one :func:`add_timing` gave the key.
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
    """Write lines to a recording file, each whole line on disk as soon as it arrives.

    The file is created private (0600, never wider than the umask allows) and held with
    an exclusive lock while it is written, so two runs never write into one file. Only
    whole lines reach it: a write that fails (a full disk) is cut back to the last whole
    line, the recording stops there, and its sidecar (:mod:`streamview.runs.run_meta`) says
    it was cut and why.

    Args:
        path: Where to write. With ``claim``, the first name to try: ``NAME-2.ndjson``,
            ``NAME-3.ndjson``... are tried next, each created only if it does not exist.
            Without it, ``path`` is the user's (``--record PATH``): emptied and written,
            unless another run is recording there.
        on_error: Called once, with a one-line message, when writing fails.
        claim: Make a new file next to ``path`` (the runs directory, made 0700).
    """

    def __init__(
        self, path: Path, on_error: Callable[[str], None] | None = None, *, claim: bool = False
    ) -> None:
        self.path = path
        self.on_error = on_error
        self.claim = claim
        self.error: str | None = None
        """Why recording stopped, when it failed."""
        self.warning: str | None = None
        """Said at the start: the sidecar's room could not be reserved (a full disk)."""
        self.cut: str | None = None
        """Why the recording ends before the run did (``disk full``), when it does."""
        self.lines = 0
        """Lines written so far."""
        self.size = 0
        """Bytes of whole lines on disk."""
        self.process: RunProcess | None = None
        """The agent whose run this is (``streamview run``), for the sidecar."""
        self.input_ended = False
        """The recorded input reached its end (rather than the viewer closing first)."""
        self.tap: Callable[[bytes, int], None] | None = None
        """Also given each line and its arrival time, written or not (``run --otlp``)."""
        self._fd: int | None = None
        self._lock = threading.Lock()
        self._opened = False
        self._sidecar = False
        self._started = run_meta.now()
        self._sealed = False

    @property
    def failed(self) -> bool:
        """Whether writing failed (the recording then stops)."""
        return self.error is not None

    def attach(self, process: RunProcess) -> None:
        """Record ``process``'s command, exit code and stderr in the sidecar."""
        self.process = process

    def open(self) -> bool:
        """Create the file now, so a bad path is reported before the run starts.

        Returns:
            Whether the file is open for writing.
        """
        with self._lock:
            return self._open()

    def _open(self) -> bool:
        if self._opened:
            return self._fd is not None
        self._opened = True
        try:
            if self.claim:
                self._fd, self.path = claim_file(self.path)
            else:
                self._fd = take_file(self.path)
        except OSError as error:
            self._fail("cannot create", error)
            return False
        if stat.S_ISREG(os.fstat(self._fd).st_mode):
            self._reserve_sidecar()
        return True

    def _reserve_sidecar(self) -> None:
        """Create the sidecar with its room; if the room cannot be had, say so now."""
        reason = run_meta.reserve_meta(self.path, self._meta())
        sidecar = run_meta.sidecar_path(self.path)
        self._sidecar = sidecar.exists()  # what fitted of it: later writes go there
        if reason is not None:
            self.warning = (
                f"cannot reserve room for the run's note {sidecar}: {reason}; if the "
                "recording is cut, the note may not say so (streamview runs: cut or unknown)"
            )

    def write(self, line: bytes, recv_ms: int) -> None:
        """Record one complete line as received (terminator included)."""
        if self.tap is not None:
            self.tap(line, recv_ms)
        with self._lock:
            if self.error is not None or not self._open():
                return
            assert self._fd is not None
            data = add_timing(line, recv_ms)
            try:
                _write_all(self._fd, data)
            except OSError as error:
                self._cut(error)
                return
            self.size += len(data)
            self.lines += 1

    def close(self) -> None:
        """Close the file (safe to call more than once); the sidecar says where it ended."""
        with self._lock:
            fd, self._fd = self._fd, None
            if fd is None:
                return
            try:
                os.close(fd)
            except OSError as error:
                self._fail("cannot write", error)
            self._update_sidecar()

    def seal(self) -> None:
        """streamview is done with the run: write its ending to the sidecar (once)."""
        with self._lock:
            if self._sealed:
                return
            self._sealed = True
            self._update_sidecar(final=True)

    def _cut(self, error: OSError) -> None:
        """A write failed: keep only the whole lines, say why the recording ends here."""
        assert self._fd is not None
        with contextlib.suppress(OSError):
            os.ftruncate(self._fd, self.size)
        self.cut = run_meta.cut_reason(error)
        self._fail("cannot write", error)

    def _fail(self, what: str, error: OSError) -> None:
        reason = error.strerror or str(error)
        if self.cut is not None:
            self.error = (
                f"recording cut: {self.cut} ({reason}) after {counted(self.lines, 'line')}: "
            )
            self.error += str(self.path)
        else:
            self.error = f"recording stopped: {what} {self.path}: {reason}"
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)
        self._update_sidecar(detail=reason)
        if self.on_error is not None:
            self.on_error(self.error)

    def _update_sidecar(self, final: bool = False, detail: str = "") -> None:
        if self._sidecar:
            run_meta.write_meta(self.path, self._meta(final, detail))

    def _meta(self, final: bool = False, detail: str = "") -> run_meta.RunMeta:
        """The sidecar as things stand."""
        meta = run_meta.RunMeta(
            recording=self.path.name,
            source="stdin",
            cwd=os.getcwd(),
            started=self._started,
            lines=self.lines,
            size=self.size,
            cut=self.cut,
            cut_detail=detail,
            writer_pid=os.getpid(),
        )
        process = self.process
        if process is None:
            if self._fd is None and self._opened:
                how = run_meta.FINISHED if self.input_ended else run_meta.STOPPED
                return dataclasses.replace(
                    meta, ended=how, ended_at=run_meta.now(), stopped_by=_stopped_by(how)
                )
            return meta
        state = process.state()
        how = run_meta.ending(state.exit_code, state.interrupted, state.result_seen)
        return dataclasses.replace(
            meta,
            source=state.command,
            command=run_meta.clip_command(process.command),
            agent_pid=state.pid,
            exit_code=state.exit_code,
            stderr=run_meta.clip_stderr(state.stderr),
            interrupted=state.interrupted,
            result_seen=state.result_seen,
            lingered=process.lingered,
            ended=how,
            ended_at=None if how == run_meta.RUNNING else run_meta.now(),
            stopped_by=_stopped_by(how) or (process.stopped_by if how == run_meta.STOPPED else ""),
        )


def _stopped_by(how: str) -> str:
    """The signal that made streamview stop a run that ended ``how``, if one did."""
    sig = signals.first() if how == run_meta.STOPPED else None
    return sig.name if sig is not None else ""


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
    def history(self) -> bool:
        """The inner source's: its chunk was there before it opened."""
        return self.inner.history

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
            self.recorder.input_ended = not stop.is_set()
        finally:
            tee.finish()


def default_recording_path(command: list[str], directory: Path | None = None) -> Path:
    """The name to claim for a run of ``command`` in the user's state directory.

    ``Recorder(path, claim=True)`` creates it, or ``NAME-2.ndjson``... if it is taken.

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
    return directory / f"{stamp}-{program}.ndjson"


class RunProcess(Protocol):
    """What the sidecar asks of the agent's process
    (:class:`~streamview.sources.process.ProcessSource`)."""

    command: list[str]
    lingered: bool
    stopped_by: str

    def state(self) -> ProcessFacts:
        """A snapshot of the process."""
        ...


class ProcessFacts(Protocol):
    """The parts of :class:`~streamview.sources.process.ProcessState` the sidecar keeps."""

    @property
    def command(self) -> str: ...
    @property
    def pid(self) -> int | None: ...
    @property
    def exit_code(self) -> int | None: ...
    @property
    def stderr(self) -> str: ...
    @property
    def interrupted(self) -> bool: ...
    @property
    def result_seen(self) -> bool: ...


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
