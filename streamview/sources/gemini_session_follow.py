"""A Gemini CLI session followed (``--follow``) with its subagents' sessions.

A subagent records its session in ``chats/<session id>/<agent id>.jsonl`` while it
runs, but the parent records the call that ran it only once it has ended, with the
subagent's id as the call's ``agentId``
(:mod:`streamview.sources.gemini_session_files`). Followed, the subagents' folder is
looked at for new sessions, each followed as it is written and held until the parent
writes the call that names it: then its records are handed on under that call, as a
whole read hands them on (the parent's message with the call still running first, when
the subagent's records are there before it), and what it writes after that as it comes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from streamview.sources.gemini_session_files import (
    agent_calls,
    load,
    mark_lines,
    opened,
    session_header,
    subagent_folder,
)
from streamview.sources.nested_follow import NestedFollowSource, new_jsonl


def source(path: Path, label: str | None = None) -> NestedFollowSource:
    """A Gemini CLI session and its subagents' sessions, followed."""
    return NestedFollowSource(path, lambda: _Live(path, session_header(path)), label)


class _Live:
    """What is known of the followed session so far, and the subagents' records held
    until the call that ran them is written (a
    :class:`~streamview.sources.nested_follow.Nesting`).

    Args:
        path: The followed session.
        header: Its header, if its first line was read.
        seen: The subagents' sessions already followed.
    """

    def __init__(
        self, path: Path, header: dict[str, Any] | None, seen: set[str] | None = None
    ) -> None:
        self.path = path
        own = header.get("sessionId") if header is not None else None
        self.session: str | None = own if isinstance(own, str) else None
        self.seen: set[str] = seen if seen is not None else set()
        self.held: dict[str, list[bytes]] = {}
        """A subagent's records not handed on yet (its call not written yet)."""
        self.agents: dict[str, tuple[str, str]] = {}
        """A subagent's file, its agent id and start (its header's ``sessionId`` and
        ``startTime``)."""
        self.linked_to: dict[str, str] = {}
        """A subagent's file and the call that ran it."""
        self.calls: list[tuple[str, str | None]] = []
        """The agent calls written so far: id and ``agentId``, in order."""

    def new_files(self) -> list[tuple[str, Path]]:
        """The subagents' sessions written since the last look."""
        if self.session is None:
            return []
        return new_jsonl(subagent_folder(self.path, self.session), self.seen)

    def main(self, chunk: bytes) -> list[bytes]:
        """The session's new records; a call that ran a subagent already read comes
        after that subagent's records (its message first handed on with it running)."""
        out: list[bytes] = []
        for line in chunk.split(b"\n"):
            if not line.strip():
                continue
            record = load(line) if self.session is None or b"toolCalls" in line else None
            if self.session is None and isinstance(record, dict):
                own = record.get("sessionId")
                self.session = own if isinstance(own, str) and "type" not in record else None
            known = {call for call, _ in self.calls}
            fresh = [c for c in agent_calls(record) if c["id"] not in known]
            for call in fresh:
                agent = call.get("agentId")
                self.calls.append((call["id"], agent if isinstance(agent, str) else None))
            ready = self._link({call["id"] for call in fresh})
            if ready and isinstance(record, dict):
                out.append(opened(record, {call for call, _ in ready}))
                for _, lines in ready:
                    out += lines
            out.append(line)
        return out

    def agent(self, key: str, chunk: bytes) -> list[bytes]:
        """A subagent's new records: marked if its call is written, else held."""
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        if key not in self.agents and lines:
            header = load(lines[0])
            header = header if isinstance(header, dict) else {}
            own, start = header.get("sessionId"), header.get("startTime")
            self.agents[key] = (own if isinstance(own, str) else "", str(start or ""))
        call = self.linked_to.get(key)
        if call is None:
            self.held.setdefault(key, []).extend(lines)
            return []
        return mark_lines(lines, call)

    def linked(self) -> list[bytes]:
        """The held records of subagents whose call the session wrote before them."""
        return [line for _, lines in self._link() for line in lines]

    def _link(self, among: set[str] | None = None) -> list[tuple[str, list[bytes]]]:
        """Held subagents whose call is now written (one of ``among``, if given): the
        call and their marked records (named by ``agentId``, else the first agent call
        left, in the order the subagents started)."""
        ready: list[tuple[str, list[bytes]]] = []
        for key in sorted(self.held, key=lambda name: self.agents.get(name, ("", ""))[1]):
            taken = set(self.linked_to.values())
            free = [
                (call, agent)
                for call, agent in self.calls
                if call not in taken and (among is None or call in among)
            ]
            own = self.agents.get(key, ("", ""))[0]
            call = next((c for c, agent in free if agent == own), None)
            if call is None:
                call = next((c for c, agent in free if agent is None), None)
            if call is None:
                continue
            self.linked_to[key] = call
            ready.append((call, mark_lines(self.held.pop(key), call)))
        return ready

    def restarted(self) -> _Live:
        """The session rewritten: its calls learnt again, the subagents kept."""
        return _Live(self.path, session_header(self.path), self.seen)
