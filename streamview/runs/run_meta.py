"""What a recording cannot say itself: how the run around it went.

Next to every recording ``X.ndjson`` lies ``X.ndjson.meta.json`` (mode 0600, like the
recording): the agent's command, when it started and ended, its exit code, the end of
its stderr, how it ended (finished, stopped, failed, crashed) and whether the recording was cut
short (a full disk) and why. An agent that fails before printing a line (a missing
login) leaves a 0-byte recording; its reason is here. ``streamview runs``, ``last`` and
the viewer read it; a recording without one (older, or copied without it) still opens.

The sidecar is written when the recording starts, and again when the recording is cut,
when the agent's output ends and when streamview is done with the run. Each write
renames a new file over the old (a reader never sees half of one). When that fails
because the disk is full, the new text is written in place, into the room the first
write reserved (:data:`SIDECAR_BYTES`, padded with spaces), so "the disk filled up" can
still be said on the disk that filled up. When even that room cannot be had (the disk
was full at the start), :func:`reserve_meta` says why, the recorder says so on stderr,
and what fits is kept; a sidecar that is missing, unreadable or still as it was at the
start (:func:`unfinished`) is read as "cut or unknown", never as an empty run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import signal
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import orjson

from streamview.core.formatting import counted
from streamview.runs import SIDECAR_SUFFIX

SUFFIX = SIDECAR_SUFFIX
"""Added to the recording's name: ``run.ndjson`` → ``run.ndjson.meta.json``."""
SIDECAR_BYTES = 8 * 1024
"""Room the first write reserves, so later writes fit where it stands (a full disk)."""
STDERR_KEEP = 3 * 1024
"""Characters of the agent's stderr kept (the end, where the reason usually is)."""
ARGUMENT_KEEP = 1024
"""Characters kept of each command argument (a prompt may be long)."""
FORMAT = 1
"""The sidecar's format number (``streamview_run``)."""

RUNNING = "running"
"""The run has not ended (or streamview was killed before it could say)."""
FINISHED = "finished"
"""The agent ended by itself (exit 0, or after its result); the stream says how it went."""
STOPPED = "stopped"
"""streamview stopped the agent before its result (Ctrl+C, a signal, the viewer closed)."""
CRASHED = "crashed"
"""A signal ended the agent on its own (SIGSEGV, SIGKILL from the kernel), without a
result. Sidecars written before ``failed`` existed say it of any failure status too."""
FAILED = "failed"
"""The agent exited with a failure status on its own (``exit 3``), without a result."""
CTRL_C = "Ctrl+C"
"""What ``stopped (Ctrl+C)`` names: the person stopped the run (or SIGINT did)."""

_CUT_REASONS = {
    errno.ENOSPC: "disk full",
    errno.EDQUOT: "disk quota exceeded",
    errno.EFBIG: "file too large",
    errno.EIO: "I/O error",
    errno.EROFS: "file system turned read-only",
}


def sidecar_path(recording: Path) -> Path:
    """Where the sidecar of ``recording`` lies."""
    return recording.with_name(recording.name + SUFFIX)


def cut_reason(error: OSError) -> str:
    """A short reason a recording was cut: ``disk full``, ``file too large``..."""
    known = _CUT_REASONS.get(error.errno or 0)
    if known is not None:
        return known
    return (error.strerror or str(error)).lower()


def ending(exit_code: int | None, interrupted: bool, result_seen: bool) -> str:
    """How an agent's run ended, from its process.

    Args:
        exit_code: Shell-style (``None``: it has not exited).
        interrupted: streamview signalled it.
        result_seen: Its stream had a ``result`` before that.
    """
    if result_seen:
        return FINISHED
    if interrupted:
        return STOPPED
    if exit_code is None:
        return RUNNING
    if exit_code == 0:
        return FINISHED
    return CRASHED if signal_name(exit_code) else FAILED


def signal_name(exit_code: int | None) -> str | None:
    """``SIGSEGV`` for a shell-style status that says a signal ended the process."""
    if exit_code is None or not 128 < exit_code < 128 + signal.NSIG:
        return None
    try:
        return signal.Signals(exit_code - 128).name
    except ValueError:
        return f"signal {exit_code - 128}"


def stop_words(stopped_by: str) -> str:
    """``stopped (Ctrl+C)``, ``stopped (SIGTERM)``: a run streamview stopped, and why
    (``stopped`` when nobody recorded why)."""
    by = CTRL_C if stopped_by == "SIGINT" else stopped_by
    return f"{STOPPED} ({by})" if by else STOPPED


def exit_words(exit_code: int | None) -> str:
    """``failed (exit 3)`` for a status the agent exited with, ``crashed (SIGSEGV)`` for
    a signal that ended it; ``failed`` when the status is unknown."""
    name = signal_name(exit_code)
    if name is not None:
        return f"{CRASHED} ({name})"
    return f"{FAILED} (exit {exit_code})" if exit_code is not None else FAILED


