"""Arrays of ints whose full pages live in a file with no name, for the viewer's packed
rows of a long file (issue 27.5: a 2 GB session's columns of calls, ids and lines held
~100 MB that a person reads a screen at a time).

A :class:`PagedArray` keeps its last, unfilled page in memory; a page that fills is
written to its :class:`PageFile` (``os.pwrite``) and let go, and read back (``os.pread``)
into a small cache of pages the arrays of one file share, least recently used first
out. Not ``mmap``: the pages it touches would count in the process's resident memory.
A page that cannot be written (a full disk) stays in memory, and the file says why
(:attr:`PageFile.failed`) for the event log.
"""

from __future__ import annotations

import itertools
import os
import threading
from array import array
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import suppress
from typing import IO, Any, cast, overload

from streamview.core.events import AgentNotice

PAGE_BYTES = 1 << 14
"""Bytes of a page (a power of two)."""
CACHE_PAGES = 128
"""Pages read back that a :class:`PageFile` keeps (2 MB), for all its arrays."""


class PageFile:
    """The file with no name that :class:`PagedArray` pages go to (made when the first
    page fills), and the cache of pages read back from it.

    Args:
        cache_pages: Pages read back kept at most.
        page_bytes: Bytes of a page (a power of two, at least 8).
    """

    def __init__(self, cache_pages: int = CACHE_PAGES, page_bytes: int = PAGE_BYTES) -> None:
        self.cache_pages = max(1, cache_pages)
        self.page_bytes = page_bytes
        """Bytes of a page (a power of two, at least 8)."""
        self.end = 0
        """Bytes written so far (the next page goes there)."""
        self.failed: str | None = None
        """Why the file could not be made or written, once it could not: pages stay in
        memory from then on."""
        self.told = False
        """Whether :attr:`failed` was said (the event log says it once)."""
        self._fd = -1
        self._file: IO[bytes] | None = None
        self._cache: OrderedDict[tuple[int, int], list[Any]] = OrderedDict()
        """(array, page) -> [the array, the page, changed since read]."""
        self._tokens = itertools.count(1)  # next() is one step: no two arrays share one
        self._placing = threading.Lock()
        """Held to make the file and take a place in it (the fold's and the UI's threads
        page out at once: two pages at one place gave the transcript a column's rows)."""
        self.lock = threading.Lock()
        """Held to read a page into the cache or change one (the UI's threads read the
        rows the fold writes): a page let go is written back before it can be read."""

    def token(self) -> int:
        """A number no other array of this file has."""
        return next(self._tokens)

    def write(self, data: bytes | memoryview, at: int = -1) -> int:
        """Write ``data`` at ``at`` (``-1``: after the rest); returns where, or ``-1`` if
        the file cannot be made or written (:attr:`failed` then says why)."""
        if self.failed is not None:
            return -1
        try:
            with self._placing:
                if self._fd < 0:
                    from streamview.core.text_store import anonymous_file

                    self._fd, self._file = anonymous_file()
                if at < 0:
                    at = self.end
                self.end = max(self.end, at + len(data))
            view, done = memoryview(data), 0
            while done < len(view):  # a short write goes on where it stopped
                done += os.pwrite(self._fd, view[done:], at + done)
        except OSError as error:
            self.failed = error.strerror or str(error)
            return -1
        return at

    def read(self, at: int, size: int) -> bytes:
        """``size`` bytes from ``at``."""
        data = os.pread(self._fd, size, at)
        while len(data) < size:  # a short read (never seen on a regular file)
            more = os.pread(self._fd, size - len(data), at + len(data))
            if not more:
                raise OSError(f"page file ends at {at + len(data)}")
            data += more
        return data

    def cached(self, key: tuple[int, int]) -> list[Any] | None:
        """The cache's entry of ``key``, made the most recent, if it has one."""
        cache = self._cache
        entry = cache.get(key)
        if entry is not None:
            with suppress(KeyError):  # let go by another thread meanwhile: written back
                cache.move_to_end(key)
        return entry

    def peek(self, key: tuple[int, int]) -> list[Any] | None:
        """The cache's entry of ``key`` (its order kept), if any."""
        return self._cache.get(key)

    def keep(self, key: tuple[int, int], entry: list[Any]) -> None:
        """Cache ``entry`` (the oldest written back if changed, and let go)."""
        cache = self._cache
        cache[key] = entry
        while len(cache) > self.cache_pages:
            (_, page), (owner, values, changed) = cache.popitem(last=False)
            if changed:
                owner.write_back(page, values)

    def forget(self, token: int, pages: Iterable[int]) -> None:
        """Drop ``token``'s ``pages`` from the cache (unwritten: its array is gone)."""
        cache = self._cache
        for page in pages:
            cache.pop((token, page), None)

    def close(self) -> None:
        """Let the file go (it had no name: it is deleted)."""
        self._cache.clear()
        if self._file is not None:
            self._file.close()
        elif self._fd >= 0:
            os.close(self._fd)
        self._fd, self._file = -1, None


