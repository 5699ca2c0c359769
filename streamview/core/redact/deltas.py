"""Secrets streamed in pieces: a key cut over consecutive delta lines (Claude Code's
``stream_event`` text deltas, Cursor's assistant deltas, Gemini's ``delta`` messages)
is in no single line, so the line redactor alone lets it through.

Agent-agnostic: a *delta run* is consecutive JSON lines of one shape (the same paths to
their strings) whose strings are all short. The run's last lines are held back (at most
:data:`HOLD_LINES`, and the source releases them after :data:`HOLD_SECONDS`), the values
at each path that varies are joined (after the tail of what was already let through)
and scanned; a secret crossing pieces has its first held piece carry the marker and its
other held pieces lose their part of it, so each line stays valid JSON of its shape.
"""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core.redact.redactor import Redactor, marker

HOLD_LINES = 128
"""The most delta lines held back; half of them are let through at a time, so a secret
starting in the half let through has the other half (64 pieces) to end in."""

HOLD_SECONDS = 0.25
"""The longest a held delta line waits for the next one (live viewing still flows)."""

DELTA_CHARS = 256
"""A line with a longer string is no delta: it ends the run."""

CONTEXT_CHARS = 256
"""How much already let-through text a later piece's scan starts with."""

Path = tuple[str | int, ...]


def _leaves(value: Any, path: Path, out: list[tuple[Path, str]]) -> None:
    if isinstance(value, str):
        out.append((path, value))
    elif isinstance(value, dict):
        for key, item in value.items():
            _leaves(item, (*path, key), out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _leaves(item, (*path, index), out)


def _set(value: Any, path: Path, text: str) -> None:
    for step in path[:-1]:
        value = value[step]
    value[path[-1]] = text


class _Held:
    __slots__ = ("decoded", "ending", "leaves", "raw")

    def __init__(self, raw: bytes, ending: bytes, decoded: Any, leaves: dict[Path, str]):
        self.raw = raw
        self.ending = ending
        self.decoded = decoded
        self.leaves = leaves


class DeltaJoiner:
    """Holds back the last lines of a delta run and redacts secrets across them."""

    def __init__(self, redactor: Redactor) -> None:
        self.redactor = redactor
        self._shape: tuple[Path, ...] | None = None
        self._held: list[_Held] = []
        self._context: dict[Path, str] = {}

    @property
    def holding(self) -> bool:
        """Whether lines are held back."""
        return bool(self._held)

    def line(self, line: bytes, ending: bytes) -> list[bytes]:
        """The lines (each with its ending) let through now that ``line`` came."""
        leaves = _delta_leaves(line)
        if leaves is None:
            out = self.flush()
            out.append(self.redactor.line(line) + ending)
            return out
        decoded, found = leaves
        shape = tuple(path for path, _ in found)
        out = []
        if shape != self._shape:
            out = self.flush()
            self._shape = shape
        self._held.append(_Held(line, ending, decoded, dict(found)))
        if len(self._held) >= HOLD_LINES:
            out.extend(self._release(HOLD_LINES // 2))
        return out

    def release(self) -> list[bytes]:
        """Every held line, redacted; the run goes on (a later piece of a secret begun
        in them is still cut, from what they said)."""
        return self._release(len(self._held))

    def flush(self) -> list[bytes]:
        """Every held line, redacted; the run ends."""
        out = self._release(len(self._held))
        self._shape = None
        self._context = {}
        return out

    def _release(self, count: int) -> list[bytes]:
        """The first ``count`` held lines, redacted across the whole hold."""
        if not count:
            return []
        held = self._held
        cuts: list[dict[Path, list[tuple[int, int, str]]]] = [{} for _ in held]
        for path in held[0].leaves:
            values = [h.leaves[path] for h in held]
            context = self._context.get(path, "")
            if len(set(values)) > 1 or (context and len(values) > 0):
                self._across(context, values, path, cuts)
        out = []
        for index in range(count):
            h = held[index]
            if cuts[index]:
                for path, ranges in cuts[index].items():
                    _set(h.decoded, path, _cut(h.leaves[path], ranges))
                out.append(orjson.dumps(self.redactor.value(h.decoded)) + h.ending)
            else:
                out.append(self.redactor.line(h.raw) + h.ending)
        for h in held[:count]:
            for path, text in h.leaves.items():
                self._context[path] = (self._context.get(path, "") + text)[-CONTEXT_CHARS:]
        del held[:count]  # the rest is scanned again, from its own text, next time
        return out

    def _across(
        self,
        context: str,
        values: list[str],
        path: Path,
        cuts: list[dict[Path, list[tuple[int, int, str]]]],
    ) -> None:
        """The cuts of the secrets that cross pieces of ``values`` at ``path``."""
        starts = []
        position = len(context)
        for value in values:
            starts.append(position)
            position += len(value)
        for start, end, kind in self.redactor.spans(context + "".join(values)):
            pieces = [i for i, s in enumerate(starts) if s < end and s + len(values[i]) > start]
            if not pieces or len(pieces) + (start < len(context)) < 2:
                continue  # within one piece: the line redactor finds it there
            for n, i in enumerate(pieces):
                s = starts[i]
                local = (max(start - s, 0), min(end - s, len(values[i])))
                cuts[i].setdefault(path, []).append((*local, kind if n == 0 else ""))
            self.redactor.counts[kind] += 1


def _cut(text: str, ranges: list[tuple[int, int, str]]) -> str:
    """``text`` with each range replaced by its kind's marker (or nothing)."""
    out = []
    position = 0
    for start, end, kind in sorted(ranges):
        if start < position:
            start = position
        out.append(text[position:start])
        out.append(marker(kind) if kind else "")
        position = max(position, end)
    out.append(text[position:])
    return "".join(out)


def _delta_leaves(line: bytes) -> tuple[Any, list[tuple[Path, str]]] | None:
    """A line that may be a delta: a JSON object whose strings are all short."""
    if not line.startswith(b"{") or len(line) > 8 * DELTA_CHARS:
        return None
    try:
        decoded = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    found: list[tuple[Path, str]] = []
    _leaves(decoded, (), found)
    if not found or any(len(text) > DELTA_CHARS for _, text in found):
        return None
    return decoded, found
