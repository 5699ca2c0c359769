"""Where ``x`` saves the export: a one-line dialog with a default path in the current
directory, editable; Enter saves, Escape cancels. A path whose Markdown file or the
SVG beside it exists already is not overwritten at once: the dialog says so, and Enter
again overwrites them, or another name can be typed."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

HINT = "enter: save · escape: cancel"
"""What the dialog's last line says while nothing is in the way."""


def existing_files(path: Path) -> list[Path]:
    """The files an export to ``path`` would overwrite: the Markdown, the SVG and the
    HTML page beside it."""
    return [p for p in (path, path.with_suffix(".svg"), path.with_suffix(".html")) if p.exists()]


def overwrite_warning(existing: list[Path]) -> str:
    """``run.md and run.svg exist: enter overwrites them · type another name · escape: cancel``."""
    names = existing[-1].name
    if len(existing) > 1:
        names = ", ".join(p.name for p in existing[:-1]) + " and " + names
    them = "them" if len(existing) > 1 else "it"
    verb = "exist" if len(existing) > 1 else "exists"
    return f"{names} {verb}: enter overwrites {them} · type another name · escape: cancel"


class ExportDialog(ModalScreen[Path | None]):
    """Ask for the Markdown file's path (the SVG screenshot and the HTML page go beside it)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", tooltip="close without exporting"),
    ]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default
        self.confirming: Path | None = None
        """A path whose files exist, shown to the person: Enter on it again overwrites."""

    def compose(self) -> ComposeResult:
        """A title, the path (editable), and what Enter and Escape do."""
        with Vertical(id="export-box"):
            yield Static(
                "Export the transcript (Markdown), a page (HTML) and a screenshot (SVG) to:"
            )
            # Not selected on focus: the cursor waits at the end (on_mount), and a
            # focus that comes back (another screen closed over it) keeps what was typed.
            yield Input(str(self.default), id="export-path", select_on_focus=False)
            yield Static(HINT, id="export-hint", markup=False)

    def on_mount(self) -> None:
        """The path is ready to edit, the cursor at its end."""
        field = self.query_one("#export-path", Input)
        field.focus()
        field.cursor_position = len(field.value)

    def on_input_submitted(self, message: Input.Submitted) -> None:
        """Enter: this path (``~`` expanded; an empty one cancels); if its files exist,
        say so first, and overwrite them on a second Enter."""
        value = message.value.strip()
        if not value:
            self.dismiss(None)
            return
        path = Path(value).expanduser()
        existing = existing_files(path)
        if existing and path != self.confirming:
            self.confirming = path
            self._hint(overwrite_warning(existing), warning=True)
            return
        self.dismiss(path)

    def on_input_changed(self, message: Input.Changed) -> None:
        """Another name typed: the warning (and the consent) were for the old one."""
        if self.confirming is not None and Path(message.value.strip()).expanduser() != (
            self.confirming
        ):
            self.confirming = None
            self._hint(HINT, warning=False)

    def _hint(self, text: str, *, warning: bool) -> None:
        hint = self.query_one("#export-hint", Static)
        hint.update(text)
        hint.set_class(warning, "-warning")

    def action_cancel(self) -> None:
        """Escape: no export."""
        self.dismiss(None)
