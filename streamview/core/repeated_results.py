"""What a second result for a call that already ended means, as each dialect declares it.

Most agents give one result per call. Some give a second for a call that already
ended, and what it means depends on the agent, so each dialect says it with a class
attribute on its translator, ``REPEATED_RESULT``, one of:

- :data:`REPLACE`: the later result is the call's account (the default: records folded
  by id, last wins, as Gemini CLI's session files are);
- :data:`IGNORE`: the first result stands and the later one is dropped (Kimi CLI: a
  second tool message for an id it already answered names no tool any more);
- :data:`NEW_CALL`: the id was reused: the record opens a new call with its own result
  (opencode: each ``tool_use`` record is one whole call, its own part, and a provider's
  call ids may repeat).

The fold (:meth:`~streamview.core.state.StreamState.apply`) reads the rule by the
session's agent name; ``--events`` (:mod:`streamview.core.normalizer`) tells what the
fold did, so the two accounts cannot disagree. Neither asks which agent it was.
"""

from __future__ import annotations

from typing import Final, Literal

from streamview.core.model import Session, ToolCall

RepeatedResult = Literal["replace", "ignore", "new call"]

REPLACE: Final = "replace"
IGNORE: Final = "ignore"
NEW_CALL: Final = "new call"

IGNORED: Final = ToolCall(-1, "", "unknown")
"""What :func:`call_for` gives for a result the fold drops (never in a session)."""

_rules: dict[str | None, RepeatedResult] = {}


def rule_for(agent: str | None) -> RepeatedResult:
    """The ``REPEATED_RESULT`` the dialect named ``agent`` declares (:data:`REPLACE`
    when it declares none, or no dialect has that name). Asked only when a result
    repeats, and remembered."""
    known = _rules.get(agent)
    if known is not None:
        return known
    from streamview.core.dialects import by_name

    dialect = by_name(agent)
    # A translator's class declares it; some dialects build theirs with a function.
    translator = dialect.translator() if dialect is not None else None
    declared = getattr(translator, "REPEATED_RESULT", REPLACE)
    rule: RepeatedResult = REPLACE
    for each in (IGNORE, NEW_CALL):
        if declared == each:
            rule = each
    _rules[agent] = rule
    return rule


def call_for(session: Session, call_id: str, completed: bool) -> ToolCall | None:
    """The call a tool event of ``call_id`` lands on: the session's call of that id;
    ``None`` for a new call; :data:`IGNORED` for a result to drop.

    A call that already had its result gets the record as its dialect's rule says:
    kept (:data:`REPLACE`; a start under :data:`IGNORE` too, as always), dropped (a
    result under :data:`IGNORE`) or a new call (:data:`NEW_CALL`, a start or a result).
    """
    call = session.calls_by_id.get(call_id)
    if call is None or call.completed_line is None:
        return call
    rule = rule_for(session.agent)
    if rule == NEW_CALL:
        return None
    if rule == IGNORE and completed:
        return IGNORED
    return call
