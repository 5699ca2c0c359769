"""The viewer's controls, each where it belongs, behind the one ``playback(…)`` action.

:class:`ViewerControls` is installed by the app on mount: the playback keys and
position bar (:mod:`streamview.ui.playback.controls`, for a file played back), the agent
panel and Ctrl+C (:mod:`streamview.ui.frame.run_panel`, in run mode or for a recording
with a sidecar) and the export key (:mod:`streamview.ui.frame.export_actions`), and one
timer that refreshes the bar and the panel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App

from streamview.core.state import StreamState
from streamview.sources.base import Source
from streamview.ui.feed.reader import Feed
from streamview.ui.frame.export_actions import Exporter
from streamview.ui.frame.run_panel import RunPanel
from streamview.ui.playback.controls import PlaybackControls
from streamview.ui.playback.feed import PlaybackFeed

REFRESH_SECONDS = 0.25
"""How often the position bar and the agent panel are brought up to date."""


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
        self.playback = feed if isinstance(feed, PlaybackFeed) else None
        self.player = (
            PlaybackControls(app, self.playback, pump=pump, rewind=rewind)
            if self.playback is not None
            else None
        )
        self.run_panel = RunPanel(app, source)
        self.exporter = Exporter(app, source, feed.store, state)

    def install(self) -> None:
        """Add the position bar and the agent panel; start their refresh timer."""
        app = self.app
        before = app.query("StatusBar").first()
        if self.player is not None:
            self.player.install(before)
        self.run_panel.install(before)
        app.refresh_bindings()
        self.timer = app.set_interval(REFRESH_SECONDS, self.refresh, name="controls")
        """Paused with the app's own timers while nothing can change."""
        self.refresh()

    def run(self, command: str) -> None:
        """Carry out a key's command (``toggle``, ``step(1)``, ``seek(3)``, ``export``...)."""
        if command == "export":
            self.exporter.export()
        elif command == "interrupt":
            self.run_panel.interrupt()
        elif self.player is not None:
            self.player.run(command)

    @property
    def waiting(self) -> bool:
        """Playback keys wait for the file to be indexed (carried out once it is)."""
        return self.player is not None and self.player.waiting

    def can_interrupt(self) -> bool:
        """Whether Ctrl+C has an agent to stop."""
        return self.run_panel.can_interrupt()

    def refresh(self) -> None:
        """Update the position bar and the agent panel."""
        if self.player is not None:
            self.player.refresh()
        self.run_panel.refresh()
