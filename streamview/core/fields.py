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


def iso_ms(value: Any) -> int | None:
    """An ISO 8601 time (``2026-09-15T10:00:00.123Z``) as epoch ms, else ``None``."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        return None


def common_fields(record: JSONObject) -> tuple[str | None, int | None]:
    """``(session_id, timestamp_ms)`` of a record, each ``None`` when absent or mistyped."""
    return as_str(record.get("session_id")), as_int(record.get("timestamp_ms"))
