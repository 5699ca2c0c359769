"""Reading loosely typed record fields: a string or nothing, an integer from whatever
the CLI wrote, an ISO time, and the session and time every record carries. Every
dialect reads its records' fields with these."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from streamview.core.events import JSONObject


def as_str(value: Any) -> str | None:
    """``value`` if it is a string."""
    return value if isinstance(value, str) else None


def as_int(value: Any) -> int | None:
    """An integer from an int, a float or a numeric string (``startedAtMs`` is a string)."""
    if value.__class__ is int or value is None:  # what most records hold: told first
        return value
    if value.__class__ is str and value.isdigit() and value.isascii():  # the usual string
        try:
            return int(value)
        except ValueError:  # more digits than int() converts
            return None
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 1e18 else None
    if isinstance(value, str) and value.isascii() and value.strip().lstrip("-").isdigit():
        try:
            return int(value)
        except ValueError:  # "--5", or more digits than int() converts
            return None
    return None


_MINUTES: dict[str, int] = {}
"""``YYYY-MM-DDTHH:MM:`` to its epoch microseconds, for each minute :func:`iso_ms` has
read in the agents' usual form (``...SS.mmmZ``)."""
_TENS: dict[str, int] = {}
"""``YYYY-MM-DDTHH:MM:S`` (a minute and the tens of its seconds) to its epoch
milliseconds, for each ten seconds :func:`iso_ms` has read in that form (between
:data:`_NEAR_FROM` and :data:`_NEAR_TO`)."""
_KEPT = 4096
"""Minutes, and tens of seconds, remembered at most (then forgotten all at once)."""
_EXACT = 2**53 - 10**9
"""Epoch microseconds below this (in size: the years 1685 to 2255) are exact floats, and
so is the sum of a minute's and the rest's: a time outside is parsed each time."""
_NEAR_FROM = 2**40 * 1000
"""The ten seconds :data:`_TENS` keeps start between this and :data:`_NEAR_TO`, in epoch
microseconds (2004-11-03 to 2038-01-19). In that span ``datetime``'s arithmetic gives the exact
millisecond, so a table's integers can be added instead: for ``S`` microseconds,
``S / 10**6`` is a float in [2**30, 2**31), within 2**-23 of the quotient; times 1000 it
is within 1000 * 2**-23 < 2**-13 of ``S / 1000``, and rounding to a float in [2**40,
2**41) (half a step: 2**-13) keeps it within 2.5e-4. A whole millisecond is then the
nearest float, itself; any other ``S / 1000`` is at least 1e-3 from an integer, so
``int()`` truncates it to ``S // 1000``. Below 2**40 ms a product can round to the float
under a whole millisecond (the 2004 times of ``tests/core/test_fields.py``), and from
2**31 s, times 1000 can stray up to 2**-12."""
_NEAR_TO = 2**31 * 1_000_000 - 10_000_000
"""The last ten seconds :data:`_TENS` keeps start here (see :data:`_NEAR_FROM`)."""
_SECONDS = {f"{second:02d}.": second * 1_000_000 for second in range(60)}
"""A time's seconds and the dot after them, in that form, to microseconds."""
_MILLIS = {f"{ms:03d}Z": ms * 1000 for ms in range(1000)}
"""A time's last four characters in that form, to its microseconds past the second."""
_TEN_SECONDS = {str(tens): tens * 10_000_000 for tens in range(6)}
"""The tens digit of a time's seconds to microseconds."""
_PAST: dict[str, int] = {}
"""``S.mmmZ`` (a time's last six characters in that form: the units of its seconds and
its milliseconds) to milliseconds past its ten seconds, as read (10,000 at most)."""
TENS_MS = _TENS
PAST_MS = _PAST
"""The two tables, for a dialect's hottest path to read as :func:`iso_ms` first does
(``TENS_MS[value[:18]] + PAST_MS[value[18:]]``, any miss or ``TypeError`` then asking
:func:`iso_ms`): an entry is the exact result, and they are only ever cleared."""


def iso_ms(value: Any) -> int | None:
    """An ISO 8601 time (``2026-09-15T10:00:00.123Z``) as epoch ms, else ``None``.

    Gemini CLI and Copilot CLI stamp every record so (JavaScript's ``toISOString``), and
    Claude's, Codex's and Gemini's session files, Pi's: the ten seconds a time falls in
    (its first 18 characters) and the rest (6) are each looked up once read, and their
    milliseconds added: the same integer as ``int(datetime.timestamp() * 1000)`` for a
    time of the years 2004 to 2038 (see :data:`_NEAR_FROM`), in a fraction of the time
    (two slices and two lookups: no float, no ``int()``, which cost as much as the
    lookups). Anything not a string fails the lookups with ``TypeError`` (a number,
    ``None``, a list or an object cannot be sliced or hashed so), no test first.
    """
    try:
        return _TENS[value[:18]] + _PAST[value[18:]]
    except (KeyError, TypeError):
        pass
    if value.__class__ is str and len(value) == 24:
        return _learn(value)
    return _iso_ms(value)


def _learn(value: str) -> int | None:
    """:func:`iso_ms` of a 24-character time not in its tables: its rest added to its
    ten seconds if they were read, else from its minute if that was (by ``datetime``'s
    arithmetic: microseconds over 10**6, a float, times 1000), else parsed in full; its
    ten seconds and the rest remembered when near (see :data:`_NEAR_FROM`)."""
    second = _SECONDS.get(value[17:20])
    micros = _MILLIS.get(value[20:])
    if second is None or micros is None:
        return _iso_ms(value)
    near = _TENS.get(value[:18])
    if near is not None:  # a rest not read before, in a ten seconds read before
        past = _PAST[value[18:]] = (second - _TEN_SECONDS[value[17]] + micros) // 1000
        return near + past
    minute = _MINUTES.get(value[:17])
    if minute is None:
        result = _iso_ms(value)
        whole = None if result is None else _iso_ms(value[:17] + "00Z")
        if whole is None or not -_EXACT < whole * 1000 < _EXACT:
            return result
        if len(_MINUTES) >= _KEPT:
            _MINUTES.clear()
        minute = _MINUTES[value[:17]] = whole * 1000
    else:
        result = int((minute + second + micros) / 1_000_000 * 1000)
    tens = minute + _TEN_SECONDS[value[17]]
    if _NEAR_FROM <= tens <= _NEAR_TO:
        if len(_TENS) >= _KEPT:
            _TENS.clear()
        _TENS[value[:18]] = tens // 1000
        _PAST[value[18:]] = (minute + second + micros - tens) // 1000
    return result


def _iso_ms(value: Any) -> int | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        return None


def common_fields(record: JSONObject) -> tuple[str | None, int | None]:
    """``(session_id, timestamp_ms)`` of a record, each ``None`` when absent or mistyped."""
    return as_str(record.get("session_id")), as_int(record.get("timestamp_ms"))
