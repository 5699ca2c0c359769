"""``sessions --watch --otlp``: every run on the machine sent as it happens.

Each watched file is folded as it grows (whole lines only). A tool call's span is sent
once the call ended, a session's root span once the session ended (its result came,
or a later session began) or its file went quiet (no longer live). What the backend
took is written to a private state file (:class:`WatchLedger`): for each file, how far
it was read and the ids of the spans sent. The ledger moves only after the backend
said it took a batch, so a watch killed at any moment and started again sends what it
had not sent and nothing twice (killed between the two, the batch goes again, with
the same span ids: a backend keeps one of each). Spans a backend that is down did not
take stay owed and go once it answers again.

Sessions that do not grow by lines (a legacy Gemini CLI session rewritten whole,
opencode's database) are read whole when they change: their progress is what they
held when their spans were sent (:mod:`streamview.fronts.otlp.whole`), not an offset.
A session whose subagents write files of their own is read whole with them (their
calls under the call that started each: :mod:`streamview.fronts.otlp.nested`).

Export waits for the backend on the watch's own loop (each batch posted on a thread of
its own, so a signal need not wait for a hung backend:
:mod:`streamview.fronts.otlp.export`), with the SDK's OTLP/HTTP exporter; nothing here
encodes OTLP.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import IO, Any

import orjson

import streamview.core.tools as tools
from streamview.core.model import RUNNING, Session
from streamview.core.otlp_spans import SpanRecord, spans_of, trace_id_of
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.fronts.otlp.export import SpanExport
from streamview.fronts.otlp.nested import NestedLook, NestedSessions
from streamview.fronts.otlp.whole import WholeSession, folded, stamp_of, whole_sessions

LEDGER_VERSION = 1
STREAM_SUFFIXES = (".jsonl", ".ndjson", ".txt", ".log")
"""Files read as a stream of lines (a Gemini CLI session of one JSON object and
opencode's database are read whole: :mod:`streamview.fronts.otlp.whole`)."""
READ_LIMIT = 8 * 1024 * 1024
"""Bytes read from one file per look (a big history is read over several)."""


class WatchBusy(RuntimeError):
    """Another watch sends to the same endpoint from this state folder."""


def _span_key(span: SpanRecord) -> str:
    return f"{span.span_id:016x}"


@dataclass
class FileProgress:
    """What the ledger says of one file."""

    offset: int = 0
    """Bytes read (whole lines) whose finished spans the backend took."""
    sent: set[str] = field(default_factory=set)
    """Ids (hex) of the spans the backend took."""
    done: bool = False
    """Quiet, and every span of it sent: not read again until it changes."""
    inode: int = 0
    mark: str = ""
    """Of a session read whole: what it held when its spans were sent (a file's
    digest, a database session's ``time_updated``)."""

    def as_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {
            "offset": self.offset,
            "inode": self.inode,
            "done": self.done,
            "sent": sorted(self.sent),
        }
        if self.mark:
            body["mark"] = self.mark
        return body


class WatchLedger:
    """The state file: how far each file was sent, kept under ``XDG_STATE_HOME``,
    readable by its owner only, written whole and renamed into place (a kill never
    leaves half of it), locked while a watch runs.

    Args:
        folder: Where ledgers live (``user_state_dir("streamview")/otlp-watch``).
        endpoint: The backend's URL: each endpoint has a ledger of its own.
    """

    def __init__(self, folder: Path, endpoint: str) -> None:
        digest = hashlib.sha256(endpoint.encode()).hexdigest()[:16]
        self.folder = folder
        self.path = folder / f"{digest}.json"
        self.endpoint = endpoint
        self.files: dict[str, FileProgress] = {}
        self.existed = False
        """A ledger was there (not the watch's first start for this endpoint)."""
        self._lock: IO[bytes] | None = None

    def open(self) -> None:
        """Make the folder (private), take the lock and read the ledger.

        Raises:
            WatchBusy: Another watch holds the lock.
            OSError: The folder cannot be made or the file read.
        """
        self.folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        lock = os.fdopen(
            os.open(self.path.with_suffix(".lock"), os.O_WRONLY | os.O_CREAT, 0o600), "wb"
        )
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise WatchBusy(
                f"another `streamview sessions --watch --otlp` sends to {self.endpoint} "
                f"already (its state: {self.path})"
            ) from None
        self._lock = lock
        try:
            data = orjson.loads(self.path.read_bytes())
        except FileNotFoundError:
            return
        except orjson.JSONDecodeError:
            data = {}  # a ledger that does not parse: start again (ids make it harmless)
        self.existed = True
        for name, entry in (data.get("files") or {}).items():
            self.files[name] = FileProgress(
                offset=int(entry.get("offset", 0)),
                sent=set(entry.get("sent") or ()),
                done=bool(entry.get("done")),
                inode=int(entry.get("inode", 0)),
                mark=str(entry.get("mark") or ""),
            )

    def save(self) -> None:
        """Write the ledger whole, then rename it into place."""
        body = {
            "version": LEDGER_VERSION,
            "endpoint": self.endpoint,
            "files": {name: progress.as_json() for name, progress in self.files.items()},
        }
        handle, temporary = tempfile.mkstemp(dir=self.folder, prefix=".ledger-")
        try:
            with os.fdopen(handle, "wb") as out:  # mkstemp makes it 0600
                out.write(orjson.dumps(body))
                out.flush()
                os.fsync(out.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def close(self) -> None:
        """Let the lock go."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None


class _Fold:
    """One file's fold so far."""

    def __init__(self, inode: int) -> None:
        self.inode = inode
        self.offset = 0
        self.looked: tuple[int, int, bool] | None = None
        """Size, inode and liveness at the last look whose spans the backend took."""
        self.read_to = 0
        """Where the last read stopped (a cut last line is read again next time)."""
        self.reader = EventReader()
        self.state = StreamState(track_changes=False)

    def feed(self, data: bytes) -> None:
        for event in self.reader.feed(data):
            self.state.apply(event)
        self.offset += len(data)


@dataclass(frozen=True)
class Watched:
    """A file to watch, as the list of runs saw it."""

    path: Path
    live: bool
    """Changed within the live window: its last session may go on."""


@dataclass(frozen=True)
class _Owed:
    """A look's finished spans of one file (or session read whole) not sent yet."""

    spans: list[SpanRecord]
    taken: Callable[[], None]
    """Moves its ledger entry (and what the watch remembers) once the backend took them."""


def _ended(session: Session, last: bool) -> bool:
    return not last or session.outcome.status != RUNNING


class SessionWatch:
    """Fold watched files as they grow and send their finished spans once.

    Args:
        ledger: The state file (opened).
        export: Where spans go.
        content: Send prompts, answers, arguments and results.
    """

    def __init__(self, ledger: WatchLedger, export: SpanExport, content: bool = False) -> None:
        self.ledger = ledger
        self.export = export
        self.content = content
        self.sent = 0
        """Spans the backend took in this watch."""
        self.owed = 0
        """Spans found finished that the backend has not taken (at the latest look)."""
        self._folds: dict[str, _Fold] = {}
        self._whole_looked: dict[str, tuple[str, bool]] = {}
        """Of each session read whole: its mark and liveness at the last look whose
        spans the backend took."""
        self._settled: dict[str, tuple[int, ...]] = {}
        """Files read whole with nothing owed and nothing live: their stamp then."""
        self._first_look = not ledger.existed
        self._nested = NestedSessions()
        """Sessions with subagents' files: read whole (:mod:`.nested`)."""

    def look(self, files: Iterable[Watched]) -> int:
        """Read what each file added, send the spans that finished; returns how many
        the backend took (a session still live is not ended by a watch that stops:
        the next watch sends the rest)."""
        first, self._first_look = self._first_look, False
        owed: list[_Owed] = []
        for file in files:
            if file.path.suffix not in STREAM_SUFFIXES:
                self._look_whole(file, first, owed)
                continue
            name = str(file.path)
            try:
                status = file.path.stat()
            except OSError:
                continue
            progress = self.ledger.files.get(name)
            if progress is None:
                progress = FileProgress(inode=status.st_ino)
                if first and not file.live:  # history before the first watch: not sent
                    progress.offset, progress.done = status.st_size, True
                self.ledger.files[name] = progress
            if progress.done and progress.inode == status.st_ino:
                if status.st_size == progress.offset:
                    continue
                progress.done = False  # a quiet run goes on (a session resumed)
            due = partial(self._nested_due, progress)
            nested = self._nested.look(file.path, status, file.live, due)
            if nested is not None:  # subagents' files: read whole, not by offset
                self._folds.pop(name, None)
                if nested.taken is not None:
                    done = partial(self._nested_taken, file.path, status, progress, nested)
                    owed.append(_Owed(nested.spans, done))
                continue
            fold = self._folds.get(name)
            if fold is not None and fold.looked == (status.st_size, status.st_ino, file.live):
                continue  # nothing new since the last look, and nothing owed
            looked = (status.st_size, status.st_ino, file.live)
            spans, offset = self._finished(file, status, progress)
            fold = self._folds.get(name)
            if fold is None or fold.read_to < status.st_size:
                looked = (-1, 0, False)  # more to read: the next look reads on
            if spans or offset != progress.offset or not file.live:
                taken = partial(self._taken, name, progress, offset, spans, looked)
                owed.append(_Owed(spans, taken))
            elif name in self._folds:
                self._folds[name].looked = looked
        return self._send(owed)

    def _finished(
        self, file: Watched, status: os.stat_result, progress: FileProgress
    ) -> tuple[list[SpanRecord], int]:
        """The file's spans not sent yet that are finished, and how far it was read."""
        name = str(file.path)
        fold = self._folds.get(name)
        if fold is None or fold.inode != status.st_ino or status.st_size < fold.offset:
            fold = self._folds[name] = _Fold(status.st_ino)  # new, replaced or cut short
            progress.inode = status.st_ino
        if status.st_size > fold.offset:
            with file.path.open("rb") as handle:
                handle.seek(fold.offset)
                data = handle.read(min(status.st_size - fold.offset, READ_LIMIT))
            fold.read_to = fold.offset + len(data)
            whole = data[: data.rfind(b"\n") + 1]
            if whole:
                fold.feed(whole)
        caught_up = fold.offset >= status.st_size
        quiet = not file.live and caught_up
        spans = self._due(fold.state, progress, quiet, status.st_mtime_ns // 1_000_000)
        if quiet:
            self._folds.pop(name, None)  # read again from the start if it ever grows
        return spans, fold.offset if not quiet else status.st_size

    def _due(
        self,
        state: StreamState,
        progress: FileProgress,
        quiet: bool,
        anchor_ms: int,
        interactive: bool = False,
    ) -> list[SpanRecord]:
        """The finished spans of a fold that the ledger does not say were sent: the
        calls that ended, and the root of each session that ended (all of them once
        quiet, the calls still running then as they are). An ``interactive`` session
        (read whole: no result ends it) ends only when quiet."""
        sessions = state.sessions
        ended = {
            trace_id_of(session): quiet
            or (not interactive and _ended(session, n == len(sessions) - 1))
            for n, session in enumerate(sessions)
        }
        spans = []
        for span in spans_of(state, content=self.content, anchor_ms=anchor_ms):
            if _span_key(span) in progress.sent:
                continue
            if span.parent_id is None:
                if not ended.get(span.trace_id, False):
                    continue
            elif span.attributes.get("streamview.tool.status") == tools.RUNNING and not quiet:
                continue
            spans.append(span)
        return spans

    def _taken(
        self,
        name: str,
        progress: FileProgress,
        offset: int,
        spans: list[SpanRecord],
        looked: tuple[int, int, bool],
    ) -> None:
        progress.sent.update(_span_key(span) for span in spans)
        progress.offset = offset
        progress.done = name not in self._folds
        fold = self._folds.get(name)
        if fold is not None:
            fold.looked = looked

    def _nested_due(
        self, progress: FileProgress, state: StreamState, quiet: bool, anchor_ms: int
    ) -> list[SpanRecord]:
        return self._due(state, progress, quiet, anchor_ms)

    def _nested_taken(
        self, path: Path, status: os.stat_result, progress: FileProgress, nested: NestedLook
    ) -> None:
        progress.sent.update(_span_key(span) for span in nested.spans)
        progress.offset, progress.inode, progress.done = status.st_size, status.st_ino, nested.quiet
        if nested.taken is not None:
            nested.taken()
        if nested.quiet:
            self._nested.forget(path)

    def _look_whole(self, file: Watched, first: bool, owed: list[_Owed]) -> None:
        """A file read whole (a legacy Gemini CLI session, opencode's database):
        each of its sessions whose mark moved is read again, its unsent spans owed."""
        name = str(file.path)
        stamp = stamp_of(file.path)
        if self._settled.get(name) == stamp:
            return  # unchanged, nothing owed, nothing live
        sessions = whole_sessions(file.path, file.live)
        if sessions is None:
            return  # the database is busy: the next look reads it
        settled = True
        for session in sessions:
            progress = self.ledger.files.get(session.key)
            if progress is None:
                progress = FileProgress()
                if first and not session.live:  # history before the first watch: not sent
                    progress.mark, progress.done = session.mark, True
                self.ledger.files[session.key] = progress
            if progress.done and progress.mark == session.mark:
                continue
            settled = False
            looked = (session.mark, session.live)
            if self._whole_looked.get(session.key) == looked:
                continue  # nothing new since the last look, and nothing owed
            records = session.read()
            if records is None:
                continue  # the next look tries again
            quiet = not session.live
            spans = self._due(folded(records), progress, quiet, session.anchor_ms, True)
            if spans or session.mark != progress.mark or not session.live:
                owed.append(_Owed(spans, partial(self._whole_taken, session, progress, spans)))
            else:
                self._whole_looked[session.key] = looked
        if settled:
            self._settled[name] = stamp

    def _whole_taken(
        self, session: WholeSession, progress: FileProgress, spans: list[SpanRecord]
    ) -> None:
        progress.sent.update(_span_key(span) for span in spans)
        progress.mark = session.mark
        progress.done = not session.live
        self._whole_looked[session.key] = (session.mark, session.live)

    def _send(self, owed: list[_Owed]) -> int:
        """Send each file's spans; the ledger moves for the files the backend took."""
        taken = 0
        missing = 0
        changed = False
        for due in owed:
            if due.spans and not self.export.export(due.spans):
                missing += len(due.spans)  # owed: found again at the next look
                continue
            due.taken()
            taken += len(due.spans)
            changed = True
        self.owed = missing
        self.sent += taken
        if changed:
            self.ledger.save()
        return taken

    @property
    def reason(self) -> str | None:
        """Why the backend last refused (the SDK's first warning)."""
        return self.export.log.reason