_SHARED: PageFile | None = None


def shared_pages() -> PageFile:
    """The process's page file (made when first asked for)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = PageFile()
    return _SHARED


class PagedArray:
    """An ``array.array`` of ints whose full pages are in a :class:`PageFile` (see the
    module): indexing, slices (an ``array``), ``append``, ``extend``, ``frombytes``,
    ``count``, iteration, assignment to an item. An ``OverflowError`` leaves it as it
    was, as an array's does.

    Args:
        typecode: As an array's.
        values: Its first items.
        pages: Where full pages go (:func:`shared_pages` if not given).
    """

    __slots__ = (
        "_changes",
        "_free",
        "_full",
        "_held",
        "_last",
        "_places",
        "_shift",
        "_token",
        "itemsize",
        "pages",
        "tail",
        "typecode",
    )

    def __init__(
        self, typecode: str, values: Iterable[int] = (), pages: PageFile | None = None
    ) -> None:
        self.typecode = typecode
        self.pages = pages if pages is not None else shared_pages()
        self.tail = array(typecode)
        """The last page, not full yet."""
        self.itemsize = self.tail.itemsize
        self._shift = (self.pages.page_bytes // self.itemsize).bit_length() - 1
        self._places = array("q")
        """Where each full page is in the file (``-1``: in :attr:`_held`)."""
        self._held: dict[int, array[int]] = {}
        """Full pages that could not be written."""
        self._full = 0
        """Items in full pages."""
        self._token = self.pages.token()
        self._last: tuple[int, int, Any, int] = (0, 0, None, 0)
        """The full page read last: its first item's place, the next page's, its items
        and :attr:`_changes` before it was read (its next item is read without the
        cache)."""
        self._changes = 0
        """Items of full pages changed so far."""
        self._free: list[int] = []
        """Places in the file of pages cut off (:meth:`truncate`), for the next ones."""
        if values:
            self.extend(values)

    def __len__(self) -> int:
        return self._full + len(self.tail)

    def __bool__(self) -> bool:
        return self._full > 0 or len(self.tail) > 0

    def __repr__(self) -> str:
        return f"PagedArray({self.typecode!r}, {len(self)} items, {len(self._places)} pages)"

    def __del__(self) -> None:
        with suppress(Exception):  # at exit: the cache may be gone
            self.pages.forget(self._token, range(len(self._places)))

    # -- reading -----------------------------------------------------------------------

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> array[int]: ...

    def __getitem__(self, index: int | slice) -> int | array[int]:
        last = self._last
        if index.__class__ is int and last[0] <= index < last[1] and last[3] == self._changes:
            return last[2][index - last[0]]  # type: ignore[no-any-return]
        return self._get(index)

    def _get(self, index: int | slice) -> int | array[int]:
        if index.__class__ is slice:
            return self._slice(index)
        at = cast(int, index)
        full = self._full
        if at >= full or at < 0:
            if at < 0:
                at += full + len(self.tail)
                if 0 <= at < full:
                    return self[at]
            return self.tail[at - full]
        shift = self._shift
        page = at >> shift
        changes = self._changes  # (before the page: a change meanwhile makes it stale)
        values = self._page(page)
        first = page << shift
        self._last = (first, first + (1 << shift), values, changes)
        return values[at - first]

    def _page(self, page: int) -> array[int]:
        """Full page ``page``, cached."""
        held = self._held
        if held and page in held:
            return held[page]
        pages = self.pages
        key = (self._token, page)
        entry = pages.cached(key)
        if entry is None:
            with pages.lock:
                entry = pages.cached(key)
                if entry is None:
                    entry = [self, self._read(page), False]
                    pages.keep(key, entry)
        return entry[1]  # type: ignore[no-any-return]

    def _peek(self, page: int) -> array[int]:
        """Full page ``page``, from the cache if it is there, else read and not kept (a
        walk over every page does not push the others out)."""
        held = self._held
        if held and page in held:
            return held[page]
        pages = self.pages
        with pages.lock:
            entry = pages.peek((self._token, page))
            if entry is not None:
                return entry[1]  # type: ignore[no-any-return]
            return self._read(page)

    def _read(self, page: int) -> array[int]:
        values = array(self.typecode)
        values.frombytes(self.pages.read(self._places[page], self.itemsize << self._shift))
        return values

    def pages_of(self, start: int = 0, stop: int | None = None) -> Iterator[array[int]]:
        """The items from ``start`` to ``stop``, a page (or part of one) at a time."""
        length = len(self)
        stop = length if stop is None else min(stop, length)
        shift, full = self._shift, self._full
        size = 1 << shift
        while start < stop:
            if start >= full:
                yield self.tail[start - full : stop - full]
                return
            page = start >> shift
            first = page << shift
            values = self._peek(page)
            if start > first or stop < first + size:
                values = values[start - first : stop - first]
            yield values
            start = first + size

    def _slice(self, index: slice) -> array[int]:
        start, stop, step = index.indices(len(self))
        if step != 1:
            return array(self.typecode, map(self.__getitem__, range(start, stop, step)))
        out = array(self.typecode)
        for values in self.pages_of(start, stop):
            out.extend(values)
        return out

    def __iter__(self) -> Iterator[int]:
        for values in self.pages_of():
            yield from values

    def __eq__(self, other: object) -> bool:
        """Equal items, as arrays compare (another paged array, or an array)."""
        if isinstance(other, PagedArray):
            other = other[:]
        if isinstance(other, array):
            return len(self) == len(other) and self[:] == other
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __contains__(self, value: object) -> bool:
        return any(value in values for values in self.pages_of())

    def count(self, value: int) -> int:
        """How many items are ``value``."""
        return sum(values.count(value) for values in self.pages_of())

    def tobytes(self) -> bytes:
        """The items' bytes, as an array's."""
        return b"".join(values.tobytes() for values in self.pages_of())

    def bytes_at(self, start: int, stop: int) -> bytes:
        """Items ``start`` to ``stop`` of a ``"B"`` array, as ``bytes``."""
        full = self._full
        if start >= full:
            return self.tail[start - full : stop - full].tobytes()
        shift = self._shift
        page = start >> shift
        if stop <= full and (stop - 1) >> shift == page:  # one page (an id: nearly always)
            first = page << shift
            return self._page(page)[start - first : stop - first].tobytes()
        return b"".join(values.tobytes() for values in self.pages_of(start, stop))

    # -- writing -----------------------------------------------------------------------

    def __setitem__(self, index: int, value: int) -> None:
        full = self._full
        if index < 0:
            index += full + len(self.tail)
        if index >= full or index < 0:
            self.tail[index - full] = value
            return
        page = index >> self._shift
        with self.pages.lock:
            self._to_change(page)[index - (page << self._shift)] = value
            self._changes += 1

    def _to_change(self, page: int) -> array[int]:
        """Full page ``page``, to be changed in place (cached and marked changed; the
        caller holds the file's lock)."""
        if self._held and page in self._held:
            return self._held[page]
        key = (self._token, page)
        entry = self.pages.cached(key)
        if entry is None:
            entry = [self, self._read(page), True]
            self.pages.keep(key, entry)  # (the newest is never the one let go)
        entry[2] = True
        return entry[1]  # type: ignore[no-any-return]

    def __delitem__(self, index: slice) -> None:
        """``del values[start:]`` only (:meth:`truncate`)."""
        if index.__class__ is not slice or index.stop is not None or index.step is not None:
            raise TypeError("only del values[start:] is supported")
        self.truncate(len(range(len(self))[: index.start]))

    def truncate(self, length: int) -> None:
        """Keep the first ``length`` items; the next pages go where those cut off were
        (a layout's offsets, cut and extended again and again, do not grow the file)."""
        full = self._full
        if length >= full:
            del self.tail[length - full :]
            return
        page = length >> self._shift
        first = page << self._shift
        kept = self._page(page)[: length - first]
        with self.pages.lock:
            self.pages.forget(self._token, range(page, len(self._places)))
            for gone in range(page, len(self._places)):
                self._held.pop(gone, None)
            self._free.extend(place for place in self._places[page:] if place >= 0)
            del self._places[page:]
            self._full, self.tail = first, kept
            self._changes += 1  # the page read last may be one cut off
            self._last = (0, 0, None, 0)

    def set_range(self, start: int, values: array[int]) -> None:
        """Items ``start`` on become ``values`` (this typecode, all within the array)."""
        full, shift = self._full, self._shift
        done = 0
        while done < len(values):
            index = start + done
            if index >= full:
                self.tail[index - full : index - full + len(values) - done] = values[done:]
                return
            at = index & ((1 << shift) - 1)
            part = values[done : done + (1 << shift) - at]
            with self.pages.lock:
                self._to_change(index >> shift)[at : at + len(part)] = part
                self._changes += 1
            done += len(part)

    def write_back(self, page: int, values: array[int]) -> None:
        """Write changed page ``page`` back to its place (kept in memory if it cannot)."""
        if self.pages.write(values.tobytes(), self._places[page]) < 0:
            self._held[page] = values

    def append(self, value: int) -> None:
        """Add ``value`` at the end."""
        tail = self.tail
        tail.append(value)
        if len(tail) >> self._shift:
            self._page_out()

    def extend(self, values: Iterable[int]) -> None:
        """Add ``values`` at the end (an array of another typecode is read as ints)."""
        if values.__class__ is not array or values.typecode != self.typecode:
            values = array(self.typecode, values)
        self._add(values)

    def frombytes(self, data: bytes) -> None:
        """Add the items ``data`` holds, as an array's ``frombytes``."""
        tail = self.tail
        tail.frombytes(data)
        size = 1 << self._shift
        while len(tail) >= size:  # a page filled: out, the rest the new last page
            self._page_out(size)
            tail = self.tail

    def _add(self, values: array[int]) -> None:
        size = 1 << self._shift
        tail = self.tail
        room = size - len(tail)
        if len(values) < room:
            tail.extend(values)
            return
        tail.extend(values[:room])
        self._page_out()
        at = room
        while len(values) - at >= size:
            self.tail = values[at : at + size]
            self._page_out()
            at += size
        self.tail.extend(values[at:])

    def _page_out(self, size: int = 0) -> None:
        """Write the last page's first ``size`` items (all: ``0``) as the next full page
        and let them go, in an order that lets another thread read any item meanwhile
        (the items after them are new: no one reads them yet)."""
        tail = self.tail
        page_values = tail[:size] if size else tail
        free = self._free
        place = self.pages.write(page_values.tobytes(), free.pop() if free else -1)
        page = len(self._places)
        self._held[page] = page_values
        self._places.append(place)
        self._full += len(page_values)
        self.tail = tail[size:] if size else array(self.typecode)
        if place >= 0:
            del self._held[page]


def paging_notice(line: int = 0) -> AgentNotice | None:
    """A notice for the event log, once, if the process's page file could not be
    written: the rows stay in memory (a full disk, no temporary folder)."""
    pages = _SHARED
    if pages is None or pages.failed is None or pages.told:
        return None
    pages.told = True
    return AgentNotice(
        line=line,
        type="streamview",
        subtype="paging",
        topic="status",
        text=f"Packed rows kept in memory: the page file could not be written ({pages.failed}).",
    )


def widened(values: Any, typecode: str, pages: PageFile | None = None) -> PagedArray:
    """``values`` (an array or a :class:`PagedArray`) as a paged array of ``typecode``."""
    out = PagedArray(typecode, pages=pages)
    if isinstance(values, PagedArray):
        for page in values.pages_of():
            out.extend(page)
    else:
        out.extend(values)
    return out
