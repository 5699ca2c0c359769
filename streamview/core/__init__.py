"""The stream model: parsing, correlation and session state. No Textual, no Rich.

Standard library and orjson only, so the same fold serves the TUI, the plain printer
and the JSON summary, and can be tested without a terminal.
"""

from streamview.core.events import AnyEvent, MalformedLine, UnknownRecord
from streamview.core.parse import parse_line
from streamview.core.reader import EventReader, fold, iter_events
from streamview.core.state import Session, StreamState, ToolCall
from streamview.core.summary import summarize

__all__ = [
    "AnyEvent",
    "EventReader",
    "MalformedLine",
    "Session",
    "StreamState",
    "ToolCall",
    "UnknownRecord",
    "fold",
    "iter_events",
    "parse_line",
    "summarize",
]
