"""What a dialect is: one agent's stream format, turned into streamview's events.

The fold (:mod:`streamview.core.state`), the printer, the ``--json`` summary and the UI
know only the events of :mod:`streamview.core.events`. A dialect turns one agent's
decoded records into those events, so adding an agent is one module, its fixtures and
one line in the registry (:mod:`streamview.core.dialects`).

Tool calls are normalised into the kinds :mod:`streamview.core.tools` knows (``read``,
``write``, ``edit``, ``shell``, ``grep``, ``glob``, ``ls``, ``webFetch``, ``webSearch``,
``mcp``, ``updateTodos``, ``task``...), with arguments and results in the shapes those
kinds already have for Cursor, so every view renders every agent's calls the same way.
A tool nobody maps keeps its own name and its raw JSON.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import msgspec

from streamview.core.events import AnyEvent, JSONObject
from streamview.core.fast_path import FastRecord


class Translator(Protocol):
    """Turns one stream's records into events, keeping what pairing needs.

    One translator reads one stream from its start: it may remember what earlier
    records said (a tool's name by its id, the session id, the model).

    A translator may also have ``fast_line(data, line)``: :meth:`fast` for a line
    not yet decoded, with a typed decoder that reads only what the hot records need
    (Cursor's, :mod:`streamview.core.dialects.cursor_fast`). It returns what
    ``fast(orjson.loads(data), line)`` would, or ``None`` to have the line decoded
    in full.

    A translator may also have ``end(line, recv_ms)``: the events the end of input
    stands for (an outcome it held back until it knew no more records follow), given
    the last line's number.

    A translator may also have ``plain(text, line, recv_ms)``: the events a line that
    is not JSON stands for in its agent's stream (Kimi prints why it gave up as a
    plain line), or ``None``/``[]`` for a malformed line.

    Its class may declare ``REPEATED_RESULT``: what a second result for a call that
    already ended means (:mod:`streamview.core.repeated_results`).
    """

    def translate(self, record: JSONObject, line: int, recv_ms: int | None) -> list[AnyEvent]:
        """The events one decoded record stands for, in order. Never raises.

        Args:
            record: The decoded line (a JSON object).
            line: Its 1-based line number: every event it yields carries it.
            recv_ms: Arrival time stamped by a live source, if any.

        Returns:
            One or more events; a record the dialect does not know becomes an
            :class:`~streamview.core.events.UnknownRecord`, never nothing.
        """
        ...

    def fast(self, record: JSONObject, line: int) -> FastRecord | None:
        """The record taken apart for :meth:`StreamState.apply_fast`, if it is one of
        the stream's hot records (a text or thinking delta); else ``None``.

        Most of a long run is deltas; the fold applies them without building an
        event. Returning a value must change the translator exactly as
        :meth:`translate` would, and the state must end as the record's one event
        would leave it (``tests/core/test_fast_fold.py``). ``None`` changes nothing:
        the record then goes through :meth:`translate`.

        Args:
            record: The decoded line, still holding its arrival stamp, if any.
            line: Its 1-based line number.
        """
        ...


class Dialect(msgspec.Struct, frozen=True):
    """One agent's stream format."""

    name: str
    """Short name, as ``--agent`` takes it and ``--json`` reports it (``claude``)."""
    label: str
    """What the header shows (``Claude Code``)."""
    detect: Callable[[JSONObject], bool]
    """True when a record (one of the stream's first) is unmistakably this agent's."""
    translator: Callable[[], Translator]
    """A fresh translator, for one stream read from its start."""
    no_final_record: str | None = None
    """How its runs end, when not with a final record (most agents print one: a
    ``result``, ``turn.completed``...): the words said of a run that ended without one
    (``Kimi prints no final record``). Such a run is judged by its last turn (an answer
    after the last tool result, no call open: a success; else cut mid-turn), and in
    ``streamview run`` by the agent's exit. Its translator puts these words on the
    ``SessionStarted`` it gives, so the fold never asks which agent it reads."""
