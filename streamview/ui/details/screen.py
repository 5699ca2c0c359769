"""The full story of one tool call: its arguments and its whole result.

The fold keeps only a call's summary; this screen asks the line store for the call's
``started`` and ``completed`` lines, parses them again and lays the payload out with
:mod:`streamview.ui.details.views`. Loading and laying out happen in a thread worker,
so a call whose result is megabytes long shows "loading…" instead of freezing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.geometry import Offset
from textual.screen import Screen
from textual.selection import Selection
from textual.widgets import Footer, Static

from streamview.core import tools
from streamview.core.call_records import CallRecords, load_records
from streamview.core.formatting import STATUS_MARK, format_duration, format_elapsed
from streamview.core.linestore import LineStore
from streamview.core.sanitize import clean, one_line
from streamview.core.state import ToolCall
from streamview.core.textmatch import BadPattern, Matcher
from streamview.ui.details.section_view import SectionView
from streamview.ui.details.sections import Section, raw_json
from streamview.ui.details.views import args_section, result_sections
from streamview.ui.text.capping import SHOW_ALL_KEY
from streamview.ui.text.safe_text import copy_text, phrase, toast
from streamview.ui.text.selection import amount


def escaped_id(call_id: str) -> str:
    """A call id as a JSON string would spell it (``\\n`` shown as ``\\n``), made inert."""
    return clean(json.dumps(call_id, ensure_ascii=False)[1:-1])


def failed_section(error: BaseException) -> Section:
    """What a screen shows when its body could not be built: the error, in one line."""
    what = one_line(f"{type(error).__name__}: {error}", 300)
    return Section("could not show this", Text(what, style="yellow"))


WATCH_SECONDS = 0.5
"""How often the detail screen looks whether its call changed (it may still be running)."""


class SectionScreen(Screen[None]):
    """A screen whose body is :class:`Section` s laid out off the UI thread.

    Subclasses say what to show in :meth:`build_sections`; this class loads it in a
    thread worker, shows a loading line meanwhile, and offers "show all" only when
    something was cut to the display limits.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy", "Copy", tooltip="copy the selected text, else all of it"),
    ]
    find: str = ""
    """Text to bring into view and select once laid out (a search's hit)."""
    LOADING_ID: ClassVar[str] = "loading"
    """Id of the "loading…" line (tests and the stylesheet know it by name)."""

    def __init__(self, store: LineStore | None) -> None:
        """Create the screen.

        Args:
            store: Where to read full lines from (``None``: summaries only).
        """
        super().__init__()
        self.store = store
        self.full = False
        """Showing every line of big payloads."""
        self.truncated = False
        """Something on show was cut to the display limits."""
        self._keep_y: float | None = None
        """Where the body was when "show all" laid it out again (it goes back there)."""

    def loading_line(self) -> Static:
        """The line shown until the body is laid out."""
        return Static("loading…", id=self.LOADING_ID, markup=False)

    def build_sections(self) -> list[Section]:
        """What to show (runs in a worker thread)."""
        raise NotImplementedError

    # Failures are caught and shown: Textual's report of a failed worker paints its
    # locals, and the locals of a record nested 900 deep took minutes of CPU to paint
    # (Escape and q ignored meanwhile).
    @work(
        thread=True,
        exclusive=True,
        name="load sections",
        description="load sections",
    )
    def load(self) -> None:
        """Read, parse and lay out the body off the UI thread; a failure is shown."""
        try:
            sections = self.build_sections()
        except Exception as error:  # odd input must show up, not stop the viewer
            sections = [failed_section(error)]
        self.app.call_from_thread(self.show_sections, sections)

    def show_sections(self, sections: list[Section]) -> None:
        """Replace the body with ``sections`` (none if the screen was closed meanwhile:
        escape or q while a slow body loaded crashed the viewer, seen at load 8)."""
        views = self.query(SectionView)
        if not views:
            return
        views.first().show(sections)
        self.truncated = any(section.truncated for section in sections)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "Show all" is offered only when something was cut."""
        if action == "show_all":
            return self.truncated and not self.full
        return True

    def on_section_view_ready(self) -> None:
        """Laid out: the loading line goes; a searched text is brought into view."""
        for loading in self.query(f"#{self.LOADING_ID}"):
            loading.remove()
        keep, self._keep_y = self._keep_y, None
        if keep:
            view = self.query_one(SectionView)
            self.call_after_refresh(view.scroll_to, y=keep, animate=False, immediate=True)
        elif self.find:
            self.call_after_refresh(self._show_found, self.find)

    def _show_found(self, find: str) -> None:
        try:
            matcher = Matcher.for_query(find)
        except BadPattern:
            return
        for view in self.query(SectionView):
            for row, strip in enumerate(view.lines):
                span = next(matcher.spans(strip.text), None)
                if span is not None:
                    view.scroll_to(y=max(0, row - 3), animate=False)
                    start, end = span
                    self.selections = {view: Selection(Offset(start, row), Offset(end, row))}
                    return

    def reload(self) -> None:
        """Empty the body, show the loading line and load again."""
        view = self.query_one(SectionView)
        view.show(None)
        if not self.query(f"#{self.LOADING_ID}"):
            self.mount(self.loading_line(), before=view)
        self.load()

    def action_show_all(self) -> None:
        """Render big payloads in full instead of their first lines, at the same place
        (the lines shown before are the first lines of the full text)."""
        if not self.full:
            self.full = True
            self._keep_y = self.query_one(SectionView).scroll_y
            self.reload()

    def action_close(self) -> None:
        """Go back to where the user came from."""
        self.dismiss()

    def action_copy(self) -> None:
        """Copy the selected text, else everything shown (the whole result)."""
        text = self.get_selected_text()
        if text:
            copy_text(self.app, text, phrase("{amount}", amount=amount(text)))
            return
        text = "\n".join(view.text for view in self.query(SectionView) if view.lines)
        if text.strip():
            copy_text(self.app, text, phrase("all of it ({amount})", amount=amount(text)))
        else:
            toast(self.app, phrase("nothing to copy yet"), timeout=2)


class ToolCallDetailScreen(SectionScreen):
    """A tool call in full: what was asked, and everything that came back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", tooltip="back to the viewer"),
        Binding(
            "r", "toggle_raw", "Raw JSON", tooltip="the raw JSON records of the call, or its views"
        ),
        Binding(
            SHOW_ALL_KEY, "show_all", "Show all", tooltip="show a long section in full (not cut)"
        ),
    ]

    LOADING_ID = "detail-loading"
    PALETTE_TITLES: ClassVar[dict[str, str]] = {
        "close": "Close details",
        "toggle_raw": "Raw JSON of the call",
        "show_all": "Show the call in full",
        "copy": "Copy from the details",
    }
    """The palette's names of the keys whose footer word is short."""

    def __init__(
        self,
        call: ToolCall,
        store: LineStore | None,
        find: str = "",
        cwd: str | None = None,
        calls: Sequence[ToolCall] = (),
    ) -> None:
        """Create the screen.

        Args:
            call: The call to show.
            store: Where to read the call's full lines from (``None``: summary only).
            find: Text to bring into view and select once laid out (a search's hit).
            cwd: The session's working directory (diff headers are shown relative to it).
            calls: The session's calls: those a subagent made under ``call`` are listed.
        """
        super().__init__(store)
        self.call = call
        self.calls = calls
        self.cwd = cwd
        self.find = find
        self.raw = False
        """Showing the raw JSON records instead of the laid-out result."""
        self._shown: tuple[object, ...] = ()
        self._records: tuple[tuple[object, ...], CallRecords] | None = None
        """The records last read (and for which state of the call), kept until "show
        all" lays them out again: parsing a 60 MB line holds the GIL for 0.3 s (one
        call into orjson), and the UI thread waits that long."""

    def compose(self) -> ComposeResult:
        """Title bar, the scrollable body (loading at first), the footer."""
        with Horizontal(id="detail-title"):
            yield Static(id="detail-heading", markup=False)
            yield Static(id="detail-status", markup=False)
            yield Static(id="detail-duration", markup=False)
        yield Static(id="detail-meta", markup=False)
        yield self.loading_line()
        yield SectionView(id="detail-body", named="details")
        yield Footer()

    def _watched(self) -> tuple[object, ...]:
        """What, when it changes, means the call must be shown again."""
        call = self.call
        nested = len(self._nested()) if call.kind == "task" else 0
        return (
            call.status, call.completed_line, call.approval, call.target, call.started_line,
            nested,
        )  # fmt: skip

    def _nested(self) -> list[ToolCall]:
        """The calls a subagent made under this call, in order."""
        return [c for c in self.calls if c.parent_call_id == self.call.call_id]

    def _show_title(self) -> None:
        """Fill the title bar from the call as it is now."""
        call = self.call
        status = call.status
        heading = Text(one_line(call.kind, 60), style="bold")
        if call.target:
            heading.append("  ")
            heading.append(one_line(call.target, 2000))
        self.query_one("#detail-heading", Static).update(heading)
        status_widget = self.query_one("#detail-status", Static)
        status_widget.update(f"{STATUS_MARK.get(status, '•')} {status}")
        for name in tools.STATUSES:
            status_widget.set_class(name == status, f"-{name}")
        self.query_one("#detail-duration", Static).update(self._duration_text())
        meta = Text(f"#{call.index + 1}  call_id ")
        meta.append(escaped_id(call.call_id))
        lines = [str(n) for n in (call.started_line, call.completed_line) if n is not None]
        if lines:
            meta.append(f"  ·  line{'s' if len(lines) > 1 else ''} {', '.join(lines)}")
        if call.approval:
            meta.append(f"  ·  {one_line(call.approval, 200)}")
        self.query_one("#detail-meta", Static).update(meta)

    def _duration_text(self) -> str:
        """How long the call took; while it runs, how long it has run so far (on the
        app's clock, as the table counts it)."""
        call = self.call
        clock = getattr(self.app, "clock", None)
        start = call.start_ms
        if not call.is_open or not callable(clock) or start is None:
            return format_duration(call.duration_ms)
        return f"running {format_elapsed(clock() - start)}"

    def on_mount(self) -> None:
        """Show the title, start loading, and watch the call while it may still change."""
        self._shown = self._watched()
        self._show_title()
        self.load()
        self.set_interval(WATCH_SECONDS, self._check_call, name="watch tool call")

    def _check_call(self) -> None:
        """A running call completed (or learnt its approval) while on show: show it again."""
        now = self._watched()
        if now != self._shown:
            self._shown = now
            self._show_title()
            self.reload()
        elif self.call.is_open:  # its time so far moves on
            self.query_one("#detail-duration", Static).update(self._duration_text())

    def build_sections(self) -> list[Section]:
        """The sections to show for the current mode (laid out or raw, capped or full)."""
        call = self.call
        key = (*self._watched(), self.raw)
        kept, self._records = self._records, None
        if kept is not None and kept[0] == key:
            records = kept[1]
        else:
            records = load_records(call, self.store, raw=self.raw)
        if not self.full:
            self._records = (key, records)
        if self.raw:
            if not records.raw:
                note = Text("the raw lines were not kept for this input", style="dim italic")
                return [Section("raw JSON", note)]
            return [raw_json(records.raw, self.full)]
        sections = [args_section(call.kind, records.args, records.description)]
        if records.outcome is None and not records.found and call.completed_line is not None:
            summary = Text(one_line(call.summary or call.status, 500))
            summary.append("\n(the full result was not kept for this input)", style="dim italic")
            sections.append(Section("result", summary))
            return sections
        if records.outcome is None and call.status != "running" and call.summary:
            sections.append(Section("result", Text(one_line(call.summary, 500))))
            return sections
        sections += result_sections(
            call.kind,
            records.args,
            records.outcome,
            records.payload,
            approval=call.approval,
            full=self.full,
            cwd=self.cwd,
        )
        nested = self._nested()
        if nested:  # the subagent's own work: each of its calls, as the table shows it
            rows = Text()
            for index, made in enumerate(nested):
                rows.append("\n" if index else "")
                rows.append(f"{STATUS_MARK.get(made.status, '•')} {one_line(made.kind, 40)}")
                rows.append(f"  {one_line(made.target or '', 160)}")
                if made.summary:
                    rows.append(f"  · {one_line(made.summary, 120)}", style="dim")
            sections.append(Section(f"subagent's calls ({len(nested)})", rows))
        return sections

    def action_toggle_raw(self) -> None:
        """Switch between the laid-out result and the raw JSON records."""
        self.raw = not self.raw
        self.reload()
