"""The footer of the main screen: Textual's, rebuilt only when the keys it shows change."""

from __future__ import annotations

from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's :class:`~textual.widgets.Footer`, rebuilt only when its keys change.

    Textual rebuilds a footer (a dozen key widgets unmounted and mounted, the screen
    laid out again) on every request to refresh the bindings: focus moving, a screen
    resuming, the viewer's own calls. Opening a file made five such rebuilds in a row
    before the last session was on screen, most of them showing the same keys.
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
