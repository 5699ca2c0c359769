"""A session's finished tool calls packed into columns, for the viewer of a long file
(issue 27.5: a :class:`~streamview.core.model.ToolCall`, its ints and its entry in
``calls_by_id`` took about 420 bytes a call: 240 MB of a 2 GB Claude Code session).

:class:`CallColumns` stands for ``session.tool_calls``: a sequence whose first
:attr:`~CallColumns.packed` calls are rows of arrays (lines and times as 4- or 8-byte
ints, each string field a code into the strings it has seen) and whose later ones are
the fold's own objects. A row is made a :class:`ToolCall` when it is read; the same
object comes back while anything holds it, so code that compares calls with ``is``
sees one call. :class:`CallIds` stands for ``calls_by_id``: the packed calls' ids in a
hash table of rows; a packed call the fold looks up (``get``: a finished call named
again) becomes one of its objects again, to be changed in place as before.

Only :class:`~streamview.core.args_store.ArgsRelease` packs (the viewer's fold of a
file, between chunks); ``--json``, ``--events`` and live streams keep lists. Readers
that would look at every call each refresh ask this module's functions instead
(:func:`running_places`, :func:`status_counts`...), which read the columns.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator, Sequence
from operator import attrgetter
from typing import Any, overload

import streamview.core.tools as tools
from streamview.core.call_ids import CallIds, IdBlob, IdTable
from streamview.core.model import ToolCall
from streamview.core.paged_array import PagedArray
from streamview.core.value_columns import CodeColumn, IntColumn


class InTheLines(dict[str, Any]):
    """The type of :data:`IN_THE_LINES`: an empty dict, never filled."""


IN_THE_LINES: dict[str, Any] = InTheLines()
"""Stands for the arguments of a finished call, which its lines hold
(:mod:`~streamview.core.args_store`)."""

_IN_THE_LINES_CODE = 1
_EMPTY_ARGS_CODE = 2
_OTHER_ARGS_CODE = 3


_INT_FIELDS = (
    "started_line",
    "completed_line",
    "started_at_ms",
    "completed_at_ms",
    "start_ts",
    "end_ts",
    "start_recv",
    "end_recv",
    "lines_added",
    "lines_removed",
    "exit_code",
)
_CODE_FIELDS: tuple[str, ...] = (
    "kind",
    "target",
    "status",
    "summary",
    "outcome",
    "model_call_id",
    "description",
    "approval",
    "parent_call_id",
)


class CallColumns(Sequence[ToolCall]):
    """``session.tool_calls`` with its finished calls packed (see the module).

    Args:
        calls: The session's calls so far (none packed yet).
    """

    def __init__(self, calls: Iterable[ToolCall] = ()) -> None:
        self.ids = IdBlob()
        """Each packed row's call id, packed (``ids[row]`` is an equal string)."""
        self._codes = {name: CodeColumn() for name in _CODE_FIELDS}
        self._ints = {name: IntColumn() for name in _INT_FIELDS}
        self._args = PagedArray("B")
        self._other_args: dict[int, Any] = {}
        self.packed = 0
        """Calls in rows; the calls after them are :attr:`tail`."""
        self.tail: list[ToolCall] = list(calls)
        self.overlay: dict[int, ToolCall] = {}
        """Packed places whose call is an object: running when packed, or looked up by
        the fold since (its row is then stale)."""
        self._made: dict[int, ToolCall] = {}
        """Calls made from rows, kept while something else holds them."""
        self._made_limit = 256
        self.widest_kind = 0
        """Most cells a packed call's kind takes in the table (``↳ `` included)."""
        self.timed = False
        """Some packed call has a start time."""
        self.ids_table: IdTable = IdTable(self.ids)

    # -- the sequence ------------------------------------------------------------------

    def __len__(self) -> int:
        return self.packed + len(self.tail)

    @overload
    def __getitem__(self, index: int) -> ToolCall: ...

    @overload
    def __getitem__(self, index: slice) -> list[ToolCall]: ...

    def __getitem__(self, index: int | slice) -> ToolCall | list[ToolCall]:
        if isinstance(index, slice):
            return [self[place] for place in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
            if index < 0:
                raise IndexError(index)
        packed = self.packed
        if index >= packed:
            return self.tail[index - packed]
        call = self.overlay.get(index)
        if call is None:
            call = self._made.get(index)
            if call is None:
                call = self._make(index)
        return call

    def __iter__(self) -> Iterator[ToolCall]:
        for index in range(self.packed):
            yield self[index]
        yield from list(self.tail)

    def __bool__(self) -> bool:
        return len(self) > 0

    def append(self, call: ToolCall) -> None:
        """A new call (the fold's)."""
        self.tail.append(call)

    def _make(self, row: int) -> ToolCall:
        """The call of ``row``, made from its columns (and kept while held elsewhere)."""
        codes, ints = self._codes, self._ints
        args_code = self._args[row]
        if args_code == 0:
            args: Any = None
        elif args_code == _IN_THE_LINES_CODE:
            args = IN_THE_LINES
        elif args_code == _EMPTY_ARGS_CODE:
            args = {}
        else:
            args = self._other_args[row]
        call = ToolCall(
            row,
            self.ids[row],
            codes["kind"].get(row),
            args,
            codes["target"].get(row),
            codes["status"].get(row),
            codes["summary"].get(row),
            codes["outcome"].get(row),
            codes["model_call_id"].get(row),
            codes["description"].get(row),
            ints["started_line"].get(row),
            ints["completed_line"].get(row),
            ints["started_at_ms"].get(row),
            ints["completed_at_ms"].get(row),
            ints["start_ts"].get(row),
            ints["end_ts"].get(row),
            ints["start_recv"].get(row),
            ints["end_recv"].get(row),
            codes["approval"].get(row),
            codes["parent_call_id"].get(row),
            ints["lines_added"].get(row),
            ints["lines_removed"].get(row),
            ints["exit_code"].get(row),
        )
        made = self._made
        if len(made) >= self._made_limit:
            self._let_go_made()
        made[row] = call
        return call

    def _let_go_made(self) -> None:
        """Forget the calls made from rows that nothing else holds any more (so the same
        object comes back for a row only while someone could compare it)."""
        made = self._made
        refcount = sys.getrefcount
        for row in list(made):
            if refcount(made[row]) <= 2:  # the dictionary's, getrefcount's argument
                del made[row]
        self._made_limit = max(256, 2 * len(made))

    # -- packing (the viewer's sweep) --------------------------------------------------

    def pack(self, ids: CallIds | None) -> int:
        """Put the finished calls of :attr:`tail` and :attr:`overlay` in rows; the
        running ones stay objects. Returns how many calls were packed."""
        packed = 0
        overlay = self.overlay
        for row, call in list(overlay.items()):
            if call.status != tools.RUNNING:
                self._put(row, call)
                del overlay[row]
                self._made.pop(row, None)
                if ids is not None:
                    ids.packed_call(call)
                packed += 1
        tail = self.tail
        if not tail:
            return packed
        start = self.packed
        running = tools.RUNNING
        rows = [_PLACEHOLDER if call.status == running else call for call in tail]
        for place, (call, kept) in enumerate(zip(tail, rows, strict=True), start):
            if kept is _PLACEHOLDER:
                overlay[place] = call
        for name, column in self._codes.items():
            column.extend(start, list(map(attrgetter(name), rows)))
        for name, ints in self._ints.items():
            ints.extend(start, list(map(attrgetter(name), rows)))
        args_column, other = self._args, self._other_args
        found = list(map(_args_code, rows))
        args_column.frombytes(bytes(found))
        if _OTHER_ARGS_CODE in found:
            for place, code in enumerate(found):
                if code == _OTHER_ARGS_CODE:
                    other[start + place] = rows[place].args
        call_ids = [call.call_id for call in tail]
        self.ids.extend(call_ids)
        self.ids_table.add_rows(start, call_ids)
        self._measure(rows)
        self.packed = start + len(tail)
        self.tail = []
        if ids is not None:
            for kept in rows:
                if kept is not _PLACEHOLDER:
                    ids.packed_call(kept)
                    packed += 1
        else:
            packed += len(rows) - rows.count(_PLACEHOLDER)
        return packed

    def _measure(self, rows: Sequence[ToolCall]) -> None:
        """Keep :attr:`widest_kind` and :attr:`timed` for the calls ``rows`` (a running
        call's placeholder is none)."""
        calls = [row for row in rows if row is not _PLACEHOLDER]
        widest = max(map(len, {call.kind for call in calls}), default=0)
        if any(call.parent_call_id for call in calls):
            widest = max(len(call.kind) + (2 if call.parent_call_id else 0) for call in calls)
        self.widest_kind = max(self.widest_kind, widest)
        if not self.timed:
            self.timed = any(call.start_ms is not None for call in calls)

    def _put(self, row: int, call: ToolCall) -> None:
        codes, ints = self._codes, self._ints
        for name in _CODE_FIELDS:
            codes[name].put(row, getattr(call, name))
        for name in _INT_FIELDS:
            ints[name].put(row, getattr(call, name))
        self._other_args.pop(row, None)
        code = _args_code(call)
        if code == _OTHER_ARGS_CODE:
            self._other_args[row] = call.args
        if row == len(self._args):
            self._args.append(code)
        else:
            self._args[row] = code
        if call is not _PLACEHOLDER:
            self._measure([call])

    def unpack(self, row: int) -> ToolCall:
        """Packed call ``row`` as an object the fold may change (its row no longer
        read until it is packed again)."""
        call = self.overlay.get(row)
        if call is None:
            call = self[row]
            self._made.pop(row, None)
            self.overlay[row] = call
        return call

    # -- what readers ask of every call ------------------------------------------------

    def live(self) -> Iterator[ToolCall]:
        """The calls that are objects (running, named again, not packed yet)."""
        yield from self.overlay.values()
        yield from self.tail

    def running(self) -> list[ToolCall]:
        """Calls still running, in order (packed rows never are)."""
        found = [call for call in self.overlay.values() if call.status == tools.RUNNING]
        found.sort(key=lambda call: call.index)
        found.extend(call for call in self.tail if call.status == tools.RUNNING)
        return found

    def _counts(self, name: str) -> dict[Any, int]:
        """Calls by their value of the string field ``name``: the rows' codes counted
        (a stale row's value taken off), then the objects'."""
        column = self._codes[name]
        codes = column.codes[: self.packed]  # a fork's: the rows past its own are not its
        counts: dict[Any, int] = {}
        for code, value in enumerate(column.values):
            number = codes.count(code)
            if number:
                counts[value] = counts.get(value, 0) + number
        for row in self.overlay:
            stale = column.get(row)
            counts[stale] -= 1
        for call in self.live():
            value = getattr(call, name)
            counts[value] = counts.get(value, 0) + 1
        return counts

    def status_counts(self) -> dict[str, int]:
        """Calls of each status."""
        return {status: n for status, n in self._counts("status").items() if n}

    def kind_counts(self) -> dict[str, int]:
        """Calls of each kind (in no particular order)."""
        return {kind: n for kind, n in self._counts("kind").items() if n}

    def nested_count(self) -> int:
        """Calls a subagent made (``parent_call_id`` set)."""
        return sum(n for parent, n in self._counts("parent_call_id").items() if parent)

    def with_parent(self) -> list[ToolCall]:
        """The calls a subagent made, in order."""
        codes = self._codes["parent_call_id"].codes[: self.packed]
        places = {place for place in range(self.packed) if codes[place]}
        places.difference_update(self.overlay)
        places.update(call.index for call in self.live() if call.parent_call_id)
        return [self[place] for place in sorted(places)]

    def code_column(self, name: str) -> CodeColumn:
        """The column of string field ``name`` (its first :attr:`packed` rows are this
        sequence's; a row in :attr:`overlay` is stale)."""
        return self._codes[name]

    def int_column(self, name: str) -> IntColumn:
        """The column of int field ``name`` (as :meth:`code_column`)."""
        return self._ints[name]

    # -- checkpoints -------------------------------------------------------------------

    def fork(self, count: int, copies: dict[int, ToolCall]) -> CallColumns:
        """The first ``count`` calls as another sequence sharing these rows (which are
        only ever appended to), ``copies`` standing for the calls at their places and
        the other objects shared: :meth:`copied` it before changing it."""
        twin = CallColumns.__new__(CallColumns)
        twin.__dict__.update(self.__dict__)
        packed = twin.packed = min(self.packed, count)
        twin.overlay = {row: call for row, call in self.overlay.items() if row < packed}
        twin.overlay.update((row, call) for row, call in copies.items() if row < packed)
        twin.tail = [copies.get(place) or self[place] for place in range(packed, count)]
        twin._made = {}
        twin._made_limit = 256
        return twin

    def copied(self, clone: Any) -> CallColumns:
        """This sequence with each call that is an object cloned (``clone``)."""
        twin = CallColumns.__new__(CallColumns)
        twin.__dict__.update(self.__dict__)
        twin.overlay = {row: clone(call) for row, call in self.overlay.items()}
        twin.tail = [clone(call) for call in self.tail]
        twin._made = {}
        twin._made_limit = 256
        return twin


def _args_code(call: ToolCall) -> int:
    """How a row keeps a finished call's arguments: ``None``, :data:`IN_THE_LINES` (its
    lines hold them: as :class:`~streamview.core.args_store.ArgsRelease` lets them go),
    an empty dict, or the arguments themselves (:data:`_OTHER_ARGS_CODE`)."""
    args = call.args
    if args is None:
        return 0
    if args.__class__ is InTheLines or (
        args
        and call.approval is None
        and call.started_line is not None
        and call.completed_line is not None
    ):
        return _IN_THE_LINES_CODE
    if args.__class__ is dict and not args:
        return _EMPTY_ARGS_CODE
    return _OTHER_ARGS_CODE


_PLACEHOLDER = ToolCall(-1, "", "unknown")
"""What a running call's row holds until it is packed (the call is an object)."""


def packed_session_ids(calls: CallColumns) -> CallIds:
    """A :class:`CallIds` for ``calls`` (a fork's): each object's id in ``live`` when
    it is the last call of its id."""
    live: dict[str, ToolCall] = {}
    table, packed = calls.ids_table, calls.packed
    for row in sorted(calls.overlay):
        call = calls.overlay[row]
        if table.find(call.call_id, packed) == row:
            live[call.call_id] = call
    for call in calls.tail:
        live[call.call_id] = call
    return CallIds(calls, live)


def pack_session(session: Any) -> int:
    """Pack ``session``'s finished calls (its lists become :class:`CallColumns` and
    :class:`CallIds` the first time). Returns how many were packed."""
    calls = session.tool_calls
    if calls.__class__ is not CallColumns:
        columns = CallColumns(calls)
        ids = CallIds(columns, session.calls_by_id)
        session.tool_calls, session.calls_by_id = columns, ids
        calls = columns
    by_id = session.calls_by_id
    return calls.pack(by_id if by_id.__class__ is CallIds else None)
