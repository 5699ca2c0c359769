"""The agent's panel of run mode, and what a run's recording leaves on the status bar.

In run mode (a :class:`~streamview.sources.process.ProcessSource`) the panel says how the agent
is doing and, when it failed, its stderr; Ctrl+C stops it. A recording that has a
sidecar shows how its run ended the same way. The status bar keeps saying why the
agent failed and that a recording was cut (``✂``).
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import App
from textual.widget import Widget
from textual.widgets import Static

from streamview.runs.run_meta import (
    CTRL_C,
    STOPPED,
    RunMeta,
    failure_note,
    read_meta,
    stop_words,
)
from streamview.sources.agent_source import agent_of
from streamview.sources.base import Source
from streamview.sources.process_state import ProcessState
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.text.safe_text import phrase, safe, toast


def describe_process(state: ProcessState) -> Text:
    """The agent panel: how the process is doing and, when it failed, its stderr."""
    text = Text(no_wrap=False)
    status = state.describe()
    if state.running:
        text.append(f"agent {status} · pid {state.pid} · ctrl+c stops it", "bold")
        return text
    style = "bold red" if state.failed else "bold"
    text.append(f"agent {status}", style)
    if state.interrupted:
        text.append(" · stopped by streamview")
    left = state.describe_left_behind()
    if left is not None:
        text.append(f" · {left}: {', '.join(state.left_behind)}")
    stderr = state.stderr.strip("\n")
    if state.failed and stderr:
        text.append("\n")
        text.append(stderr)
    return text


def recorded_process(meta: RunMeta) -> ProcessState:
    """The agent of a recorded run, as its sidecar keeps it, for the agent panel."""
    return ProcessState(
        command=meta.source,
        pid=meta.agent_pid,
        running=False,
        exit_code=meta.exit_code,
        stderr=meta.stderr,
        interrupted=meta.interrupted,
        result_seen=meta.result_seen,
    )


class ProcessPanel(Static):
    """The agent's process in run mode: running, or its exit code and stderr."""


class RunPanel:
    """The agent panel, Ctrl+C, and the recording's marks of one viewer.

    Args:
        app: The viewer: the panel goes there.
        source: The viewer's input (a running agent, a recording with a sidecar, …).
    """

    def __init__(self, app: App[Any], source: Source) -> None:
        self.app = app
        self.process = agent_of(source)
        self.recorder = getattr(source, "recorder", None)
        path = source.path if self.process is None else None
        self.meta = read_meta(path) if path is not None else None
        """A recording's sidecar: how its run ended, when the file has one."""
        self._recording_warned = False
        self.last_process: ProcessState | None = None
        """The agent as the panel last showed it."""

    def install(self, before: Widget) -> None:
        """Mount the panel above ``before`` (the status bar) when there is an agent to show."""
        app = self.app
        if self.process is not None:
            app.mount(ProcessPanel(id="process-panel", markup=False), before=before)
        elif self.meta is not None and self.meta.exit_code is not None:
            recorded = recorded_process(self.meta)
            panel = ProcessPanel(describe_process(recorded), id="process-panel", markup=False)
            app.mount(panel.set_class(recorded.failed, "-failed"), before=before)
            self._show_notes(recorded)
        elif self.meta is not None:
            self._show_notes(None)

    def can_interrupt(self) -> bool:
        """Whether Ctrl+C has an agent to stop."""
        return self.process is not None and bool(self.process.running)

    def interrupt(self) -> None:
        """Ctrl+C in run mode: stop the agent, harder each time; the viewer stays."""
        if self.process is None:
            return
        self.process.stopped_by = self.process.stopped_by or CTRL_C
        sent = self.process.interrupt()
        if sent is not None:
            toast(
                self.app,
                phrase("sent {sent} to the agent · ctrl+c again to insist", sent=sent),
                timeout=3,
            )
        self.refresh()

    def refresh(self) -> None:
        """Update the panel; warn once if the recording stopped."""
        app = self.app
        if self.process is not None:
            state = self.process.state()
            if state != self.last_process:
                self.last_process = state
                for panel in app.query(ProcessPanel):
                    panel.update(describe_process(state))
                    panel.set_class(state.failed, "-failed")
                self._show_notes(state)
        recorder = self.recorder
        if recorder is not None and recorder.error and not self._recording_warned:
            self._recording_warned = True
            toast(app, safe(recorder.error), severity="error", timeout=10)
            self._show_notes(self.last_process)

    def _show_notes(self, state: ProcessState | None) -> None:
        """The status bar keeps saying why the agent failed and that the recording was cut."""
        failure = stopped = None
        if state is not None and state.failed and not state.interrupted:
            failure = failure_note(state.describe(), state.stderr)
        if state is not None and state.interrupted and not state.result_seen:
            stopped = stop_words(self.process.stopped_by if self.process is not None else "")
        cut = self.recorder.cut if self.recorder is not None else None
        if self.meta is not None:
            cut = self.meta.cut
            if self.meta.ended == STOPPED:
                stopped = stop_words(self.meta.stopped_by)
        marks = (f"✂ recording cut: {cut}",) if cut else ()
        for bar in self.app.query(StatusBar):
            bar.set_notes(failure, marks, stopped)
