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
_MINUTES_KEPT = 4096
_SECONDS = {f"{second:02d}.": second * 1_000_000 for second in range(60)}
"""A time's seconds and the dot after them, in that form, to microseconds."""
_MILLIS = {f"{ms:03d}Z": ms * 1000 for ms in range(1000)}
"""A time's last four characters in that form, to its microseconds past the second."""


_LAST: list[Any] = ["", 0]
"""The last time :func:`iso_ms` read from a known minute, and its epoch ms."""


def iso_ms(value: Any) -> int | None:
    """An ISO 8601 time (``2026-09-15T10:00:00.123Z``) as epoch ms, else ``None``.

    Gemini CLI and Copilot CLI stamp every record so (JavaScript's ``toISOString``): a
    minute already read is not parsed again, its seconds and milliseconds are added by
    the arithmetic ``datetime.timestamp`` does (microseconds over 10**6, a float, times
    1000), so the result is the same integer, in a fraction of the time. (A cache of
    whole seconds missed on every record of a run that stamps one a second.)
    """
    if value.__class__ is str and len(value) == 24:
        if value == _LAST[0]:  # a burst of records stamped in the same millisecond
            last: int = _LAST[1]
            return last
        minute = _MINUTES.get(value[:17])
        if minute is not None:
            second = _SECONDS.get(value[17:20])
            micros = _MILLIS.get(value[20:])
            if second is not None and micros is not None:
                found = int((minute + second + micros) / 1_000_000 * 1000)
                _LAST[:] = value, found
                return found
        result = _iso_ms(value)
        if result is not None and value[17:20] in _SECONDS and value[20:] in _MILLIS:
            whole = _iso_ms(value[:17] + "00Z")
            if whole is not None:
                if len(_MINUTES) >= _MINUTES_KEPT:
                    _MINUTES.clear()
                _MINUTES[value[:17]] = whole * 1000
        return result
    return _iso_ms(value)


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
