"""The footer of the main screen: Textual's, rebuilt only when the keys it shows change,
and showing only the keys that fit whole."""

from __future__ import annotations

from textual import events
from textual.widget import Widget
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, rebuilt only when its keys change,
    that leaves out the keys that do not fit whole.

    Textual rebuilds a footer (a dozen key widgets unmounted and mounted, the screen
    laid out again) on every request to refresh the bindings: focus moving, a screen
    resuming, the viewer's own calls. Opening a file made five such rebuilds in a row
    before the last session was on screen, most of them showing the same keys.

    Textual's footer scrolls what does not fit out of sight, cutting the last key it
    shows mid-word (``S Summar``, ``space Play/P``); here the keys are shown in their
    order while they fit, and the rest are left out (the help and the palette list
    every key).
    """

    def __init__(self) -> None:
        super().__init__()
        self._keys: tuple[object, ...] | None = None
        """What the last rebuild showed (``None``: not built yet)."""

    def _keys_now(self) -> tuple[object, ...]:
        """Everything the footer's keys are made of, as it stands."""
        keys = tuple(
            (key, binding.action, binding.description, binding.show, binding.group, on, tip)
            for key, (_node, binding, on, tip) in self.screen.active_bindings.items()
        )
        return (*keys, self.compact, self.show_command_palette)

    async def recompose(self) -> None:
        """Rebuild the keys, unless they would come out the same."""
        keys = self._keys_now()
        if keys == self._keys:
            return
        self._keys = keys
        await super().recompose()
        self.fit_keys()

    def on_resize(self, event: events.Resize) -> None:
        """Fit the keys to the new width."""
        self.fit_keys()

    def _width(self, key: Widget) -> int:
        """Cells ``key`` takes: its text, padding, border and margins (known before the
        footer is laid out, so a footer on a screen behind another is fitted too)."""
        styles = key.styles
        content = key.get_content_width(self.size, self.app.size)
        return content + styles.gutter.width + styles.margin.width

    def fit_keys(self) -> None:
        """Show the keys whole beside the palette's key (a key's last cell is its blank
        padding, which the palette's edge may cover), in their order; where not all fit,
        the ones a person needs first (:data:`FIRST`: quit, help, play/pause) are kept
        and the others are taken in order while they fit."""
        every = list(self.query("FooterKey"))  # Textual's key widget (not public)
        palette = [key for key in every if key.has_class("-command-palette")]
        keys = [key for key in every if key not in palette]
        room = self.size.width - sum(self._width(key) for key in palette) + 1
        widths = {key: self._width(key) for key in keys}
        ranked = sorted(keys, key=lambda key: _rank(getattr(key, "action", "")))
        shown: set[Widget] = set()
        used = 0
        for key in ranked:
            if used + widths[key] <= room:
                shown.add(key)
                used += widths[key]
            elif _rank(getattr(key, "action", "")) == len(FIRST):
                break  # the rest in order: no later key jumps a gap
        for key in keys:
            fits = key in shown
            if key.display != fits:
                key.display = fits


FIRST = ("quit", "help", "playback('toggle')")
"""Actions whose keys the footer keeps when it cannot show every key."""


def _rank(action: str) -> int:
    return FIRST.index(action) if action in FIRST else len(FIRST)
