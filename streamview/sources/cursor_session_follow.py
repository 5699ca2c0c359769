"""A Cursor agent transcript followed (``--follow``) with its subagents' transcripts as
they are written.

A subagent's transcript appears in ``<id>/subagents/`` once the parent's delegating
call is written, and grows while that call runs
(:mod:`streamview.sources.cursor_session_files` says how a child is linked to its
call). Followed, the parent's delegating calls are given the ids a whole read gives
them, the ``subagents/`` folder is looked at for new transcripts, and each one's lines
are handed on as they are written, marked with its call; lines written before its call
can be named (the parent's line not read yet) are held until it can.
"""

from __future__ import annotations

from pathlib import Path

from streamview.sources.cursor_session_files import first_prompt, marked, name_calls
from streamview.sources.nested_follow import NestedFollowSource, new_jsonl


def source(path: Path, label: str | None = None) -> NestedFollowSource:
    """A Cursor transcript and its subagents' transcripts, followed."""
    return NestedFollowSource(path, lambda: _Live(path), label)


class _Live:
    """What is known of the followed transcript so far, and the subagents' lines held
    until their call is known (a :class:`~streamview.sources.nested_follow.Nesting`).

    Args:
        path: The followed transcript.
        seen: The subagents' transcripts already followed.
    """

    def __init__(self, path: Path, seen: set[str] | None = None) -> None:
        self.path = path
        self.lines = 0
        self.calls: list[tuple[str, str | None]] = []
        """The delegating calls so far: id and prompt, in order."""
        self.seen: set[str] = seen if seen is not None else set()
        self.held: dict[str, list[bytes]] = {}
        """A subagent's lines not handed on yet (its call not known yet)."""
        self.linked_to: dict[str, str] = {}
        """A subagent's transcript and the call it works for."""

    def new_files(self) -> list[tuple[str, Path]]:
        """The subagents' transcripts written since the last look."""
        return new_jsonl(self.path.parent / "subagents", self.seen)

    def main(self, chunk: bytes) -> list[bytes]:
        """The transcript's new lines, its delegating calls named; a held subagent
        whose call a line holds comes right after that line."""
        out: list[bytes] = []
        for line in chunk.split(b"\n"):
            if not line.strip():
                continue
            self.lines += 1
            named, calls = name_calls(line, self.lines)
            self.calls += calls
            out.append(named)
            if calls:
                out += self.linked()  # a subagent this line's call started, after it
        return out

    def agent(self, key: str, chunk: bytes) -> list[bytes]:
        """A subagent's new lines: marked if its call is known, else held."""
        lines = [line for line in chunk.split(b"\n") if line.strip()]
        call = self.linked_to.get(key)
        if call is None:
            self.held.setdefault(key, []).extend(lines)
            return []
        return marked(lines, call)

    def linked(self) -> list[bytes]:
        """The held lines of subagents whose call is now known: the call that gave
        their first words, else the first call left whose prompt is unknown. A child
        whose words no call gave stays held (its call may not be written yet): never
        attached to a call that asked for something else."""
        out: list[bytes] = []
        for key, lines in list(self.held.items()):
            asked = first_prompt(lines)
            if asked is None:
                continue  # its first line is not written yet
            taken = set(self.linked_to.values())
            free = [(call, prompt) for call, prompt in self.calls if call not in taken]
            call = next((c for c, prompt in free if prompt == asked), None)
            call = call or next((c for c, prompt in free if prompt is None), None)
            if call is None:
                continue
            self.linked_to[key] = call
            del self.held[key]
            out += marked(lines, call)
        return out

    def restarted(self) -> _Live:
        """The transcript rewritten: its calls learnt again, the subagents kept."""
        return _Live(self.path, self.seen)
