"""``calls_by_id`` of a session whose finished calls are packed
(:mod:`~streamview.core.call_columns`): the packed calls' ids in a hash table of their
rows, the others in a dictionary, as the fold's dictionary had them all.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from itertools import accumulate, islice
from typing import Any

from streamview.core.model import ToolCall
from streamview.core.paged_array import PagedArray, widened

_ZERO = (0,)


class IdBlob:
    """Call ids packed one after another (issue 27.5: a string object took 64 bytes
    an id, a list's slot 8 more): their UTF-8 bytes and where each ends (4 bytes, 8
    past 4 GB), both :class:`~streamview.core.paged_array.PagedArray`: what is not read
    lately is in the page file. ``blob[row]`` is the id of ``row`` again, as an equal
    string. An id that is not a string is kept as it is, on the side."""

    __slots__ = ("data", "ends", "others")

    def __init__(self) -> None:
        self.data = PagedArray("B")
        self.ends: Any = PagedArray("I")
        self.others: dict[int, Any] = {}
        """Rows whose id is not a string, and that id (their bytes: none)."""

    def __len__(self) -> int:
        return len(self.ends)

    def append(self, call_id: str) -> None:
        """The next row's id."""
        data = self.data
        if call_id.__class__ is str:
            data.frombytes(call_id.encode("utf-8", "surrogatepass"))
        else:
            self.others[len(self.ends)] = call_id
        try:
            self.ends.append(len(data))
        except OverflowError:
            self.ends = widened(self.ends, "q")
            self.ends.append(len(data))

    def extend(self, call_ids: list[str]) -> None:
        """The next rows' ids."""
        if not all(call_id.__class__ is str for call_id in call_ids):
            for call_id in call_ids:
                self.append(call_id)
            return
        encoded = [call_id.encode("utf-8", "surrogatepass") for call_id in call_ids]
        data = self.data
        ends = list(accumulate(map(len, encoded), initial=len(data)))
        del ends[0]
        if ends and ends[-1] > 0xFFFFFFFF and self.ends.typecode == "I":
            self.ends = widened(self.ends, "q")
        data.frombytes(b"".join(encoded))
        self.ends.extend(ends)

    def __getitem__(self, row: int) -> str:
        others = self.others
        if others and row in others:
            return others[row]  # type: ignore[no-any-return]
        ends = self.ends
        start = ends[row - 1] if row else 0
        return self.data.bytes_at(start, ends[row]).decode("utf-8", "surrogatepass")

    def matches(self, row: int, call_id: Any, key: bytes) -> bool:
        """Whether ``row``'s id is ``call_id`` (``key``: its bytes, when a string)."""
        others = self.others
        if others and row in others:
            return others[row] == call_id  # type: ignore[no-any-return]
        if call_id.__class__ is not str:
            return False
        ends = self.ends
        start = ends[row - 1] if row else 0
        end = ends[row]
        return end - start == len(key) and self.data.bytes_at(start, end) == key

    def hashes(self) -> Iterator[int]:
        """Each row's id's hash, in row order (the ids read a page of ends at a time)."""
        others, data = self.others, self.data
        row = start = 0
        for ends in self.ends.pages_of():
            base = start
            chunk = data.bytes_at(base, ends[-1])
            for end in ends:
                if others and row in others:
                    yield hash(others[row])
                else:
                    yield hash(chunk[start - base : end - base].decode("utf-8", "surrogatepass"))
                start = end
                row += 1


