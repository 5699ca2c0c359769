"""How a session ends when no record said so: the rules the fold applies at its end.

Most agents print a final record (a ``result``, ``turn.completed``...) and a session
without one is *incomplete*. An agent whose runs end without one declares it
(``Dialect.no_final_record``, carried on its ``SessionStarted``): its session ends by its
last turn instead. Nothing here asks which agent it is.
"""

from __future__ import annotations

from streamview.core.model import INCOMPLETE, RUNNING, SUCCESS, Session


def settle(session: Session) -> None:
    """Give a session the input left without an outcome the one its agent's runs have.

    A whole last turn (an answer after the last tool result, no call open) of an agent
    that prints no final record is a success, ``ended: <why>``; cut mid-turn it is
    ``incomplete``, ``cut mid-turn: <why>``; any other agent's is ``incomplete``.
    """
    outcome = session.outcome
    if outcome.status != RUNNING:
        return
    why = session.no_final_record
    if why and session.turn_complete:
        outcome.status = SUCCESS
        outcome.message = f"ended: {why}"
        return
    outcome.status = INCOMPLETE
    if why:
        outcome.message = f"cut mid-turn: {why}"


def exited(session: Session | None, exit_code: int | None) -> bool:
    """``streamview run``: the agent's exit ends a run its stream left incomplete when
    its agent prints no final record: exit 0 is a success, ``ended: the agent exited 0
    (<why>)``. Whether it did."""
    if session is None or exit_code != 0 or not session.no_final_record:
        return False
    if session.outcome.status != INCOMPLETE:
        return False
    session.outcome.status = SUCCESS
    session.outcome.message = f"ended: the agent exited 0 ({session.no_final_record})"
    return True


def say_why_it_ended(session: Session | None, reason: str | None) -> bool:
    """Say why the input ended, when something outside the stream knows it (the agent
    was stopped with Ctrl+C), of a session the end left incomplete; whether it did."""
    if not reason or session is None or session.outcome.status != INCOMPLETE:
        return False
    session.outcome.message = reason
    return True
