"""The viewer's controls: playback keys and position bar, the agent panel in run mode,
and exports.

:class:`ViewerControls` is installed by the app on mount. It adds the playback keys
and position bar (for a :class:`~streamview.ui.playback.feed.PlaybackFeed`), the agent panel
and Ctrl+C (for a :class:`~streamview.process.ProcessSource`), the export key, and a
warning when a recording stops.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App
from textual.binding import Binding
from textual.widgets import Static

from streamview.core.markdown_export import to_markdown
from streamview.core.state import StreamState
from streamview.process import ProcessSource, ProcessState
from streamview.run_meta import RunMeta, failure_note, read_meta
from streamview.sources import Source
from streamview.ui.feed.reader import Feed
from streamview.ui.frame.status_bar import StatusBar
from streamview.ui.playback.feed import PlaybackFeed

PLAYBACK_KEYS: list[tuple[str, str, str, str, str]] = [
    (
        "space",
        "toggle",
        "Play/Pause",
        "space",
        "play / pause (at the end: play again from the start)",
    ),
    ("full_stop", "step(1)", "Step", ".", "one event forward (pauses)"),
    ("comma", "step(-1)", "Back", ",", "one event back (pauses)"),
    ("greater_than_sign", "call(1)", "Next call", ">", "to the next tool call"),
    ("less_than_sign", "call(-1)", "Previous call", "<", "to the previous tool call"),
    ("plus,equals_sign", "faster", "Speed up", "+", "play faster"),
    ("minus", "slower", "Speed down", "-", "play slower"),
    ("r", "restart", "Restart", "r", "restart from the beginning, playing"),
    ("G", "end", "To the end", "G", "to the end of the run (100 %), also while playing"),
    *[
        (
            str(digit),
            f"seek({digit})",
            f"Seek {digit}0%",
            str(digit),
            "jump to 0 %, 10 % … 90 % of the run's time",
        )
        for digit in range(10)
    ],
]
"""``(keys, command, description, key shown, meaning)`` of the playback keys."""
SHOWN_KEYS = {"toggle", "step(1)", "step(-1)"}
"""Playback commands listed in the footer (the rest are in the help screen and palette)."""
INDEX_POLL_SECONDS = 0.02
"""How often keys given while the file is indexed check whether it is done."""
EXPORT_BINDING = Binding(
    "x",
    "playback('export')",
    "Export",
    show=False,
    tooltip="export a Markdown transcript (tool calls with arguments and results) and an SVG "
    "screenshot: asks where (under --serve: to the browser)",
)


def playback_bindings() -> list[Binding]:
    """The playback keys as the app binds them (a file being played back)."""
    return [
        Binding(
            keys,
            f"playback({command!r})",
            description,
            show=command in SHOWN_KEYS,
            key_display=shown,
            tooltip=about,
        )
        for keys, command, description, shown, about in PLAYBACK_KEYS
    ]


def clock_text(ms: float) -> str:
    """``0:42``, ``12:05``, ``1:02:03``."""
    seconds = int(ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, second = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{second:02d}" if hours else f"{minutes}:{second:02d}"


def speed_text(speed: float) -> str:
    """``1x``, ``0.5x``, ``16x``."""
    return f"{speed:g}x"


def describe_position(feed: PlaybackFeed) -> str:
    """``▶ 2x · event 120 of 2,000 · 0:42 / 3:10``."""
    if not feed.loaded:
        if feed.indexing:
            return f"indexing for playback… {feed.total:,} events"
        if feed.folded:
            count = feed.final_state().counts.total  # lines: the events are not read yet
            return f"‖ end of the run · {count:,} lines · a playback key indexes them"
        progress = feed.progress
        if progress is not None:
            return f"loading… {progress:.0%}"
        return f"loading… {feed.total:,} events"
    elapsed, total = feed.times()
    mark = "▶" if feed.playing else "‖"
    return (
        f"{mark} {speed_text(feed.speed)} · event {feed.position:,} of {feed.total:,}"
        f" · {clock_text(elapsed)} / {clock_text(total)}"
    )


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


class PlaybackBar(Static):
    """One line: play state, speed, event n of N, elapsed / total time."""


class ProcessPanel(Static):
    """The agent's process in run mode: running, or its exit code and stderr."""


