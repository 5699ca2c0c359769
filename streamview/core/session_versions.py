"""A session file written by a release newer than the ones streamview was checked
against: read with what can be read, and said so (issue 27.5).

The session dialects name the writer's version in the session's start
(``SessionStarted.extra``: Claude Code's ``version``, Codex's ``cli_version``). A
version past :data:`CHECKED` gets one :class:`~streamview.core.events.AgentNotice`
after the session's start, which the event log and ``--print`` show: the records it
still shares with known releases are shown as usual, the others counted as unknown
records in the event log (never painted in the answer).
"""

from __future__ import annotations

import re

from streamview.core.events import AgentNotice, SessionStarted

CHECKED: dict[str, tuple[str, str, tuple[int, ...]]] = {
    "claude-session": ("Claude Code", "version", (2, 1)),
    "codex-session": ("Codex", "cli_version", (0,)),
}
"""By dialect: the agent's name, the start's field naming its version, and the newest
release line the dialect was checked against (``(2, 1)``: any 2.1.x). Claude Code
ships patch releases daily, Codex minor ones weekly, with the same file format: only
a later line than these is news."""
_VERSION = re.compile(r"(\d{1,6})(?:\.(\d{1,6}))?(?:\.(\d{1,6}))?")


def parse_version(text: object) -> tuple[int, ...] | None:
    """``"2.1.38"`` as ``(2, 1, 38)``; ``None`` for what is not a version."""
    if not isinstance(text, str):
        return None
    found = _VERSION.match(text.strip())
    if found is None:
        return None
    return tuple(int(part) for part in found.groups() if part is not None)


def newer_format(started: SessionStarted) -> AgentNotice | None:
    """The notice for a session written by a release newer than :data:`CHECKED` says
    its dialect was checked against, else ``None``."""
    checked = CHECKED.get(started.agent or "")
    if checked is None:
        return None
    agent, field, newest = checked
    version = parse_version(started.extra.get(field))
    if version is None or version[: len(newest)] <= newest:
        return None
    written = ".".join(map(str, version))
    known = ".".join(map(str, newest)) + ".x"
    return AgentNotice(
        started.line,
        started.session_id,
        started.timestamp_ms,
        started.recv_ms,
        type="streamview",
        subtype="newer-format",
        topic="session",
        text=f"written by {agent} {written}, newer than the {known} streamview knows: "
        "shown with what can be read; records it does not know are counted in the event log",
    )
