"""The tool-call table's orders of a packed session's rows, in memory that does not grow
with the session (issue 27.5).

Sorting half a million rows with :func:`sorted` makes an object of each key and each
place (about 40 bytes a row, all held until the sort ends): slowest first on a 2 GB
session raised the viewer's peak by ~31 MB. Here :data:`CHUNK` rows at a time are read
from the columns, each row's key and place packed in one float (:func:`_packed`), and
the chunk sorted alone into an array; the sorted chunks are then cut by values sampled
from them into stretches of about :data:`CHUNK` keys, each stretch sorted (its pieces
are sorted runs, which :meth:`list.sort` merges) and its places read back from the
floats' bytes. What is held: 8 bytes a row of sorted keys and 8 of places, and one chunk
of objects. Trouble first has four keys: its places are those of each rank in turn,
read with :func:`itertools.compress`.
"""

from __future__ import annotations

import sys
from array import array
from bisect import bisect_left
from collections.abc import Iterable
from itertools import chain, compress

from streamview.core.call_columns import CallColumns
from streamview.core.call_reading import duration_odd_rows, row_durations, row_flags

CHUNK = 65_536
"""Rows sorted at a time, and about the keys of a stretch merged at a time."""
_STRIDE = 256
"""Every this many keys of a sorted chunk, one is sampled to cut the stretches."""
_PLACE_BITS = 24
"""A packed key's low bits: the place (a session of up to 16.7 million calls)."""
_LONGEST = (1 << (52 - _PLACE_BITS)) - 2
"""The longest duration that packs (ms, about three days)."""
_SCALE = float(1 << _PLACE_BITS)
_TIMED = float((1 << 52) + (_LONGEST << _PLACE_BITS))
"""A call that took ``d`` ms at place ``p``: ``_TIMED - d * _SCALE + p``."""
_UNTIMED = _TIMED + _SCALE
"""A call with no duration (or 0) at place ``p``: ``_UNTIMED + p``, after every timed one."""
_PLACE_BYTES = range(3) if sys.byteorder == "little" else range(5, 8)
"""Where an 8-byte float or int of :data:`array.array` keeps its low 24 bits."""


def slowest_places(calls: CallColumns, shown: bytes | bytearray | None) -> array[int] | None:
    """The places of ``calls`` (those ``shown`` flags, or all), slowest first: by
    ``-(duration_ms or -1)``, ties as they ran. ``None`` when a duration (shown or not) does
    not pack (not an int, or longer than :data:`_LONGEST`) or there are too many calls: the
    caller sorts those its own way.

    A row's key ``-(duration or -1)`` and its place ``p`` are packed in one float, an
    integer below 2**53 and so exact: ``(key + _LONGEST) * 2**24 + p + 2**52``. As
    ``p < 2**24``, the floats order as ``(key, place)`` do: as the stable sort of the
    calls by ``key``. From 2**52 to 2**53 a float's mantissa holds its integer part, so
    ``p`` is its low 24 bits."""
    count, chunk = len(calls), CHUNK
    if count > 1 << _PLACE_BITS:
        return None
    runs: list[array[float]] = []
    for start in range(0, count, chunk):
        stop = min(start + chunk, count)
        durations = _durations(calls, start, stop)
        if durations is None:
            return None
        rows: Iterable[tuple[int, int | None]] = enumerate(durations, start)
        if shown is not None:
            rows = compress(rows, shown[start:stop])
        timed, untimed, scale = _TIMED, _UNTIMED, _SCALE
        keys = [
            timed - duration * scale + place if duration else untimed + place
            for place, duration in rows
        ]
        keys.sort()
        runs.append(array("d", keys))
        del keys, durations
    return _merged(runs)


def _merged(runs: list[array[float]]) -> array[int]:
    """The places of the keys of sorted ``runs``, in order: a stretch at a time, cut
    where the values sampled from the runs cut them into about :data:`CHUNK` keys."""
    places = array("q")
    if len(runs) == 1:
        places.frombytes(_places_of(runs[0]))
        return places
    stride = min(_STRIDE, CHUNK)
    sample = sorted(chain.from_iterable(run[::stride] for run in runs))
    step = max(CHUNK // stride, 1)
    taken = [0] * len(runs)
    for bound in [*sample[step::step], None]:
        stretch: list[float] = []
        for number, run in enumerate(runs):
            end = len(run) if bound is None else bisect_left(run, bound)
            stretch.extend(run[taken[number] : end])
            taken[number] = end
        stretch.sort()  # sorted runs: merged
        places.frombytes(_places_of(array("d", stretch)))
    return places


def _places_of(keys: array[float]) -> bytearray:
    """The places packed in ``keys`` (their low 24 bits), as the bytes of 8-byte ints."""
    raw = keys.tobytes()
    places = bytearray(len(raw))
    for at in _PLACE_BYTES:
        places[at::8] = raw[at::8]
    return places


def _durations(calls: CallColumns, start: int, stop: int) -> list[int | None] | None:
    """Each call's :attr:`~streamview.core.model.ToolCall.duration_ms` from place
    ``start`` to ``stop``: packed rows read from the columns
    (:func:`~streamview.core.call_reading.row_durations`), the calls that are objects
    asked. ``None`` when one is not an int from 0 to :data:`_LONGEST`."""
    packed = calls.packed
    end = max(min(stop, packed), start)
    found = row_durations(calls, start, end)
    overlay = [call for place, call in calls.overlay.items() if start <= place < end]
    for call in overlay:  # a stale row: the call says (its columns may hold anything)
        found[call.index - start] = call.duration_ms
    objects = [calls[place] for place in duration_odd_rows(calls) if start <= place < end]
    objects.extend(overlay)
    for place in range(max(start, packed), stop):
        call = calls.tail[place - packed]
        objects.append(call)
        found.append(call.duration_ms)
    for call in objects:
        duration = call.duration_ms
        if duration is not None and (
            duration.__class__ is not int or not 0 <= duration <= _LONGEST
        ):
            return None
    if max(filter(None, found), default=0) > _LONGEST:  # the rest are ints of the columns
        return None
    return found


def trouble_places(
    calls: CallColumns, shown: bytes | bytearray | None, rank_of: dict[str, int]
) -> array[int]:
    """The places of ``calls`` (those ``shown`` flags, or all), by ``rank_of`` their
    status (0 to 2; any other status 3), ties as they ran."""
    count = len(calls)
    ranks = row_flags(calls, ("status",), lambda status: rank_of.get(status, 3))
    ranks.extend(bytes(len(calls.tail)))
    for place, call in calls.overlay.items():
        ranks[place] = rank_of.get(call.status, 3)
    for place, call in enumerate(calls.tail, calls.packed):
        ranks[place] = rank_of.get(call.status, 3)
    if shown is not None:  # a row left out: rank 4 or more
        hidden = int.from_bytes(bytes(shown).translate(_LEFT_OUT), "little")
        ranks = bytearray((int.from_bytes(ranks, "little") | hidden).to_bytes(count, "little"))
    places = array("q")
    for rank in range(4):
        if ranks.count(rank):  # (most sessions: all but a few calls are of rank 3)
            places.extend(compress(range(count), ranks.translate(_IS[rank])))
    return places


_LEFT_OUT = bytes([4]).ljust(256, b"\0")
"""A row's flag (0 or 1) to what its rank is raised by: 4 when left out."""
_IS = [bytes(rank) + b"\1" + bytes(255 - rank) for rank in range(4)]
"""Each rank's table: 1 for that rank, else 0."""
