"""Every agent streamview reads, and which one a stream is.

One line per agent in :data:`REGISTRY`. A stream's dialect is recognised from its first
records (:func:`detect`), or forced (``--agent``, :func:`by_name`). The fold, the
printer, the ``--json`` summary and the UI know only events; see
:mod:`streamview.core.dialects.base`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import import_module
from typing import Any

from streamview.core.dialects import claude_session_lines, cursor
from streamview.core.dialects.base import Dialect, Translator
from streamview.core.dialects.lines import CallReparser, translate_line
from streamview.core.events import JSONObject

REGISTRY: tuple[tuple[str, str], ...] = (
    ("cursor", "cursor"),
    ("claude-session", "claude_session"),
    ("codex-session", "codex_session"),
    ("amp", "amp"),
    ("qwen", "qwen"),
    ("droid", "droid"),
    ("claude", "claude"),
    ("codex", "codex"),
    ("gemini", "gemini"),
    ("opencode", "opencode"),
    ("kilo", "opencode:KILO_DIALECT"),
    ("copilot", "copilot"),
    ("goose", "goose"),
    ("cline", "cline"),
    ("kimi", "kimi"),
    ("pi", "pi"),
    ("gemini-session", "gemini_session"),
    ("opencode-session", "opencode_session"),
    ("cursor-transcript", "cursor_transcript"),
)
"""Every dialect: its name, and where it is (``module`` or ``module:ATTRIBUTE``), in the
order detection asks them: Amp, Qwen Code and Droid print Claude Code's ``system/init``
and are asked before it. The agents' interactive session files (:data:`SESSION_FILES`)
are dialects like any other (recognised without ``--agent``, which takes them too, and
read by ``--print``, ``--json``, ``--events`` and the exports): Claude Code's and
Codex's are asked before the headless dialects whose records theirs resemble, Gemini
CLI's, opencode's and Cursor's last (theirs resemble nobody's, and a headless stream
must never be taken for one).

A dialect's module is imported when it is first asked for: a Cursor file opens without
the thirteen others (issue 21.12). ``tests/core/dialects/test_registry.py`` checks that
every name here is its dialect's own."""

SESSION_FILES: tuple[str, ...] = (
    "claude-session",
    "codex-session",
    "gemini-session",
    "opencode-session",
    "cursor-transcript",
)
"""The dialects of the files agents keep of their interactive sessions (issue 27), not
of a headless stream. They are in :data:`REGISTRY` as every dialect is; this list is for
what only a headless stream has: the agents named in ``--help`` (a session file is no
agent of its own), and the guards that want a showcase snapshot, a piped tmux run and a
bench generator per headless agent. A session format's own tests are
``tests/core/dialects/test_*_session*.py`` and ``tests/cli/test_session_*.py``."""

_loaded: dict[str, Dialect] = {cursor.NAME: cursor.DIALECT}


def _dialect(name: str, where: str) -> Dialect:
    """The dialect listed as ``name`` at ``where``, imported on first use."""
    found = _loaded.get(name)
    if found is None:
        module, _, attribute = where.partition(":")
        found = getattr(import_module(f"{__name__}.{module}"), attribute or "DIALECT")
        _loaded[name] = found
    return found


def every_dialect() -> tuple[Dialect, ...]:
    """Every dialect, in detection order (this imports them all)."""
    return tuple(_dialect(name, where) for name, where in REGISTRY)


def __getattr__(name: str) -> Any:
    if name == "DIALECTS":  # kept for readers of the registry; imports every dialect
        return every_dialect()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


DEFAULT = cursor.DIALECT
"""The dialect of a stream nobody recognises: streamview's history is Cursor's."""

AUTO = "auto"
"""What ``--agent`` takes to mean "recognise it from the stream" (the default)."""

DETECT_WINDOW = 8
"""Non-blank lines read before giving up on recognising a stream (it is then Cursor's)."""


def names() -> list[str]:
    """The names ``--agent`` takes: every dialect's, then ``auto``."""
    return [name for name, _ in REGISTRY] + [AUTO]


def by_name(name: str | None) -> Dialect | None:
    """The dialect called ``name``; ``None`` for ``auto``, ``None`` or a name nobody has."""
    for listed, where in REGISTRY:
        if listed == name:
            return _dialect(listed, where)
    return None


