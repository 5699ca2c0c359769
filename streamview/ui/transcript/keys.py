"""The transcript's keys: scroll, page, the top, and the end (End follows the newest
content, and a playing playback's playhead; ``G`` also takes a playback to its end)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

SCROLL = "scroll from where the view is (scrolling up pauses following)"

TRANSCRIPT_BINDINGS: list[BindingType] = [
    Binding("up,k", "scroll_up", "Scroll transcript up", show=False, tooltip=SCROLL),
    Binding("down,j", "scroll_down", "Scroll transcript down", show=False, tooltip=SCROLL),
    Binding("pageup", "page_up", "Transcript page up", show=False, tooltip=SCROLL),
    Binding("pagedown", "page_down", "Transcript page down", show=False, tooltip=SCROLL),
    Binding("home,g", "scroll_home", "Top of transcript", show=False, tooltip="to the top"),
    Binding(
        "end",
        "scroll_end",
        "End of transcript (follow)",
        show=False,
        tooltip="to the end: follow it again (a playing playback: follow the playhead)",
    ),
    Binding(
        "G",
        "scroll_end(True)",
        "End of the run",
        show=False,
        tooltip="to the end: follow it again (a playback goes to 100 %, even while playing)",
    ),
]
"""Scrolling keys of the transcript; the app's keys do the rest."""
