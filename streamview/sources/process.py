"""Run the agent as a child process and read its stdout as the stream.

The child gets its own session and process group, so streamview decides what a
Ctrl+C does: :meth:`ProcessSource.interrupt` sends SIGINT to the group, then SIGTERM,
then SIGKILL while any of it still runs. stderr is collected in a thread (the last
:data:`STDERR_LIMIT` bytes) to show when the run fails. A ``result`` line ends the
turn even when the agent lingers afterwards: with ``linger_seconds`` set (the plain
front ends), reading stops that long after it.

The run ends when the agent ends: once its process exited, the stream is read for
:data:`EXIT_GRACE` seconds more (what it wrote last, what its children still write),
then closed even if a background child (a dev server started with ``&``) still holds
its stdout. The processes it left behind are listed (:mod:`streamview.sources.agent_group`)
and stopped, unless the user keeps them (``--keep-children``). If streamview dies
without a chance to stop them (``kill -9``), a watcher does (:mod:`streamview.sources.agent_watch`).
"""

from __future__ import annotations

import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from streamview.core.events import AgentNotice
from streamview.sources import agent_group, agent_watch
from streamview.sources.agent_group import Member
from streamview.sources.base import PIPE_CHUNK_SIZE, POLL_SECONDS, InputError, Source
from streamview.sources.line_tee import LineSink, LineTee
from streamview.sources.process_state import ProcessState, ResultWatcher, exit_status, strip_escapes
from streamview.sources.read_ahead import ReadAhead
from streamview.sources.stderr_tail import StderrTail

__all__ = ["EXIT_GRACE", "ProcessSource", "ProcessState", "exit_status", "strip_escapes"]

STDERR_LIMIT = 64 * 1024
"""Bytes of stderr kept: the end, where the reason for a failure is."""

TERM_AFTER = 3.0
"""Seconds after SIGINT before SIGTERM."""
KILL_AFTER = 3.0
"""Seconds after SIGTERM before SIGKILL."""
EXIT_WAIT = 1.0
"""Seconds to wait for the exit status once stdout closed, when not told otherwise."""
EXIT_GRACE = 1.0
"""Seconds the stream stays open once the agent exited (``--exit-grace``): its last
lines are in the pipe already; a child still holding stdout is not waited for longer."""
STEPS = (signal.SIGINT, signal.SIGTERM, signal.SIGKILL)
"""How the agent is stopped, gentlest first."""


