"""``calls_by_id`` of a session whose finished calls are packed
(:mod:`~streamview.core.call_columns`): the packed calls' ids in a hash table of their
rows, the others in a dictionary, as the fold's dictionary had them all.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any

from streamview.core.model import ToolCall


class IdTable:
    """Packed rows by call id: open addressing over ``ids`` (4 bytes a slot, twice as
    many slots as rows). An id may be on several rows (a reused id): :meth:`find`
    gives the last one before a limit."""

    __slots__ = ("count", "ids", "mask", "slots")

    def __init__(self, ids: list[str]) -> None:
        self.ids = ids
        self.slots = array("i", bytes(4 * 8))
        self.mask = 7
        self.count = 0

    def add(self, row: int) -> None:
        """Row ``row`` (its id is ``ids[row]``)."""
        if 2 * (self.count + 1) > len(self.slots):
            self._grow()
        self._place(row)
        self.count += 1

    def add_rows(self, start: int, end: int) -> None:
        """Rows ``start`` to ``end`` (exclusive)."""
        while 2 * (self.count + end - start) > len(self.slots):
            self._grow()
        slots, mask, ids = self.slots, self.mask, self.ids
        for row in range(start, end):
            slot = hash(ids[row]) & mask
            while slots[slot]:
                slot = (slot + 1) & mask
            slots[slot] = row + 1
        self.count += end - start

    def _place(self, row: int) -> None:
        slots, mask = self.slots, self.mask
        slot = hash(self.ids[row]) & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = row + 1

    def _grow(self) -> None:
        old = self.slots
        self.slots = array("i", bytes(8 * len(old)))
        self.mask = 2 * len(old) - 1
        for held in old:
            if held:
                self._place(held - 1)

    def find(self, call_id: str, limit: int) -> int:
        """The last row before ``limit`` whose id is ``call_id``; -1 if none."""
        slots, mask, ids = self.slots, self.mask, self.ids
        slot = hash(call_id) & mask
        found = -1
        while True:
            held = slots[slot]
            if not held:
                return found
            row = held - 1
            if row < limit and row > found and ids[row] == call_id:
                found = row
            slot = (slot + 1) & mask


class CallIds:
    """``session.calls_by_id`` for a session whose calls are :class:`CallColumns`:
    the objects' ids in a dictionary (``live``), the packed rows' in the columns'
    :class:`IdTable`. Each id stands for the last call made with it, as in the fold's
    dictionary."""

    __slots__ = ("calls", "live")

    def __init__(self, calls: Any, live: dict[str, ToolCall]) -> None:
        """``calls``: the session's :class:`~streamview.core.call_columns.CallColumns`;
        ``live``: the ids of its calls that are objects."""
        self.calls = calls
        self.live = live

    def get(self, call_id: str, default: Any = None) -> Any:
        """The call of ``call_id``: a packed one is made an object again (the fold may
        change it: a finished call named again)."""
        call = self.live.get(call_id)
        if call is not None:
            return call
        calls = self.calls
        row = calls.ids_table.find(call_id, calls.packed)
        if row < 0:
            return default
        call = self.live[call_id] = calls.unpack(row)
        return call

    def __contains__(self, call_id: object) -> bool:
        if call_id in self.live:
            return True
        calls = self.calls
        return isinstance(call_id, str) and calls.ids_table.find(call_id, calls.packed) >= 0

    def __getitem__(self, call_id: str) -> ToolCall:
        call = self.get(call_id)
        if call is None:
            raise KeyError(call_id)
        return call  # type: ignore[no-any-return]

    def __setitem__(self, call_id: str, call: ToolCall) -> None:
        self.live[call_id] = call

    def packed_call(self, call: ToolCall) -> None:
        """``call`` went into a row: its id is found there now."""
        live = self.live
        if live.get(call.call_id) is call:
            del live[call.call_id]

    def keys(self) -> list[str]:
        """Every id (made from the rows: slow, for tests and exports)."""
        return list(self.items_dict())

    def items(self) -> Iterable[tuple[str, ToolCall]]:
        """Each id and its call."""
        return self.items_dict().items()

    def values(self) -> Iterable[ToolCall]:
        """Each id's call."""
        return self.items_dict().values()

    def __iter__(self) -> Iterator[str]:
        return iter(self.items_dict())

    def __len__(self) -> int:
        return len(self.items_dict())

    def items_dict(self) -> dict[str, ToolCall]:
        """As a dictionary (every call read)."""
        out: dict[str, ToolCall] = {}
        for call in self.calls:
            out[call.call_id] = call
        return out
