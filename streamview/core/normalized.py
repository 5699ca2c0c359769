"""The normalized events of ``streamview --events`` and :func:`streamview.read_events`.

One vocabulary for every agent streamview reads: a program that drives Cursor, Claude
Code, Codex or Gemini CLI (or any dialect added later) reads the same events, built by
the same fold as the viewer, ``--print`` and ``--json``
(:mod:`streamview.core.normalizer`). Each event is a frozen :mod:`msgspec` struct
whose ``type`` field names it; its JSON form is one line of ``--events`` output.

The contract, version :data:`VERSION` (the ``v`` of every event; the README's
"Normalized events" section says it in full):

- every event has ``type``, ``v``, ``line`` (the input line it comes from, ``null``
  for one streamview adds) and ``time_ms`` (epoch ms, the record's own time or its
  arrival time, ``null`` when unknown); events of a session also have ``session``,
  its 0-based index;
- every field is always present: an unknown value is ``null``;
- the first event is ``stream.start`` and the last ``stream.end``;
- within version 1, event types and fields may be added, never removed or changed in
  meaning: a consumer ignores a type or field it does not know.

:data:`SCHEMA_PATH` is the JSON Schema of every event, shipped in the package; it is
generated from these structs (:func:`events_schema`).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, Literal

import msgspec

# The kinds, kept apart for --json's summary (which needs no event struct): named here too.
from streamview.core.shared_kinds import SharedKind as SharedKind
from streamview.core.shared_kinds import shared_kind as shared_kind

VERSION: Literal[1] = 1
"""The version of the event contract, written as ``v`` on every event."""

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "schema" / "events.v1.json"
"""The JSON Schema of version 1's events, as shipped in the package."""

SCHEMA_ID = "urn:streamview:schema:events:v1"
"""The schema's ``$id``: a name, not a place (the file is in the package)."""

ToolStatus = Literal["succeeded", "failed", "rejected", "error", "completed", "interrupted"]
OutcomeStatus = Literal["success", "error", "incomplete"]


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", gc=False):
    """Fields every event has."""

    v: Literal[1] = VERSION
    """The contract's version."""
    line: int | None
    """1-based input line the event comes from; ``null`` for one streamview adds."""
    time_ms: int | None
    """When it happened (epoch ms): the record's time, else its arrival time, if known."""

    @property
    def type(self) -> str:
        """The event's type (``tool.end``...): its tag, as ``--events`` writes it."""
        return str(self.__struct_config__.tag)


class _SessionEvent(_Event, frozen=True, kw_only=True):
    """Fields every event of a session has."""

    session: int
    """0-based index of the session (one run of the agent) in the input."""


class StreamStart(_Event, frozen=True, kw_only=True, tag="stream.start"):
    """The first event: the stream of events begins (before any input is read)."""

    agent: str | None
    """The agent the input is read as when it was forced (``--agent``), else ``null``."""


class SessionStart(_SessionEvent, frozen=True, kw_only=True, tag="session.start"):
    """A session (one run of the agent) begins; what is known of it so far."""

    session_id: str | None
    agent: str | None
    """The dialect's name: ``cursor``, ``claude``, ``codex``, ``gemini``..."""
    model: str | None
    cwd: str | None
    permission_mode: str | None


class SessionUpdate(_SessionEvent, frozen=True, kw_only=True, tag="session.update"):
    """Something :class:`SessionStart` said changed or became known (all fields again)."""

    session_id: str | None
    agent: str | None
    model: str | None
    cwd: str | None
    permission_mode: str | None


class Prompt(_SessionEvent, frozen=True, kw_only=True, tag="prompt"):
    """The prompt the agent was given."""

    text: str


class TextDelta(_SessionEvent, frozen=True, kw_only=True, tag="text.delta"):
    """Text appended to a block of the assistant's answer."""

    block: int
    """The block's 0-based index in the session's transcript."""
    text: str


class TextDone(_SessionEvent, frozen=True, kw_only=True, tag="text.done"):
    """A block of the answer is complete: its whole text."""

    block: int
    text: str
    corrected: bool
    """The agent replaced what its deltas said: ``text`` is not their concatenation."""


class ThinkingDelta(_SessionEvent, frozen=True, kw_only=True, tag="thinking.delta"):
    """Text appended to a block of the model's reasoning."""

    block: int
    text: str


class ThinkingDone(_SessionEvent, frozen=True, kw_only=True, tag="thinking.done"):
    """A block of reasoning is complete: its whole text."""

    block: int
    text: str
    corrected: bool


class ToolStart(_SessionEvent, frozen=True, kw_only=True, tag="tool.start"):
    """A tool call starts."""

    call: int
    """The call's 0-based index in the session (first-seen order)."""
    call_id: str
    kind: SharedKind
    name: str
    """The tool as streamview names it (``--json``'s ``name``): ``shell``, ``ls``, or
    the agent's own name for a tool streamview does not map."""
    target: str | None
    """What it acts on: a path, a command, a URL, a pattern..."""
    parent_call_id: str | None
    """The subagent call it was made under, if any."""


class ToolEnd(_SessionEvent, frozen=True, kw_only=True, tag="tool.end"):
    """A tool call finished (or never will: ``interrupted`` at the end of its session)."""

    call: int
    call_id: str
    kind: SharedKind
    name: str
    target: str | None
    parent_call_id: str | None
    status: ToolStatus
    summary: str | None
    """One line saying what it gave (``42 lines``, ``exit 1``...)."""
    duration_ms: int | None


