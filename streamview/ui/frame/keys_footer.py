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
        """Show the keys, in order, while they fit whole beside the palette's key (a
        key's last cell is its blank padding, which the palette's edge may cover)."""
        every = list(self.query("FooterKey"))  # Textual's key widget (not public)
        palette = [key for key in every if key.has_class("-command-palette")]
        room = self.size.width - sum(self._width(key) for key in palette)
        used = 0
        fits = True
        for key in every:
            if key in palette:
                continue
            width = self._width(key)
            fits = fits and used + width - 1 <= room
            used += width
            if key.display != fits:
                key.display = fits
