"""What a tool kind's view is, and the small readers every view shares.

A view turns one kind of call's arguments and result payload into titled
:class:`~streamview.ui.details.sections.Section` objects. The registry
(:mod:`streamview.ui.details.views`) maps each kind of :mod:`streamview.core.tools` to one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from streamview.ui.details.sections import Section

ResultView = Callable[[dict[str, Any], dict[str, Any], bool], list[Section]]
"""``(args, payload, full)`` to the sections of a ``success`` or ``failure`` result;
``full`` asks for every line of big texts."""


@dataclass(frozen=True, slots=True)
class ToolView:
    """How the detail screen shows one kind of tool call."""

    result: ResultView
    """The sections of a ``success`` or ``failure`` result."""
    big_arg: str | None = None
    """An argument holding a whole text or list shown with the result: the arguments
    table only gives its size."""
    main_args: tuple[str, ...] | None = None
    """When given, only these arguments are listed; the rest is bookkeeping, named."""


def as_int(value: Any) -> int | None:
    """``value`` as an integer if it is one (or a string of digits), else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def as_str(value: Any) -> str | None:
    """``value`` if it is a string, else ``None``."""
    return value if isinstance(value, str) else None


def size_text(value: Any) -> str | None:
    """A byte count for people (``12.3 KiB``), ``None`` if ``value`` is no count."""
    size = as_int(value)
    if size is None:
        return None
    if size < 1024:
        return f"{size:,} bytes"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KiB"
    return f"{size / 1024 / 1024:.1f} MiB"
