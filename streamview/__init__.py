"""streamview: watch, replay and understand headless coding agents' stream-json runs.

The version below is the only place it is written (pyproject.toml reads it).

From Python, :func:`read_events` reads any agent's stream as normalized events (the
events of ``streamview --events``; see :mod:`streamview.fronts.events_api`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from streamview.fronts.events_api import read_events

__version__ = "0.1.0"

__all__ = ["__version__", "read_events"]


def __getattr__(name: str) -> Any:
    """``read_events`` is imported when first used: ``import streamview`` (every command
    does) stays as cheap as it was."""
    if name == "read_events":
        from streamview.fronts.events_api import read_events

        return read_events
    raise AttributeError(f"module 'streamview' has no attribute {name!r}")
