"""The playback keys and the position bar of a file played back.

:class:`PlaybackControls` carries out the playback keys (play, step, seek, speed…) on a
:class:`~streamview.ui.playback.feed.PlaybackFeed` and keeps the bar saying where the
playback is. The frame (:mod:`streamview.ui.frame.controls`) installs it with the agent
panel and the export key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Static

from streamview.core.formatting import counted
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text.safe_text import phrase, toast

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
    ("greater_than_sign", "call(1)", "Play to next call", ">", "to the next tool call"),
    ("less_than_sign", "call(-1)", "Play back to previous call", "<", "to the previous tool call"),
    ("plus,equals_sign", "faster", "Play faster", "+", "play faster"),
    ("minus", "slower", "Play slower", "-", "play slower"),
    ("r", "restart", "Restart playback", "r", "restart from the beginning, playing"),
    ("G", "end", "Playback to the end", "G", "to the end of the run (100 %), also while playing"),
    *[
        (
            str(digit),
            f"seek({digit})",
            f"Seek to {digit * 10}%",
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
            return f"indexing for playback… {counted(feed.total, 'event')}"
        if feed.folded:
            count = feed.final_state().counts.total  # lines: the events are not read yet
            return f"‖ end of the run · {counted(count, 'line')} · a playback key indexes them"
        progress = feed.progress
        if progress is not None:
            return f"loading… {progress:.0%}"
        return f"loading… {counted(feed.total, 'event')}"
    elapsed, total = feed.times()
    mark = "▶" if feed.playing else "‖"
    return (
        f"{mark} {speed_text(feed.speed)} · event {feed.position:,} of {feed.total:,}"
        f" · {clock_text(elapsed)} / {clock_text(total)}"
    )


def status_notes(feed: PlaybackFeed) -> tuple[str | None, str | None]:
    """What the status line says of a loaded playback, as ``(paused, playing)``: where
    a pause before the end stopped (said instead of the run's state), or that it plays
    and how fast (said instead of "● streaming": the run is not live)."""
    if not feed.loaded or feed.position >= feed.total:
        return None, None
    if feed.playing:
        return None, f"▶ replaying at {speed_text(feed.speed)}"
    where = f"‖ paused at event {feed.position:,} of {feed.total:,}"
    return f"{where} · space plays, G goes to the end", None


class PlaybackBar(Static):
    """One line: play state, speed, event n of N, elapsed / total time."""


class PlaybackControls:
    """The playback keys of one viewer and its position bar.

    Args:
        app: The viewer: the bar goes there, above ``before``.
        feed: The file played back.
        pump: Folds the events due into the viewer's state at once.
        rewind: Starts the viewer over on a fresh state (playback going back).
    """

    def __init__(
        self,
        app: App[Any],
        feed: PlaybackFeed,
        *,
        pump: Callable[[], None],
        rewind: Callable[[], None],
    ) -> None:
        self.app = app
        self.feed = feed
        self._pump = pump
        self._rewind = rewind
        self._last_position: str | None = None
        self._pending: list[str] = []
        """Playback commands given while the file was being indexed."""

    def install(self, before: Widget) -> None:
        """Mount the position bar above ``before`` (the status bar)."""
        self.feed.on_rewind = self._rewind
        self.app.mount(PlaybackBar(id="playback-bar", markup=False), before=before)

    def run(self, command: str) -> None:
        """Carry out a playback key's command (``toggle``, ``step(1)``, ``seek(3)``...)."""
        name, _, argument = command.partition("(")
        value = int(argument.rstrip(")")) if argument else 0
        feed = self.feed
        if not feed.loaded:
            if feed.request_index():
                self._pending.append(command)  # carried out once the events are read
                if len(self._pending) == 1:
                    self._await_index()
                toast(self.app, phrase("indexing for playback…"), timeout=1.5)
            else:
                toast(self.app, phrase("still loading the file…"), timeout=1.5)
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
        if self.feed.loaded:
            self.refresh()
        else:
            self.app.set_timer(INDEX_POLL_SECONDS, self._await_index, name="index-poll")

    @property
    def waiting(self) -> bool:
        """Playback keys wait for the file to be indexed (carried out once it is)."""
        return bool(self._pending)

    def refresh(self) -> None:
        """Carry out keys that waited for the index; update the position bar."""
        if self._pending and self.feed.loaded:
            pending, self._pending = self._pending, []
            for command in pending:
                self.run(command)
        position = describe_position(self.feed)
        if position != self._last_position:
            # The same text again would still repaint it (and the panes' scrollbars
            # with the layout), four times a second on a finished file.
            self._last_position = position
            for bar in self.app.query(PlaybackBar):
                bar.update(position)