class IdTable:
    """Rows by call id: open addressing over ``ids`` (4 bytes a slot, at most three
    rows for four slots: it doubles past that; half full, a 2 GB session's 576,690
    calls took 2**21 slots, 10 MB, where 2**20 hold them at 0.55), and 8 bits of each
    slot's hash (``tags``: a row's id is compared only when they agree). An id may be
    on several rows (a reused id): :meth:`find` gives the last one before a limit."""

    __slots__ = ("count", "ids", "mask", "slots", "tags")

    def __init__(self, ids: IdBlob) -> None:
        self.ids = ids
        self.slots = array("i", _ZERO) * 8
        self.tags = bytearray(8)
        self.mask = 7
        self.count = 0

    def add(self, row: int, call_id: str) -> None:
        """Row ``row``, whose id is ``call_id``."""
        if 4 * (self.count + 1) > 3 * len(self.slots):
            self._grow()
        self._place(row, hash(call_id))
        self.count += 1

    def add_rows(self, start: int, call_ids: list[str]) -> None:
        """Rows from ``start`` on, whose ids are ``call_ids``."""
        while 4 * (self.count + len(call_ids)) > 3 * len(self.slots):
            self._grow()
        slots, tags, mask = self.slots, self.tags, self.mask
        for row, call_id in enumerate(call_ids, start + 1):
            hashed = hash(call_id)
            slot = hashed & mask
            while slots[slot]:
                slot = (slot + 1) & mask
            slots[slot] = row
            tags[slot] = (hashed >> 56) & 255
        self.count += len(call_ids)

    def _place(self, row: int, hashed: int) -> None:
        slots, mask = self.slots, self.mask
        slot = hashed & mask
        while slots[slot]:
            slot = (slot + 1) & mask
        slots[slot] = row + 1
        self.tags[slot] = (hashed >> 56) & 255

    def _grow(self) -> None:
        """Twice the slots, each row placed again (its id's hash made again from the
        blob, in row order: the rows in the table are its first :attr:`count`)."""
        size = 2 * len(self.slots)
        slots = self.slots = array("i", _ZERO) * size  # (no zero bytes as long first)
        tags = self.tags = bytearray(size)
        mask = self.mask = size - 1
        for held, hashed in enumerate(islice(self.ids.hashes(), self.count), 1):
            slot = hashed & mask
            while slots[slot]:
                slot = (slot + 1) & mask
            slots[slot] = held
            tags[slot] = (hashed >> 56) & 255

    def find(self, call_id: Any, limit: int) -> int:
        """The last row before ``limit`` whose id is ``call_id``; -1 if none."""
        slots, tags, mask, ids = self.slots, self.tags, self.mask, self.ids
        key = call_id.encode("utf-8", "surrogatepass") if call_id.__class__ is str else b""
        hashed = hash(call_id)
        slot, tag = hashed & mask, (hashed >> 56) & 255
        found = -1
        while True:
            held = slots[slot]
            if not held:
                return found
            row = held - 1
            if tags[slot] == tag and found < row < limit and ids.matches(row, call_id, key):
                found = row
            slot = (slot + 1) & mask

    def first(self, call_id: Any) -> int:
        """A row whose id is ``call_id`` (for ids on one row each); -1 if none."""
        slots, tags, mask, ids = self.slots, self.tags, self.mask, self.ids
        key = call_id.encode("utf-8", "surrogatepass") if call_id.__class__ is str else b""
        hashed = hash(call_id)
        slot, tag = hashed & mask, (hashed >> 56) & 255
        while True:
            held = slots[slot]
            if not held:
                return -1
            if tags[slot] == tag and ids.matches(held - 1, call_id, key):
                return held - 1
            slot = (slot + 1) & mask


class SeenIds:
    """Each call id the playback index has seen, and whether a completed record
    finished it, packed (:class:`IdBlob` and :class:`IdTable`: about 30 bytes an id
    of 15 characters against a dictionary's 64-byte string and its entry). The ids
    not finished yet are also in a dictionary (few: the running calls)."""

    __slots__ = ("ids", "running", "table")

    def __init__(self) -> None:
        self.ids = IdBlob()
        self.table = IdTable(self.ids)
        self.running: dict[Any, int] = {}
        """Ids seen and not finished, and their rows."""

    def get(self, call_id: Any, default: Any = None) -> bool | None:
        """Whether ``call_id`` is finished; ``default`` if never seen."""
        if call_id in self.running:
            return False
        return True if self.table.first(call_id) >= 0 else default

    def note(self, call_id: Any, completed: bool) -> bool | None:
        """A record of ``call_id`` (``completed``: it finishes the call). Returns what
        :meth:`get` said before it."""
        running = self.running
        row = running.get(call_id)
        if row is not None:
            if completed:
                del running[call_id]
            return False
        table, ids = self.table, self.ids
        if 4 * (table.count + 1) > 3 * len(table.slots):
            table._grow()
        slots, tags, mask = table.slots, table.tags, table.mask
        hashed = hash(call_id)
        slot, tag = hashed & mask, (hashed >> 56) & 255
        held = slots[slot]
        while held:  # another id on its slot, or the id: compare if the tags agree
            if tags[slot] == tag and ids.matches(
                held - 1,
                call_id,
                call_id.encode("utf-8", "surrogatepass") if call_id.__class__ is str else b"",
            ):
                return True
            slot = (slot + 1) & mask
            held = slots[slot]
        row = len(ids.ends)
        ids.append(call_id)
        slots[slot] = row + 1
        tags[slot] = tag
        table.count += 1
        if not completed:
            running[call_id] = row
        return None


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