class ProcessSource(Source):
    """The stdout of an agent streamview starts itself.

    Args:
        command: Program and arguments.
        recorder: Where to record the stream, if anywhere.
        linger_seconds: Stop reading this long after a ``result`` line if stdout is
            still open (``None``: read until the agent closes stdout).
        stdin: The child's stdin: a file descriptor, or ``None`` for ``/dev/null``.
        stderr_limit: Bytes of stderr to keep.
        env: The child's environment (default: ours).
        cwd: The child's working directory.
        on_exit: Called (from a reader thread) once the process has exited.
        exit_grace: Seconds to keep reading once the agent exited.
        keep_children: Leave running what the agent left behind, instead of stopping it.
    """

    live = True

    def __init__(
        self,
        command: Sequence[str],
        *,
        recorder: LineSink | None = None,
        linger_seconds: float | None = None,
        stdin: int | None = None,
        stderr_limit: int = STDERR_LIMIT,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        on_exit: Callable[[ProcessState], None] | None = None,
        exit_grace: float = EXIT_GRACE,
        keep_children: bool = False,
    ) -> None:
        if not command:
            raise InputError("run: no command given (streamview run -- COMMAND ARGS...)")
        self.command = list(command)
        self.label = shlex.join(self.command)
        self.recorder = recorder
        self.linger_seconds = linger_seconds
        self.stdin = stdin
        self.stderr_limit = stderr_limit
        self.env = env
        self.cwd = cwd
        self.on_exit = on_exit
        self.exit_grace = exit_grace
        self.keep_children = keep_children
        self.process: subprocess.Popen[bytes] | None = None
        self.interrupted = False
        self.result_seen = False
        self.lingered = False
        self.stopped_by = ""
        """Who stopped the agent when the viewer did (``Ctrl+C``): said in its sidecar."""
        """The agent was still running after its ``result`` when streamview stopped
        reading or stopped it: the result, not the exit code, says how the run went."""
        self.left_behind: list[Member] = []
        """What the agent left running when it exited (found once the stream ended)."""
        self.held_stdout = False
        """The stream was closed while something the agent left behind still held it."""
        self.exited_at: float | None = None
        """``time.monotonic()`` when the reader saw the agent's process gone."""
        self._stderr = StderrTail(stderr_limit)
        self._signal_step = 0
        self._escalation: threading.Timer | None = None
        self._lock = threading.Lock()
        self._exit_reported = False
        self._watch: agent_watch.Watch | None = None
        self._ahead: ReadAhead | None = None
        self.ending: Callable[[], AgentNotice | None] | None = None
        """Called on the reader's thread once the agent's output ended on its own, off the
        viewer's (``run --otlp`` sends its last spans there); its notice is the event log's."""
        self._ended_notice: AgentNotice | None = None

    # -- lifecycle --------------------------------------------------------------------

    def start(self, read_ahead: bool = True) -> None:
        """Start the agent (done by :meth:`chunks` if not called before).

        Args:
            read_ahead: Read its stdout at once, on a thread, until :meth:`chunks`
                takes over (:mod:`streamview.sources.read_ahead`), so lines that come before
                the viewer is up keep the time they came.

        Raises:
            InputError: The program cannot be found or run.
        """
        if self.process is not None:
            return
        program = self.command[0]
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=self.stdin if self.stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                env=self.env,
                cwd=self.cwd,
                start_new_session=True,
            )
        except FileNotFoundError as error:
            raise InputError(f"cannot run {program}: command not found") from error
        except PermissionError as error:
            raise InputError(f"cannot run {program}: permission denied") from error
        except OSError as error:
            raise InputError(f"cannot run {program}: {error.strerror or error}") from error
        self._watch = agent_watch.start(self.process.pid)
        assert self.process.stderr is not None
        self._stderr.start(self.process.stderr)
        if read_ahead:
            assert self.process.stdout is not None
            self._ahead = ReadAhead(self.process.stdout.fileno())

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        """Yield the agent's stdout until it closes it, lingers after ``result``, has
        exited :attr:`exit_grace` seconds ago, or ``stop``."""
        self.start(read_ahead=False)
        process = self.process
        assert process is not None and process.stdout is not None
        fd = process.stdout.fileno()
        tee = LineTee(self.recorder) if self.recorder is not None else None
        watcher = ResultWatcher()
        result_at: float | None = None
        ahead, self._ahead = self._ahead, None
        try:
            for data, arrived in ahead.handover() if ahead is not None else ():
                if tee is not None:
                    tee.feed(data, arrived)
                if result_at is None and watcher.feed(data):
                    self.result_seen = True
                    result_at = time.monotonic()
                self.arrived_ms = arrived
                yield data
            self.arrived_ms = None
            with selectors.DefaultSelector() as selector:
                selector.register(fd, selectors.EVENT_READ)
                while not stop.is_set():
                    ready = selector.select(POLL_SECONDS)
                    if self._grace_over(process):
                        self.held_stdout = True
                        break
                    if not ready:
                        if self._linger_over(result_at):
                            self.lingered = True
                            return
                        continue
                    try:
                        data = os.read(fd, PIPE_CHUNK_SIZE)
                    except BlockingIOError:
                        continue
                    except OSError as error:
                        raise InputError(f"cannot read the agent's output: {error}") from error
                    if not data:
                        break
                    if tee is not None:
                        tee.feed(data)
                    if result_at is None and watcher.feed(data):
                        self.result_seen = True
                        result_at = time.monotonic()
                    yield data
            self._wait_for_exit(stop, result_at)
        finally:
            if tee is not None:
                tee.finish()
            process.stdout.close()
        if process.poll() is not None and not stop.is_set():
            self.settle_left_behind()
        if self.ending is not None and not stop.is_set():
            self._ended_notice = self.ending()

    def ended_notice(self) -> AgentNotice | None:
        """What :attr:`ending` said (``--otlp``: spans not delivered), for the event log."""
        return self._ended_notice

    def _grace_over(self, process: subprocess.Popen[bytes]) -> bool:
        """The agent exited over :attr:`exit_grace` seconds ago (stdout may still be open)."""
        if self.exited_at is None:
            if process.poll() is None:
                return False
            self.exited_at = time.monotonic()
        return time.monotonic() - self.exited_at >= self.exit_grace

    def _linger_over(self, result_at: float | None) -> bool:
        return (
            result_at is not None
            and self.linger_seconds is not None
            and time.monotonic() - result_at >= self.linger_seconds
        )

    def _wait_for_exit(self, stop: threading.Event, result_at: float | None) -> None:
        """After EOF: wait for the exit code (the agent may still be tidying up)."""
        process = self.process
        assert process is not None
        closed_at = time.monotonic()
        patience = EXIT_WAIT if self.linger_seconds is None else self.linger_seconds
        while not stop.is_set():
            try:
                process.wait(POLL_SECONDS)
            except subprocess.TimeoutExpired:
                if time.monotonic() - closed_at >= patience:
                    self.lingered = result_at is not None
                    return
                continue
            self._report_exit()
            return

    def settle_left_behind(self) -> list[Member]:
        """Once the agent exited: note what it left running and, unless
        :attr:`keep_children`, start stopping it (SIGTERM now, SIGKILL later; it does
        not wait). Called by :meth:`chunks` when the stream ends; again is harmless."""
        process = self.process
        if process is None or process.poll() is None:
            return self.left_behind
        found = agent_group.members(process.pid) or []
        with self._lock:
            known = {member.pid for member in self.left_behind}
            self.left_behind += [member for member in found if member.pid not in known]
            if found and not self.keep_children:
                self._signal_step = max(self._signal_step, 1)
                self._send_next()
                self._schedule_escalation(TERM_AFTER, KILL_AFTER)
        if self.keep_children:
            self.release_watch()
        return self.left_behind

    def release_watch(self) -> None:
        """What runs of the agent's session may outlive streamview from now on (it
        exited, and what it left is kept): the watcher that would stop it if streamview
        died (:mod:`streamview.sources.agent_watch`) leaves."""
        if self._watch is not None:
            self._watch.release()

    def _report_exit(self) -> None:
        deadline = time.monotonic() + EXIT_WAIT
        while self._stderr.reading() and time.monotonic() < deadline:
            # Its last words are in the pipe already; a child that inherited stderr may
            # keep it open for ever: wait only while stderr still moves.
            self._stderr.join(POLL_SECONDS)
            if time.monotonic() - self._stderr.moved_at > 2 * POLL_SECONDS:
                break
        with self._lock:
            if self._exit_reported:
                return
            self._exit_reported = True
        if self.on_exit is not None:
            self.on_exit(self.state())

    # -- what the viewer asks ---------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The agent's process id, once started."""
        return self.process.pid if self.process is not None else None

    @property
    def running(self) -> bool:
        """The agent has started and not exited."""
        return self.process is not None and self.process.poll() is None

    def group_alive(self) -> bool:
        """The agent, or anything of its session or process group, still runs."""
        if self.process is None:
            return False
        return self.running or agent_group.alive(self.process.pid)

    @property
    def exit_code(self) -> int | None:
        """Shell-style exit status, ``None`` while running or before the start."""
        if self.process is None:
            return None
        return exit_status(self.process.poll())

    @property
    def stderr_bytes(self) -> bytes:
        """The end of the agent's stderr, as written."""
        return self._stderr.data()

    @property
    def stderr_text(self) -> str:
        """The end of the agent's stderr as plain, safe text."""
        return strip_escapes(self.stderr_bytes.decode("utf-8", "replace"))

    def state(self) -> ProcessState:
        """A snapshot of the process, for the viewer."""
        if self._stderr.reading() and self.exit_code is not None:
            # It exited: its last words are usually still in the pipe; wait a moment.
            self._stderr.join(0.05)
        return ProcessState(
            command=self.label,
            pid=self.pid,
            running=self.running,
            exit_code=self.exit_code,
            stderr=self.stderr_text,
            interrupted=self.interrupted,
            result_seen=self.result_seen,
            left_behind=tuple(strip_escapes(member.describe()) for member in self.left_behind),
            children_kept=self.keep_children,
        )

    def lingering(self) -> list[dict[str, Any]]:
        """What still ran when the stream ended: the agent after its result, then what
        it left behind; each ``{"pid", "command", "stopped"}``."""
        kept = self.keep_children
        found: list[dict[str, Any]] = []
        if self.lingered and self.pid is not None:
            found.append({"pid": self.pid, "command": self.label, "stopped": self.interrupted})
        found += [{**member.as_json(), "stopped": not kept} for member in self.left_behind]
        return found

    def summary(self) -> dict[str, Any]:
        """``{"exit_code", "stderr", "interrupted", "lingered"}`` for the ``--json`` summary.

        ``interrupted``: streamview signalled the agent (Ctrl+C, a signal, or it lingered
        after its result and was stopped); ``lingered``: what still ran when the stream
        ended (:meth:`lingering`), an empty list when nothing did.
        """
        state = self.state()
        return {
            "exit_code": state.exit_code,
            "stderr": state.stderr,
            "interrupted": state.interrupted,
            "lingered": self.lingering(),
        }

    # -- stopping ---------------------------------------------------------------------

    def interrupt(
        self, term_after: float = TERM_AFTER, kill_after: float = KILL_AFTER
    ) -> str | None:
        """Stop the agent: SIGINT now, SIGTERM and SIGKILL later while any of its
        process group still runs.

        A second call while it is still running skips straight to the next signal.

        Returns:
            The name of the signal sent, or ``None`` when nothing was running.
        """
        with self._lock:
            if not self.group_alive():
                return None
            self.interrupted = self.interrupted or self.running
            self.lingered = self.lingered or (self.result_seen and self.running)
            sent = self._send_next()
            self._schedule_escalation(term_after, kill_after)
            return sent

    def _send_next(self) -> str | None:
        signum = STEPS[min(self._signal_step, len(STEPS) - 1)]
        self._signal_step += 1
        process = self.process
        assert process is not None
        if agent_group.signal_members(process.pid, signum):
            return signum.name
        try:
            process.send_signal(signum)
        except ProcessLookupError:
            return None
        return signum.name if process.poll() is None else None

    def _schedule_escalation(self, term_after: float, kill_after: float) -> None:
        if self._escalation is not None:
            self._escalation.cancel()
        if self._signal_step >= len(STEPS):
            return
        delay = term_after if self._signal_step == 1 else kill_after
        timer = threading.Timer(delay, self._escalate, args=(term_after, kill_after))
        timer.daemon = True
        timer.name = "streamview-agent-stop"
        self._escalation = timer
        timer.start()

    def _escalate(self, term_after: float, kill_after: float) -> None:
        with self._lock:
            if not self._must_stop():
                return
            self._send_next()
            self._schedule_escalation(term_after, kill_after)

    def _must_stop(self) -> bool:
        """Something streamview is to stop still runs: the agent, or (unless they are
        kept) the processes it left."""
        if self.running:
            return True
        return not self.keep_children and self.group_alive()

    def stop(self, timeout: float = KILL_AFTER, gentle: bool = False) -> int | None:
        """Stop the agent and its process group now and wait for them (streamview is
        quitting). What it left behind after it exited on its own is kept with
        :attr:`keep_children`.

        SIGTERM, then SIGKILL after ``timeout`` seconds; ``gentle`` starts with SIGINT
        and waits ``timeout`` before each next step, as Ctrl+C does.

        Returns:
            Its exit status, or ``None`` if it had not been started.
        """
        process = self.process
        if process is None:
            return None
        with self._lock:
            if self._must_stop():
                self.interrupted = self.interrupted or self.running
                self.lingered = self.lingered or (self.result_seen and self.running)
                if self._escalation is not None:
                    self._escalation.cancel()
                if not gentle:
                    self._signal_step = max(self._signal_step, 1)
                self._send_next()
        while self._must_stop():
            deadline = time.monotonic() + timeout
            while self._must_stop() and time.monotonic() < deadline:
                if not self.running and self._signal_step < 2:
                    break  # the agent stopped; what it left ignores SIGINT (`cmd &` does)
                time.sleep(POLL_SECONDS / 2)
            if not self._must_stop():
                break
            with self._lock:
                if self._escalation is not None:
                    self._escalation.cancel()
                if self._signal_step >= len(STEPS):  # SIGKILL sent: only the kernel now
                    break
                self._send_next()
        process.wait()
        if self._escalation is not None:
            self._escalation.cancel()
        if not self._must_stop():
            self.release_watch()
        self._report_exit()
        return self.exit_code

    def wait(self, timeout: float | None = None) -> int | None:
        """Wait for the agent to exit; its exit status, or ``None`` on timeout."""
        if self.process is None:
            return None
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            return None
        self._report_exit()
        return self.exit_code
