"""Columns of a packed table (:mod:`~streamview.core.call_columns`): strings as codes
into the strings seen, ints in 4- or 8-byte arrays, ``None`` where a row has none.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Any

from streamview.core.paged_array import PagedArray, widened

_WIDER = {"B": "H", "H": "i", "i": "q"}
_NONE_OF = {"i": -(1 << 31), "q": -(1 << 63)}
SHARED_STRINGS = 1 << 16
"""Distinct strings a column looks up to share (past it, new ones are kept as they come)."""


def _widen(values: Any, code: str) -> Any:
    return widened(values, code)


class CodeColumn:
    """A column of strings (or ``None``: code 0) as codes into the strings seen."""

    __slots__ = ("codes", "lookup", "values")

    def __init__(self) -> None:
        self.codes: Any = PagedArray("B")
        self.values: list[Any] = [None]
        self.lookup: dict[Any, int] = {}

    def code_of(self, value: Any) -> int:
        if value is None:
            return 0
        try:
            code = self.lookup.get(value)
        except TypeError:  # not a string (a dialect's odd value): kept as it is
            code = None
            hashable = False
        else:
            hashable = True
        if code is None:
            code = len(self.values)
            self.values.append(value)
            if hashable and len(self.lookup) < SHARED_STRINGS:
                self.lookup[value] = code
        return code

    def extend(self, row: int, values: Sequence[Any]) -> None:
        """Rows ``row`` on (the end of the column): ``values``."""
        if values.count(None) == len(values):  # a field no call has (most of them)
            codes = self.codes
            codes.frombytes(bytes(len(values) * codes.itemsize))
            return
        get = self.lookup.get
        try:
            found = [0 if value is None else get(value, -1) for value in values]
        except TypeError:
            found = [-1] * len(values)
        if -1 in found:
            code_of = self.code_of
            found = [
                code_of(value) if code < 0 else code
                for code, value in zip(found, values, strict=True)
            ]
        codes = self.codes
        while True:
            try:
                if codes.typecode == "B":
                    codes.frombytes(bytes(found))
                else:
                    codes.extend(array(codes.typecode, found))
                return
            except (OverflowError, ValueError):  # a code past the typecode's: wider
                codes = self.codes = _widen(codes, _WIDER[codes.typecode])

    def put(self, row: int, value: Any) -> None:
        code = self.code_of(value)
        codes = self.codes
        while True:
            try:
                if row == len(codes):
                    codes.append(code)
                else:
                    codes[row] = code
                return
            except OverflowError:
                codes = self.codes = _widen(codes, _WIDER[codes.typecode])

    def get(self, row: int) -> Any:
        return self.values[self.codes[row]]


class IntColumn:
    """A column of ints or ``None``, made only once a value is not ``None``: 4 bytes a
    row, 8 once one does not fit; anything else (a bool, a huge int) kept on the side."""

    __slots__ = ("none", "odd", "rows", "values")

    def __init__(self) -> None:
        self.values: Any = None
        self.none = _NONE_OF["i"]
        """What stands for ``None`` (or a value kept in :attr:`odd`) in :attr:`values`."""
        self.rows = 0
        self.odd: dict[int, Any] = {}

    def put(self, row: int, value: Any) -> None:
        values = self.values
        if values is None:
            if value is None:
                if row >= self.rows:
                    self.rows = row + 1
                return
            values = self.values = PagedArray("i", array("i", [self.none]) * self.rows)
        if value is None:
            self.odd.pop(row, None)
            stored = self.none
        elif value.__class__ is not int or value == self.none:
            self.odd[row] = value
            stored = self.none
        else:
            self.odd.pop(row, None)
            stored = value
        while True:
            try:
                if row < len(values):
                    values[row] = stored
                else:
                    if row > len(values):
                        values.extend(array(values.typecode, [self.none]) * (row - len(values)))
                    values.append(stored)
                break
            except OverflowError:
                if values.typecode == "q":  # past 64 bits: on the side
                    self.odd[row] = stored
                    stored = self.none
                    continue
                old, none = self.none, _NONE_OF["q"]
                self.none = none
                values = self.values = PagedArray("q", [none if v == old else v for v in values])
                if stored == old:
                    stored = none
                elif stored == none:
                    self.odd[row] = stored
        if row >= self.rows:
            self.rows = row + 1

    def extend(self, row: int, values: Sequence[Any]) -> None:
        """Rows ``row`` on (the end of the column): ``values``."""
        count = len(values)
        column = self.values
        if column is None and values.count(None) == count:
            self.rows = row + count
            return
        kinds = set(map(type, values))
        kinds.discard(type(None))
        if column is None:
            column = self.values = PagedArray("i", array("i", [self.none]) * self.rows)
        if kinds != {int} or self.none in values:
            for place, value in enumerate(values, row):
                self.put(place, value)
            return
        while True:
            none = self.none
            stored = values if None not in values else [none if v is None else v for v in values]
            try:
                column.extend(array(column.typecode, stored))
                break
            except OverflowError:
                if column.typecode == "q":  # past 64 bits: row by row, on the side
                    for place, value in enumerate(values, row):
                        self.put(place, value)
                    return
                self.none = _NONE_OF["q"]
                column = self.values = PagedArray(
                    "q", [self.none if v == none else v for v in column]
                )
                if self.none in values:
                    for place, value in enumerate(values, row):
                        self.put(place, value)
                    return
        self.rows = row + count

    def get(self, row: int) -> Any:
        values = self.values
        if values is None or row >= len(values):
            return None
        value = values[row]
        if value == self.none:
            return self.odd.get(row)
        return value
