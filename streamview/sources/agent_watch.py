"""The agent dies with streamview, even when streamview is killed with SIGKILL.

The agent runs in a session of its own (so that a Ctrl+C reaches it only through
streamview), which also means nothing stops it when streamview dies without a chance
to: ``kill -9``, the OOM killer, a crash of the interpreter. It would run on,
orphaned, still writing to the tree and recorded nowhere.

So :func:`start` starts a tiny watcher process next to the agent, in a session of its
own too, that holds the read end of a pipe only streamview writes to. The kernel
closes that pipe whatever ends streamview; the watcher then reads end-of-file and stops
the agent's whole session (every process group of it, as
:mod:`streamview.sources.agent_group` finds them): SIGTERM, then SIGKILL after
:data:`KILL_AFTER` seconds while any of it still runs. ``PR_SET_PDEATHSIG`` alone would
reach the agent only, not what it started, and fires when the *thread* that started
it ends, not the process.

The watcher leaves quietly when the agent's session is gone (it checks every
:data:`POLL_SECONDS`), or when streamview releases it (:meth:`Watch.release`: what
the agent left is to be kept, ``--keep-children``). It works on any POSIX system;
without ``/proc`` (not Linux) only the agent's own process group is found and stopped.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from streamview.sources import agent_group

POLL_SECONDS = 0.5
"""How often the watcher checks whether the agent's session still runs."""
KILL_AFTER = 3.0
"""Seconds after SIGTERM before SIGKILL, as when streamview stops the agent itself."""
RELEASE = b"k"
"""What streamview writes to let the watcher go without stopping anything."""
RELEASE_WAIT = 2.0
"""Seconds streamview waits for a released watcher to leave (it reaps it)."""

_ROOT = str(Path(__file__).resolve().parents[2])
_LAUNCH = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from streamview.sources.agent_watch import main; main(int(sys.argv[2]))"
)


class Watch:
    """streamview's end of the pipe to a watcher (see the module's docstring)."""

    def __init__(self, fd: int, process: subprocess.Popen[bytes]) -> None:
        self._fd: int | None = fd
        self.process = process

    def release(self) -> None:
        """Let the watcher leave without stopping anything (again is harmless)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        try:
            os.write(fd, RELEASE)
        except OSError:
            pass  # it left already: the session is gone
        finally:
            os.close(fd)
        with contextlib.suppress(subprocess.TimeoutExpired):  # never hang streamview's exit
            self.process.wait(RELEASE_WAIT)


def start(leader: int) -> Watch | None:
    """Start a watcher for the session ``leader`` leads; ``None`` if it cannot start
    (the agent then runs as it did before: it outlives a killed streamview)."""
    read_end, write_end = os.pipe()  # neither is inherited by anything else we start
    try:
        process = subprocess.Popen(
            [sys.executable, "-I", "-S", "-c", _LAUNCH, _ROOT, str(leader)],
            stdin=read_end,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    except OSError:
        os.close(write_end)
        return None
    finally:
        os.close(read_end)
    return Watch(write_end, process)


def stop_session(leader: int, kill_after: float = KILL_AFTER) -> None:
    """SIGTERM to every process group of ``leader``'s session, SIGKILL later if needed."""
    agent_group.signal_members(leader, signal.SIGTERM)
    deadline = time.monotonic() + kill_after
    while agent_group.alive(leader):
        if time.monotonic() >= deadline:
            agent_group.signal_members(leader, signal.SIGKILL)
            return
        time.sleep(0.05)


def main(leader: int) -> None:
    """The watcher: stop ``leader``'s session once stdin (streamview's pipe) closes."""
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_IGN)
    while True:
        ready, _, _ = select.select([0], [], [], POLL_SECONDS)
        if not ready:
            if not agent_group.alive(leader):
                return  # it ended, and all it started: nothing left to guard
            continue
        data = os.read(0, 64)
        if RELEASE in data:
            return
        if not data:  # streamview is gone without a word
            stop_session(leader)
            return
