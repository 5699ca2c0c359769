"""The export key: a Markdown transcript, an SVG screenshot of the viewer and the run
as one HTML page (:mod:`streamview.core.html_export`).

``x`` (and the palette's entry, which stands for Textual's own "Screenshot" too) asks
where to write (:class:`~streamview.ui.frame.export_dialog.ExportDialog`, which asks
again before it overwrites a file); served in a browser, both go to the browser.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual.app import App
from textual.binding import Binding

from streamview.core.state import StreamState
from streamview.sources.agent_source import agent_of
from streamview.sources.base import Source
from streamview.ui.text.safe_text import phrase, toast

if TYPE_CHECKING:  # the export's modules load when it is first used (issue 21.12)
    from streamview.core.linestore import LineStore

EXPORT_BINDING = Binding(
    "x",
    "playback('export')",
    "Export transcript and screenshot",
    show=False,
    tooltip="export a Markdown transcript (tool calls with arguments and results), an SVG "
    "screenshot and an HTML page of the run: asks where (under --serve: to the browser)",
)


def export_name(label: str, now: float | None = None) -> str:
    """``streamview-run-20260918-101500``: the default file name (no suffix) for ``label``."""
    stem = Path(label).stem or "run"
    stem = "".join(c if c.isalnum() or c in "-_." else "-" for c in stem)[:60]
    when = time.localtime(now) if now is not None else time.localtime()
    return f"streamview-{stem}-{time.strftime('%Y%m%d-%H%M%S', when)}"


class Exporter:
    """Exports of one viewer.

    Args:
        app: The viewer (its screen is the screenshot).
        source: The viewer's input (its label titles the transcript).
        store: The stream's lines: an export reads each call's arguments and result there.
        state: The viewer's state now (what an export writes).
    """

    def __init__(
        self,
        app: App[Any],
        source: Source,
        store: LineStore | None,
        state: Callable[[], StreamState],
    ) -> None:
        self.app = app
        self.source = source
        self.store = store
        self._state = state
        self.process = agent_of(source)

    def export(self) -> None:
        """Ask where to save the Markdown transcript (an SVG screenshot goes beside it);
        served in a browser, hand both to the browser instead."""
        app = self.app
        label = self.source.label
        name = export_name(label)
        if app.is_web:
            app.deliver_text(io.StringIO(self._markdown(label)), save_filename=f"{name}.md")
            app.deliver_text(io.StringIO(self._html(label)), save_filename=f"{name}.html")
            app.deliver_screenshot(f"{name}.svg")
            toast(
                app,
                phrase("sent {name}.md, {name}.html and {name}.svg to the browser", name=name),
                timeout=4,
            )
            return
        from streamview.ui.frame.export_dialog import ExportDialog

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._write(path, label)

        app.push_screen(ExportDialog(Path.cwd() / f"{name}.md"), chosen)

    def _markdown(self, label: str) -> str:
        from streamview.core.markdown_export import to_markdown

        process = self.process.summary() if self.process is not None else None
        return to_markdown(self._state(), title=label, process=process, store=self.store)

    def _html(self, label: str) -> str:
        from streamview.core.html_export import to_html

        process = self.process.summary() if self.process is not None else None
        return to_html(self._state(), title=label, store=self.store, process=process)

    def _write(self, path: Path, label: str) -> None:
        """Write the Markdown to ``path``, the screenshot and the HTML page beside it; say
        what was written."""
        app = self.app
        page = path.with_suffix(".html")
        try:
            path.write_text(self._markdown(label), encoding="utf-8")
            svg = app.save_screenshot(path.with_suffix(".svg").name, str(path.parent))
            page.write_text(self._html(label), encoding="utf-8")
        except OSError as error:
            toast(
                app, phrase("export failed: {why}", why=error.strerror or error), severity="error"
            )
            return
        toast(
            app,
            phrase(
                "exported {path}, {svg} and {page}",
                path=path,
                svg=Path(svg).name,
                page=page.name,
            ),
            timeout=4,
        )
