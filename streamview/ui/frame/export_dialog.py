"""Where ``x`` saves the export: a one-line dialog with a default path in the current
directory, editable; Enter saves, Escape cancels."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class ExportDialog(ModalScreen[Path | None]):
    """Ask for the Markdown file's path (the SVG screenshot goes beside it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="close without exporting"),
    ]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        """A title, the path (editable), and what Enter and Escape do."""
        with Vertical(id="export-box"):
            yield Static("Export the transcript (Markdown) and a screenshot (SVG) to:")
            # Not selected on focus: the cursor waits at the end (on_mount), and a
            # focus that comes back (another screen closed over it) keeps what was typed.
            yield Input(str(self.default), id="export-path", select_on_focus=False)
            yield Static("enter: save · escape: cancel", id="export-hint")

    def on_mount(self) -> None:
        """The path is ready to edit, the cursor at its end."""
        field = self.query_one("#export-path", Input)
        field.focus()
        field.cursor_position = len(field.value)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        """Enter: this path (``~`` expanded; an empty one cancels)."""
        value = message.value.strip()
        self.dismiss(Path(value).expanduser() if value else None)

    def action_cancel(self) -> None:
        """Escape: no export."""
        self.dismiss(None)