def label_of(name: str | None) -> str | None:
    """What the header calls an agent (``Claude Code`` for ``claude``), if it is known."""
    dialect = by_name(name)
    return dialect.label if dialect is not None else None


_OPENCODE_TYPES = frozenset(
    {"step_start", "step_finish", "text", "reasoning", "tool_use", "error", "done"}
)
ASKED_FOR: dict[str, frozenset[str]] = {
    "claude-session": claude_session_lines.ABOUT | claude_session_lines.CHAIN,
    "codex-session": frozenset(
        {"session_meta", "turn_context", "response_item", "event_msg", "compacted"}
    ),
    "amp": frozenset({"system", "user", "assistant", "result"}),
    "qwen": frozenset({"system", "assistant", "stream_event"}),
    "droid": frozenset({"system", "tool_call", "tool_result", "completion"}),
    "claude": frozenset(
        {
            "system",
            "stream_event",
            "assistant",
            "user",
            "rate_limit_event",
            "active_goal",
            "autocompact_state",
            "compact_progress",
            "tool_progress",
            "tool_use_summary",
            "auth_status",
            "prompt_suggestion",
            "keep_alive",
            "control_request",
            "control_response",
            "control_cancel_request",
            "transcript_mirror",
            "conversation_reset",
            "tombstone",
            "attachment",
            "os_notification",
            "api_metrics",
            "stream_mode",
            "response_length",
            "set_in_progress_tool_use_ids",
            "interruptible_tool_in_progress",
            "hint_clears",
            "command_lifecycle",
            "apply_flag_settings",
            "set_expanded_view",
            "open_message_selector",
            "refusal_continuation",
        }
    ),
    "codex": frozenset({"thread.started", "turn.started", "turn.completed", "turn.failed"}),
    "gemini": frozenset({"init", "message", "tool_use", "tool_result", "result"}),
    "opencode": _OPENCODE_TYPES,
    "kilo": _OPENCODE_TYPES,
    "copilot": frozenset({"result"}),
    "goose": frozenset({"message", "complete", "notification"}),
    "cline": frozenset({"task_started", "say", "ask"}),
}
"""For these dialects, every ``type`` their ``detect`` can accept (Codex's ``item.*``
and Copilot's dotted types aside: :data:`ASKED_FOR_ALSO`): a record of any other type is
not theirs, and :func:`recognise` does not import their module to ask. Recognising a
Gemini CLI stream imported seven dialects' modules first (~6 ms of every ``--json``
run's start, issue 30.8); a Kimi CLI or pi stream imported Cline's three.
``tests/core/dialects/test_recognise_types.py`` holds each set to its dialect's own
lists and checks every fixture is recognised as when every dialect is asked."""

ASKED_FOR_ALSO: dict[str, Callable[[str, JSONObject], bool]] = {
    "codex": lambda kind, _: kind.startswith("item."),
    "copilot": lambda kind, _: "." in kind,  # its session events' dotted types
    # Droid's message and reasoning hold a text (Goose's and Gemini CLI's messages none).
    "droid": lambda kind, record: kind in ("message", "reasoning") and "text" in record,
}
"""The records a listed dialect's ``detect`` accepts beyond its set of types."""


def _amp_thread(kind: str, record: JSONObject) -> bool:
    """Whether Amp's ``detect`` can accept ``record``: an ``assistant``, or a thread id."""
    sid = record.get("session_id")
    return kind == "assistant" or (isinstance(sid, str) and sid.startswith("T-") and len(sid) > 10)


def _qwen_own(kind: str, record: JSONObject) -> bool:
    """Whether Qwen's ``detect`` can accept ``record``: a ``system`` record with a field
    spelt Qwen's way, a ``stream_event`` of Qwen's own, an ``assistant`` using a tool."""
    if kind == "system":
        return "qwen_code_version" in record or "permission_mode" in record
    if kind == "stream_event":
        event = record.get("event")
        # A tuple: ``in`` compares, so an unhashable type cannot raise here.
        return isinstance(event, dict) and event.get("type") in QWEN_STREAM_EVENTS
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return isinstance(content, list) and any(
        isinstance(block, dict) and block.get("type") == "tool_use" for block in content
    )


QWEN_STREAM_EVENTS = ("goal_state", "active_goal")
"""The ``stream_event``s only Qwen Code prints (``qwen._OWN_STREAM_EVENTS``)."""