@dataclass(frozen=True, slots=True)
class RunMeta:
    """One run's sidecar."""

    recording: str
    """The recording's file name."""
    source: str
    """What was recorded: the agent's command line (shell-quoted), or ``stdin``."""
    command: tuple[str, ...] = ()
    """The agent's program and arguments (each cut to :data:`ARGUMENT_KEEP`)."""
    cwd: str = ""
    started: float = 0.0
    """Epoch seconds."""
    ended_at: float | None = None
    ended: str = RUNNING
    """:data:`RUNNING`, :data:`FINISHED`, :data:`STOPPED`, :data:`FAILED` or :data:`CRASHED`."""
    exit_code: int | None = None
    """The agent's, shell-style (143 after SIGTERM); ``None``: no agent, or not exited."""
    stderr: str = ""
    """The end of the agent's stderr, as plain text."""
    interrupted: bool = False
    result_seen: bool = False
    lingered: bool = False
    agent_pid: int | None = None
    lines: int = 0
    """Whole lines in the recording."""
    size: int = 0
    """Bytes in the recording."""
    cut: str | None = None
    """Why the recording stops before the run did (``disk full``); ``None``: it is whole."""
    cut_detail: str = ""
    """The system's words for it (``No space left on device``)."""
    writer_pid: int = 0
    """streamview's own process id."""
    stopped_by: str = ""
    """For a stopped run, what made streamview stop the agent: the signal it got
    (``SIGTERM``, ``SIGHUP``, ``SIGINT``), ``Ctrl+C`` in the viewer; ``""``: the viewer
    closed while it ran."""

    def to_json(self) -> bytes:
        """The sidecar's text (indented: a person may read it)."""
        fields = asdict(self)
        fields["command"] = list(self.command)
        return orjson.dumps({"streamview_run": FORMAT, **fields}, option=orjson.OPT_INDENT_2)

    @classmethod
    def from_json(cls, data: bytes) -> RunMeta | None:
        """Read a sidecar; ``None`` when it is not one (unknown keys are ignored)."""
        try:
            value = orjson.loads(data)
        except orjson.JSONDecodeError:
            return None
        if not isinstance(value, dict) or value.get("streamview_run") != FORMAT:
            return None
        known = {name: value[name] for name in cls.__slots__ if name in value}
        if not isinstance(known.get("recording"), str) or not isinstance(known.get("source"), str):
            return None
        known["command"] = tuple(str(part) for part in known.get("command") or ())
        try:
            return cls(**known)
        except TypeError:
            return None

    @property
    def failed(self) -> bool:
        """The agent exited with a failure status (or a signal)."""
        return self.exit_code not in (None, 0)

    def how(self) -> str:
        """``finished``, ``stopped (Ctrl+C)``, ``failed (exit 3)``, ``crashed (SIGSEGV)``,
        ``running``; the cut, if any, is said by :meth:`cut_note`."""
        if self.ended in (CRASHED, FAILED):
            return exit_words(self.exit_code)
        if self.ended == STOPPED:
            return stop_words(self.stopped_by)
        return self.ended

    def cut_note(self) -> str | None:
        """``recording cut: disk full after 1,204 lines``, or ``None`` when it is whole."""
        if self.cut is None:
            return None
        return f"recording cut: {self.cut} after {counted(self.lines, 'line')}"


def failure_note(described: str, stderr: str) -> str:
    """``agent exited with 1 · Error: authentication failed``: a failed agent in one line.

    Args:
        described: How the process ended (``exited with 1``).
        stderr: Its stderr as plain text; its first non-blank line is the reason.
    """
    reason = next((line.strip() for line in stderr.splitlines() if line.strip()), "")
    return f"agent {described}" + (f" · {reason}" if reason else " · no output")


def print_lines(meta: RunMeta, stderr_lines: int = 40) -> list[str]:
    """What ``--print`` adds after a recorded run: how the agent ended, its stderr when
    it failed, and a cut recording; as ``streamview run --print`` said it at the time."""
    lines = []
    if meta.exit_code is not None and (meta.failed or meta.ended != FINISHED):
        lines.append(f"!! agent {meta.how()}")
        if meta.failed and meta.stderr.strip():
            for line in meta.stderr.rstrip("\n").split("\n")[-stderr_lines:]:
                lines.append(f"   stderr: {line}" if line else "   stderr:")
    note = meta.cut_note()
    if note is not None:
        lines.append(f"!! {note}: the run went on after it")
    elif unfinished(meta):
        lines.append(f"!! {UNKNOWN_NOTE}")
    return lines


def exit_status(stream_code: int, meta: RunMeta | None) -> int:
    """A recorded run's exit status: the agent's when it failed on its own (as
    ``streamview run`` returned it), else what the stream says."""
    if meta is None or not meta.failed or meta.lingered or meta.result_seen:
        return stream_code
    return meta.exit_code if meta.exit_code is not None else stream_code


def clip_command(command: list[str]) -> tuple[str, ...]:
    """The command as kept in a sidecar: each argument cut to :data:`ARGUMENT_KEEP`."""
    return tuple(
        part if len(part) <= ARGUMENT_KEEP else part[:ARGUMENT_KEEP] + "…" for part in command
    )


