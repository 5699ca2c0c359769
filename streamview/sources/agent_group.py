"""The processes an agent started: find them in ``/proc``, signal them all.

The agent runs in a session and process group of its own (its pid is both ids), so
everything it starts stays in that group, or in another group of the same session
when a shell with job control (``bash -m``) puts a background job in its own group.
:func:`members` finds both kinds; :func:`signal_members` signals every group among
them. A process that calls ``setsid()`` itself (a daemon) leaves the session and is
not found: no tool without cgroups can follow it (``timeout(1)`` cannot either).

Without ``/proc`` (not Linux), the group is probed with ``killpg(pgid, 0)`` and
nothing can be listed.
"""

from __future__ import annotations

import os
import shlex
import signal
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True, slots=True)
class Member:
    """One process of the agent's session, still running."""

    pid: int
    pgid: int
    command: str
    """Its command line, shell-quoted, as ``/proc/PID/cmdline`` gives it (untrusted)."""

    def describe(self) -> str:
        """``pid 4242: sleep 120``."""
        return f"pid {self.pid}: {self.command}"

    def as_json(self) -> dict[str, object]:
        """``{"pid", "command"}`` for the ``--json`` summary."""
        return {"pid": self.pid, "command": self.command}


def _stat_fields(pid_dir: Path) -> tuple[str, int, int] | None:
    """``(state, pgid, sid)`` of one process, or ``None`` if it is gone."""
    try:
        raw = (pid_dir / "stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ppid pgrp session ...": comm may hold spaces and parentheses.
    fields = raw[raw.rfind(b")") + 2 :].split()
    try:
        return fields[0].decode("ascii", "replace"), int(fields[2]), int(fields[3])
    except (IndexError, ValueError):
        return None


def _command(pid_dir: Path) -> str:
    try:
        raw = (pid_dir / "cmdline").read_bytes()
    except OSError:
        raw = b""
    words = [word.decode("utf-8", "replace") for word in raw.rstrip(b"\0").split(b"\0") if word]
    if words:
        return shlex.join(words)
    try:  # a process that cleared its arguments: its name, as ps shows it
        return "[" + (pid_dir / "comm").read_text("utf-8", "replace").strip() + "]"
    except OSError:
        return "?"


def members(leader: int) -> list[Member] | None:
    """The live processes of the session and process group ``leader`` started.

    Zombies are left out: they hold no resources and cannot be stopped, only reaped.

    Returns:
        The members, by pid; ``None`` when ``/proc`` cannot be read.
    """
    try:
        entries = list(PROC.iterdir())
    except OSError:
        return None
    found = []
    for entry in entries:
        if not entry.name.isdigit():
            continue
        fields = _stat_fields(entry)
        if fields is None:
            continue
        state, pgid, sid = fields
        if state == "Z" or (pgid != leader and sid != leader):
            continue
        found.append(Member(int(entry.name), pgid, _command(entry)))
    return sorted(found, key=lambda member: member.pid)


def alive(leader: int) -> bool:
    """Whether any process of ``leader``'s session or group still runs."""
    found = members(leader)
    if found is not None:
        return bool(found)
    try:
        os.killpg(leader, 0)
    except (ProcessLookupError, PermissionError):
        return False
    return True


def signal_members(leader: int, signum: signal.Signals) -> bool:
    """Send ``signum`` to ``leader``'s process group and every other group of its session.

    Returns:
        Whether any process was signalled.
    """
    groups = {leader}
    groups.update(member.pgid for member in members(leader) or ())
    sent = False
    for pgid in sorted(groups):
        try:
            os.killpg(pgid, signum)
        except (ProcessLookupError, PermissionError):
            continue
        sent = True
    return sent