def _droid_init(kind: str, record: JSONObject) -> bool:
    """Whether Droid's ``detect`` can accept a ``system`` record: one naming its
    reasoning effort or its ``Execute`` tool (its other types are all its own)."""
    if kind != "system":
        return True
    listed = record.get("tools")
    return "reasoning_effort" in record or (isinstance(listed, list) and "Execute" in listed)


ASKED_ONLY_IF: dict[str, Callable[[str, JSONObject], bool]] = {
    "amp": _amp_thread,
    "qwen": _qwen_own,
    "droid": _droid_init,
}
"""What a record of a listed type must also hold for the dialect's ``detect`` to be
asked: Amp's ``system``, ``user`` and ``result`` are its own only with an Amp thread id
(``T-…``) as ``session_id``; Qwen's and Droid's ``system/init`` only with their own
fields. Qwen Code's and Claude Code's ``system/init`` imported Amp's three modules first
(~3 ms of their ``--json`` start), Claude Code's Qwen's and Droid's five (issue 30.8)."""

ASKED_IF: dict[str, Callable[[JSONObject], bool]] = {
    "kimi": lambda record: "type" not in record or "source_kind" in record,
}
"""For dialects with no list of types: what a record must hold for their ``detect`` to
be asked. Kimi's records have no ``type``, but its notification (``source_kind``...):
a pi stream imported Kimi's three modules, and Claude's through them (issue 30.8)."""


def _may_detect(name: str, kind: object, record: JSONObject) -> bool:
    """Whether dialect ``name``'s ``detect`` can accept ``record``, whose type is ``kind``."""
    types = ASKED_FOR.get(name)
    if types is None:
        asked = ASKED_IF.get(name)
        return asked is None or asked(record)
    if kind.__class__ is not str:  # every listed detect refuses a type that is no string
        return False
    assert isinstance(kind, str)
    if kind in types:
        only_if = ASKED_ONLY_IF.get(name)
        return only_if is None or only_if(kind, record)
    also = ASKED_FOR_ALSO.get(name)
    return also is not None and also(kind, record)


def recognise(record: JSONObject) -> Dialect | None:
    """The dialect one record unmistakably belongs to, if any. Never raises."""
    kind = record.get("type")
    for name, where in REGISTRY:
        if not _may_detect(name, kind, record):
            continue
        dialect = _dialect(name, where)
        try:
            if dialect.detect(record):
                return dialect
        except Exception:  # a detector's bug must not stop the stream
            continue
    return None


def decide(record: object) -> Dialect | None:
    """The dialect a stream whose next record is ``record`` is read as, if it decides.

    A record some dialect recognises decides for it. A record Cursor's parser reads
    (one no dialect claims: a plain ``user`` or ``assistant`` message) decides for
    Cursor, so a live stream is not held back. Anything else (a malformed line, an
    unknown record: noise before the stream proper) decides nothing.
    """
    return decide_how(record)[0]


def decide_how(record: object) -> tuple[Dialect | None, bool]:
    """:func:`decide`, and whether the record proved the dialect (it recognised it)
    rather than only decided for Cursor because Cursor's parser reads it."""
    if not isinstance(record, dict):
        return None, False
    found = recognise(record)
    if found is None and cursor.reads(record):
        return DEFAULT, False
    return found, found is not None


def detect(records: Iterable[JSONObject]) -> Dialect:
    """The dialect of a stream, from its first records.

    Args:
        records: The stream's decoded records (JSON objects), in order; anything else
            (a malformed line's ``None``) counts as a record nobody recognises.

    Returns:
        The dialect the first deciding record (:func:`decide`) among the first
        :data:`DETECT_WINDOW` decides, else :data:`DEFAULT`.
    """
    for seen, record in enumerate(records):
        if seen >= DETECT_WINDOW:
            break
        found = decide(record)
        if found is not None:
            return found
    return DEFAULT


__all__ = [
    "AUTO",
    "DEFAULT",
    "DETECT_WINDOW",
    "DIALECTS",
    "REGISTRY",
    "SESSION_FILES",
    "CallReparser",
    "Dialect",
    "Translator",
    "by_name",
    "decide",
    "decide_how",
    "detect",
    "every_dialect",
    "label_of",
    "names",
    "recognise",
    "translate_line",
]