def clip_stderr(text: str) -> str:
    """The end of ``text``, at most :data:`STDERR_KEEP` characters."""
    return text if len(text) <= STDERR_KEEP else "…" + text[-STDERR_KEEP:]


def read_meta(recording: Path) -> RunMeta | None:
    """The sidecar of ``recording``, or ``None`` when it has none (or it is unreadable)."""
    try:
        data = sidecar_path(recording).read_bytes()
    except OSError:
        return None
    return RunMeta.from_json(data)


def read_note(recording: Path) -> RunMeta | None:
    """Like :func:`read_meta`, but a sidecar that exists and cannot be read (0 bytes: the
    disk was full when it was made) is a blank one, as at the start (:func:`unfinished`)."""
    meta = read_meta(recording)
    if meta is None and sidecar_path(recording).exists():
        return RunMeta(recording=recording.name, source="")
    return meta


def unfinished(meta: RunMeta) -> bool:
    """The sidecar still says what it said when the run started: streamview never came
    back to it (it was killed, or the disk was full). Unless the run is still being
    recorded, the recording may be cut and how the run ended is unknown."""
    return meta.ended == RUNNING and meta.ended_at is None and meta.exit_code is None


UNKNOWN_NOTE = (
    "how this run ended is unknown (cut or unknown): its note beside the recording was "
    "never completed; the disk may have been full, or streamview was killed"
)
"""What ``--print`` says after a recording whose sidecar is :func:`unfinished`."""


def reserve_meta(recording: Path, meta: RunMeta) -> str | None:
    """Create the sidecar of a just-claimed recording, with its reserved room.

    Returns:
        ``None`` when all of the room is on disk; else why not (``No space left on
        device``): what fitted is kept, and later writes go into it.
    """
    target = sidecar_path(recording)
    try:
        _create_file(target, _fitted(meta), exclusive=True)
        return None
    except FileExistsError:  # left by a run whose recording was deleted by hand: ours now
        return None if write_meta(recording, meta) else "cannot write it"
    except OSError as error:
        return error.strerror or str(error)


def write_meta(recording: Path, meta: RunMeta, first: bool = False) -> bool:
    """Write ``meta`` beside ``recording``; whether it is on disk.

    Args:
        recording: The recording it belongs to.
        meta: What to write.
        first: The recording was just claimed: create the sidecar (never over another's).
    """
    target = sidecar_path(recording)
    text = _fitted(meta)
    if first:
        try:
            _create_file(target, text, exclusive=True)
            return True
        except FileExistsError:
            pass  # left by a run whose recording was deleted by hand: ours now
        except OSError:
            return False
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        _create_file(temporary, text, exclusive=False)
        os.replace(temporary, target)
        return True
    except OSError:
        with contextlib.suppress(OSError):
            temporary.unlink()
    return _overwrite(target, text)  # a full disk: into the room reserved at first


def _fitted(meta: RunMeta) -> bytes:
    """The sidecar's text, padded to :data:`SIDECAR_BYTES` (stderr cut if it must be)."""
    text = meta.to_json()
    while len(text) >= SIDECAR_BYTES and meta.stderr:
        meta = replace(meta, stderr="…" + meta.stderr[len(meta.stderr) // 2 :])
        text = meta.to_json()
    if len(text) >= SIDECAR_BYTES:
        meta = replace(meta, command=meta.command[:1], source=meta.source[:ARGUMENT_KEEP])
        text = meta.to_json()
    return text + b"\n" + b" " * max(0, SIDECAR_BYTES - len(text) - 2) + b"\n"


def _create_file(path: Path, text: bytes, exclusive: bool) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC
    if exclusive:
        flags |= os.O_EXCL
    fd = os.open(path, flags, 0o600)
    try:
        _write_all(fd, text)
    finally:
        os.close(fd)


def _overwrite(target: Path, text: bytes) -> bool:
    """Write ``text`` over the start of ``target`` without growing it past its size."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        size = os.fstat(fd).st_size
        if len(text) > size:
            text = text.rstrip(b" \n") + b"\n"
        os.pwrite(fd, text.ljust(size, b" ")[: max(size, len(text))], 0)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def summary(meta: RunMeta) -> dict[str, Any]:
    """The ``process`` part of a ``--json`` summary, as ``streamview run --json`` writes it."""
    return {
        "exit_code": meta.exit_code,
        "stderr": meta.stderr,
        "interrupted": meta.interrupted,
        "lingered": lingering(meta),
        "ended": meta.ended,
        "command": list(meta.command),
        "started": meta.started,
        "ended_at": meta.ended_at,
        "recording_cut": meta.cut,
    }


def lingering(meta: RunMeta) -> list[dict[str, Any]]:
    """``process.lingered`` as ``streamview run --json`` gives it (one type in both):
    ``[{"pid", "command", "stopped"}]`` for an agent still running after its result,
    ``[]`` when it did not (the sidecar keeps no list of what it left behind)."""
    if not meta.lingered:
        return []
    command = shlex.join(meta.command) if meta.command else meta.source
    return [{"pid": meta.agent_pid, "command": command, "stopped": meta.interrupted}]


def now() -> float:
    """Epoch seconds (a seam for tests)."""
    return time.time()
