"""The viewer opened from the sessions list: Escape, with nothing left for it to close,
goes back to the list instead of doing nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.events import Key

from streamview.ui.frame.app import StreamviewApp


class ListedViewerApp(StreamviewApp):
    """:class:`StreamviewApp`, whose last Escape goes back to the list.

    Args:
        *args: As :class:`StreamviewApp`'s.
        on_back: Called when Escape ends the viewer (not when q does).
        **options: As :class:`StreamviewApp`'s.
    """

    def __init__(
        self, *args: Any, on_back: Callable[[], None] | None = None, **options: Any
    ) -> None:
        super().__init__(*args, **options)
        self.on_back = on_back
        self.went_back = False
        """Escape ended the viewer (the list comes back), not q."""

    def on_key(self, event: Key) -> None:
        """Escape closes the search or filter box, clears the search, else goes back."""
        nothing_open = (
            event.key == "escape"
            and self.screen is self.main_screen
            and not self.filter_box.has_focus
            and not self.search_box.has_focus
            and not self.transcript.query_text
            and not self.search_note
        )
        if not nothing_open:
            super().on_key(event)
            return
        event.stop()
        self.went_back = True
        if self.on_back is not None:
            self.on_back()
        self.exit(self.exit_code)