class Notice(_SessionEvent, frozen=True, kw_only=True, tag="notice"):
    """The agent lost its backend, reconnects or retries."""

    notice: str
    """``connection`` or ``retry``."""
    subtype: str
    attempt: int | None
    detail: str | None


class Usage(_SessionEvent, frozen=True, kw_only=True, tag="usage"):
    """What the run (or turn) used, where the agent says; just before its ``outcome``."""

    input_tokens: int | None
    output_tokens: int | None
    cache_read_tokens: int | None
    cache_write_tokens: int | None
    reasoning_tokens: int | None
    cost_usd: float | None
    raw: dict[str, Any] | None
    """The usage object as the agent gave it (key names vary by agent)."""


class Outcome(_SessionEvent, frozen=True, kw_only=True, tag="outcome"):
    """How a session (or one turn of it) ended."""

    status: OutcomeStatus
    """``incomplete``: the session ended (input over, or a new one began) without result."""
    subtype: str | None
    """The agent's own word for it (``success``, ``error_max_turns``...)."""
    duration_ms: int | None
    num_turns: int | None
    cost_usd: float | None
    message: str | None
    """An error's own message."""
    result: str | None
    """The final answer as the agent's result record gives it, if it does."""


class Unknown(_SessionEvent, frozen=True, kw_only=True, tag="unknown"):
    """A JSON record streamview does not know (kept in the input, at ``line``)."""

    record_type: str
    subtype: str | None


class Malformed(_Event, frozen=True, kw_only=True, tag="malformed"):
    """A line that is not a JSON object with a ``type``."""

    reason: str
    raw: str
    """The line as text (invalid UTF-8 replaced), at most :data:`RAW_LIMIT` characters."""
    raw_size: int
    """The whole line's size in bytes."""


class ProcessExit(_Event, frozen=True, kw_only=True, tag="process.exit"):
    """``streamview run``: how the agent's process ended."""

    exit_code: int | None
    """Its exit status (128 + N when killed by signal N); ``null`` if unknown."""
    interrupted: bool
    """streamview signalled it (Ctrl+C, or it ran on after its result)."""
    lingered: bool
    """It was still running after its result, and was stopped."""
    stderr: str
    """The end of what it wrote on stderr."""


class LineCounts(msgspec.Struct, frozen=True, kw_only=True):
    """Every non-blank input line is exactly one of events, malformed or unknown."""

    total: int
    events: int
    malformed: int
    unknown: int
    blank: int


class StreamEnd(_Event, frozen=True, kw_only=True, tag="stream.end"):
    """The last event: the input ended; the exit status streamview returns."""

    lines: LineCounts
    sessions: int
    exit_code: int
    """0 the last session succeeded; 1 it failed or had no result; 2 the input could not
    be read (or was empty); in ``run`` mode the agent's own status when it failed."""
    error: str | None
    """Why the input could not be read to its end, if it could not."""


NormalizedEvent = (
    StreamStart
    | SessionStart
    | SessionUpdate
    | Prompt
    | TextDelta
    | TextDone
    | ThinkingDelta
    | ThinkingDone
    | ToolStart
    | ToolEnd
    | Notice
    | Usage
    | Outcome
    | Unknown
    | Malformed
    | ProcessExit
    | StreamEnd
)
"""Any normalized event."""

RAW_LIMIT = 4096
"""Characters of a malformed line a :class:`Malformed` event carries."""


def events_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of every event, as :data:`SCHEMA_PATH` holds it.

    msgspec's schema of :data:`NormalizedEvent`, with every field required (``--events``
    writes every field, ``null`` when unknown) and the contract's identity added.
    """
    generated: dict[str, Any] = msgspec.json.schema(NormalizedEvent)
    described = _field_docstrings()
    for name, definition in generated.get("$defs", {}).items():
        properties = definition.get("properties")
        if properties is None:
            continue
        definition["required"] = list(properties)
        for field, text in described.get(name, {}).items():
            if field in properties:
                properties[field]["description"] = text
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "streamview normalized events, version 1",
        "description": "One line of `streamview --events` (one event of "
        "streamview.read_events). See the README's 'Normalized events' section.",
        **generated,
    }


def _field_docstrings() -> dict[str, dict[str, str]]:
    """Each struct's fields' docstrings (the string under a field), base classes' included."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    own: dict[str, dict[str, str]] = {}
    bases: dict[str, list[str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        bases[node.name] = [base.id for base in node.bases if isinstance(base, ast.Name)]
        fields: dict[str, str] = {}
        for first, second in zip(node.body, node.body[1:], strict=False):
            if (
                isinstance(first, ast.AnnAssign)
                and isinstance(first.target, ast.Name)
                and isinstance(second, ast.Expr)
                and isinstance(second.value, ast.Constant)
                and isinstance(second.value.value, str)
            ):
                fields[first.target.id] = " ".join(second.value.value.split())
        own[node.name] = fields

    def merged(name: str) -> dict[str, str]:
        result: dict[str, str] = {}
        for base in bases.get(name, []):
            result.update(merged(base))
        result.update(own.get(name, {}))
        return result

    return {name: merged(name) for name in own}
