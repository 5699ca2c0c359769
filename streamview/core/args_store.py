"""Finished calls' arguments, let go while a file is folded for the viewer: its lines
have them (issue 27.5: 11 MB of decoded arguments per 200 MB of Claude session, kept for
the few calls a person opens).

The viewer reads a call's arguments back from its lines when its details open
(:func:`~streamview.core.call_records.load_records`, through the
:class:`~streamview.core.linestore.FileLineStore`); the call table shows its target and
summary, which the fold keeps. :class:`ArgsRelease` replaces a finished call's ``args``
with :data:`IN_THE_LINES`, one shared empty stand-in, between two chunks of the file.
What keeps its arguments: a call still running (a later record may read them), one
that has no line to read them from, and one whose arguments an approval request gave
(the call's own lines may not hold them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from streamview.core import tools
from streamview.core.call_columns import IN_THE_LINES, InTheLines, pack_session
from streamview.core.fold_calls import share_strings
from streamview.core.model import Session, ToolCall
from streamview.core.sweeps import swept

SWEEP_EVERY = 8 << 20
"""Bytes of the file folded between two sweeps."""


__all__ = ["IN_THE_LINES", "ArgsRelease", "InTheLines", "args_in_lines", "releasing"]


def args_in_lines(call: ToolCall) -> bool:
    """Whether ``call``'s arguments were let go: read them from its lines (a copy of a
    call, a checkpoint's or a replay's, shares the stand-in; a deep copy keeps its type)."""
    return isinstance(call.args, InTheLines)


class ArgsRelease:
    """Lets go of finished calls' arguments, a sweep at a time (see the module)."""

    def __init__(self, pack: bool = True) -> None:
        self.pack = pack
        """Put the finished calls in columns too (:mod:`~streamview.core.call_columns`)."""
        self.packed = 0
        """Calls put in columns."""
        self._seen: dict[int, int] = {}
        """Per session: how many of its calls a sweep looked at."""
        self._running: dict[int, list[int]] = {}
        """Per session: calls a sweep found running, looked at again by the next."""
        self.released = 0
        """Calls whose arguments were let go."""
        self._strings: dict[str, str] = {}
        """Targets and summaries seen, each the copy finished calls share."""

    def sweep(self, sessions: list[Session]) -> None:
        """Let go of the arguments of the calls finished since the last sweep (and put
        those calls in columns)."""
        if self.pack:
            for session in sessions:
                self.packed += pack_session(session)
            return
        seen, running = self._seen, self._running
        for session in sessions:
            calls = session.tool_calls
            index = session.index
            done = seen.get(index, 0)
            if len(calls) < done:  # a front let its calls go: nothing to do
                continue
            if len(calls) == done and not running.get(index):
                continue
            again = running.get(index, [])
            still: list[int] = []
            for position in (*again, *range(done, len(calls))):
                if not self._release(calls[position]):
                    still.append(position)
            running[index] = still
            seen[index] = len(calls)

    def _release(self, call: ToolCall) -> bool:
        """Let go of ``call``'s arguments if it may; ``False``: look again later."""
        if call.status == tools.RUNNING:
            return False
        self._share(call)
        if (
            call.args
            and call.args is not IN_THE_LINES
            and call.approval is None
            and call.started_line is not None
            and call.completed_line is not None
        ):
            call.args = IN_THE_LINES
            self.released += 1
        return True

    def _share(self, call: ToolCall) -> None:
        """Make ``call``'s target and summary the copy of an equal one seen before (a
        session reads the same files and says "42 lines" over and over: 64 and 31
        bytes a call of a long Claude session, 55 MB of the 2.1 GB one's 700)."""
        share_strings(call, self._strings)


def releasing(chunks: Iterable[bytes], sessions: list[Session]) -> Iterator[bytes]:
    """``chunks``, with the arguments of the calls in ``sessions`` that finished let go
    every :data:`SWEEP_EVERY` bytes and at the end of a longer file (``sessions``: the
    list the fold appends to); a shorter file's are all kept."""
    release = ArgsRelease()
    return swept(chunks, lambda: release.sweep(sessions), SWEEP_EVERY)