class ViewerControls:
    """Playback, agent and export controls of one viewer.

    Args:
        app: The viewer: the keys, bar and panel go there.
        source: The viewer's input.
        feed: What hands the viewer its events.
        state: The viewer's state now (what an export writes).
        pump: Folds the events due into the viewer's state at once.
        rewind: Starts the viewer over on a fresh state (playback going back).
    """

    def __init__(
        self,
        app: App[Any],
        source: Source,
        feed: Feed | PlaybackFeed,
        *,
        state: Callable[[], StreamState],
        pump: Callable[[], None],
        rewind: Callable[[], None],
    ) -> None:
        self.app = app
        self.source = source
        self.playback = feed if isinstance(feed, PlaybackFeed) else None
        self.store = feed.store
        """The stream's lines: an export reads each call's arguments and result there."""
        self._state = state
        self._pump = pump
        self._rewind = rewind
        self.process = source if isinstance(source, ProcessSource) else None
        self.recorder = getattr(source, "recorder", None)
        path = source.path if self.process is None else None
        self.meta = read_meta(path) if path is not None else None
        """A recording's sidecar: how its run ended, when the file has one."""
        self._recording_warned = False
        self._last_process: ProcessState | None = None
        self._last_position: str | None = None
        self._pending: list[str] = []
        """Playback commands given while the file was being indexed."""

    def install(self) -> None:
        """Add keys, the position bar and the agent panel; start their refresh timer."""
        app = self.app
        before = app.query("StatusBar").first()
        if self.playback is not None:
            self.playback.on_rewind = self._rewind
            app.mount(PlaybackBar(id="playback-bar"), before=before)
        if self.process is not None:
            app.mount(ProcessPanel(id="process-panel"), before=before)
        elif self.meta is not None and self.meta.exit_code is not None:
            recorded = recorded_process(self.meta)
            panel = ProcessPanel(describe_process(recorded), id="process-panel")
            app.mount(panel.set_class(recorded.failed, "-failed"), before=before)
            self._show_notes(recorded)
        elif self.meta is not None:
            self._show_notes(None)
        app.refresh_bindings()
        self.timer = app.set_interval(0.25, self.refresh, name="controls")
        """Paused with the app's own timers while nothing can change."""
        self.refresh()

    # -- commands ---------------------------------------------------------------------

    def run(self, command: str) -> None:
        """Carry out a key's command (``toggle``, ``step(1)``, ``seek(3)``, ``export``...)."""
        name, _, argument = command.partition("(")
        value = int(argument.rstrip(")")) if argument else 0
        if name == "export":
            self.export()
            return
        if name == "interrupt":
            self.interrupt()
            return
        feed = self.playback
        if feed is None:
            return
        if not feed.loaded:
            if feed.request_index():
                self._pending.append(command)  # carried out once the events are read
                if len(self._pending) == 1:
                    self._await_index()
                self.app.notify("indexing for playback…", timeout=1.5)
            else:
                self.app.notify("still loading the file…", timeout=1.5)
            return
        if name == "toggle":
            feed.toggle()
        elif name == "step":
            feed.step(value)
        elif name == "call":
            if not feed.jump_to_call(value):
                self.app.bell()
        elif name == "seek":
            feed.seek_fraction(value / 10)
        elif name == "faster":
            feed.faster()
        elif name == "slower":
            feed.slower()
        elif name == "restart":
            feed.restart()
        elif name == "end":
            feed.go_to(feed.total)
        self._pump()
        self.refresh()

    def _await_index(self) -> None:
        """Carry out the waiting keys as soon as the file is indexed (not at the next
        refresh, a quarter of a second later)."""
        if not self._pending:
            return
        if self.playback is not None and self.playback.loaded:
            self.refresh()
        else:
            self.app.set_timer(INDEX_POLL_SECONDS, self._await_index, name="index-poll")

    @property
    def waiting(self) -> bool:
        """Playback keys wait for the file to be indexed (carried out once it is)."""
        return bool(self._pending)

    def can_interrupt(self) -> bool:
        """Whether Ctrl+C has an agent to stop."""
        return self.process is not None and bool(self.process.running)

    def interrupt(self) -> None:
        """Ctrl+C in run mode: stop the agent, harder each time; the viewer stays."""
        if self.process is None:
            return
        sent = self.process.interrupt()
        if sent is not None:
            self.app.notify(f"sent {sent} to the agent · ctrl+c again to insist", timeout=3)
        self.refresh()

    # -- export -----------------------------------------------------------------------

    def export(self) -> None:
        """Ask where to save the Markdown transcript (an SVG screenshot goes beside it);
        served in a browser, hand both to the browser instead."""
        app = self.app
        label = self.source.label
        stem = Path(label).stem or "run"
        stem = "".join(c if c.isalnum() or c in "-_." else "-" for c in stem)[:60]
        name = f"streamview-{stem}-{time.strftime('%Y%m%d-%H%M%S')}"
        if app.is_web:
            app.deliver_text(io.StringIO(self._markdown(label)), save_filename=f"{name}.md")
            app.deliver_screenshot(f"{name}.svg")
            app.notify(f"sent {name}.md and {name}.svg to the browser", timeout=4)
            return
        from streamview.ui.frame.export_dialog import ExportDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._write(path, label)

        app.push_screen(ExportDialog(Path.cwd() / f"{name}.md"), chosen)

    def _markdown(self, label: str) -> str:
        process = self.process.summary() if self.process is not None else None
        return to_markdown(self._state(), title=label, process=process, store=self.store)

    def _write(self, path: Path, label: str) -> None:
        """Write the Markdown to ``path`` and the screenshot beside it; say what was written."""
        app = self.app
        try:
            path.write_text(self._markdown(label), encoding="utf-8")
            svg = app.save_screenshot(path.with_suffix(".svg").name, str(path.parent))
        except OSError as error:
            app.notify(f"export failed: {error.strerror or error}", severity="error")
            return
        app.notify(f"exported {path} and {Path(svg).name}", timeout=4)

    # -- refresh ----------------------------------------------------------------------

    def refresh(self) -> None:
        """Update the position bar and agent panel; warn once if the recording stopped."""
        app = self.app
        if self._pending and self.playback is not None and self.playback.loaded:
            pending, self._pending = self._pending, []
            for command in pending:
                self.run(command)
        if self.playback is not None:
            position = describe_position(self.playback)
            if position != self._last_position:
                # The same text again would still repaint it (and the panes' scrollbars
                # with the layout), four times a second on a finished file.
                self._last_position = position
                for bar in app.query(PlaybackBar):
                    bar.update(position)
        if self.process is not None:
            state = self.process.state()
            if state != self._last_process:
                self._last_process = state
                for panel in app.query(ProcessPanel):
                    panel.update(describe_process(state))
                    panel.set_class(state.failed, "-failed")
                self._show_notes(state)
        recorder = self.recorder
        if recorder is not None and recorder.error and not self._recording_warned:
            self._recording_warned = True
            app.notify(recorder.error, severity="error", timeout=10)
            self._show_notes(self._last_process)

    def _show_notes(self, state: ProcessState | None) -> None:
        """The status bar keeps saying why the agent failed and that the recording was cut."""
        failure = None
        if state is not None and state.failed and not state.interrupted:
            failure = failure_note(state.describe(), state.stderr)
        cut = self.recorder.cut if self.recorder is not None else None
        if self.meta is not None:
            cut = self.meta.cut
        marks = (f"✂ recording cut: {cut}",) if cut else ()
        for bar in self.app.query(StatusBar):
            bar.set_notes(failure, marks)
