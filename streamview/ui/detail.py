"""The full story of one tool call: its arguments and its whole result.

The fold keeps only a call's summary; this screen asks the line store for the call's
``started`` and ``completed`` lines, parses them again and lays the payload out with
:mod:`streamview.ui.views`. Loading and laying out happen in a thread worker,
so a call whose result is megabytes long shows "loading…" instead of freezing.
"""

from __future__ import annotations

import json
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, overload

import orjson
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.cache import LRUCache
from textual.containers import Horizontal
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widgets import Footer, Static

from streamview.core import dialects, tools
from streamview.core.dialects import CallReparser
from streamview.core.formatting import STATUS_MARK, format_duration
from streamview.core.linestore import LineStore
from streamview.core.sanitize import clean, one_line
from streamview.core.state import ToolCall
from streamview.ui.block_layout import offscreen_console
from streamview.ui.capping import SHOW_ALL_KEY
from streamview.ui.rows import LazyRows
from streamview.ui.sections import Section, raw_json
from streamview.ui.views import args_section, result_sections
from streamview.ui.wrap import WrapText


@dataclass(slots=True)
class CallRecords:
    """What the store still knows about a call: its parsed events and raw records."""

    args: dict[str, Any] | None = None
    outcome: str | None = None
    payload: Any = None
    description: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    """``started`` / ``completed`` to the record as decoded JSON (or its text), if asked for."""
    found: bool = False
    """At least one line was found in the store."""


def load_records(call: ToolCall, store: LineStore | None, raw: bool = True) -> CallRecords:
    """Read a call's lines back from ``store`` and parse them.

    Args:
        call: The call, as the fold left it.
        store: Where the raw lines are kept, if anywhere.
        raw: Also decode the records as they are, for the raw JSON view (decoding a
            40 MB line holds the GIL for a tenth of a second: only when asked).

    Returns:
        The arguments and result from the lines, falling back to what the fold kept
        (``call.args``) when the store has nothing.
    """
    records = CallRecords(args=call.args, description=call.description)
    if store is None:
        return records
    reparse = CallReparser(dialects.by_name(store.agent), call.call_id)
    for name, number in (("started", call.started_line), ("completed", call.completed_line)):
        if number is None:
            continue
        data = store.get(number)
        if data is None:
            continue
        records.found = True
        if raw:
            try:
                records.raw[name] = orjson.loads(data)
            except orjson.JSONDecodeError:
                records.raw[name] = data.decode("utf-8", "replace")
        event = reparse(data, number)
        if event is None:
            continue
        if event.args is not None:
            records.args = event.args
        if event.description:
            records.description = event.description
        if event.completed:
            records.outcome = event.outcome
            records.payload = event.payload
    return records


def escaped_id(call_id: str) -> str:
    """A call id as a JSON string would spell it (``\\n`` shown as ``\\n``), made inert."""
    return clean(json.dumps(call_id, ensure_ascii=False)[1:-1])


WATCH_SECONDS = 0.5
"""How often the detail screen looks whether its call changed (it may still be running)."""
MAX_RENDER_WIDTH = 20_000
"""Widest line laid out for sideways scrolling; wider texts are folded instead."""


class LaidOutLines(Sequence[Strip]):
    """A view's lines: runs of strips laid out in advance, and rows of big texts (shell
    output; file content, diffs, raw JSON, long lists and folded texts shown in full)
    that become strips when first shown (then are kept for a while).

    A million rows cost their text only; the strips on screen are made on the UI
    thread, a few dozen at a time.
    """

    CACHED_ROWS: ClassVar[int] = 4_096
    """Rows kept as strips (scrolling back is then free)."""

    def __init__(self, console: Console, options: ConsoleOptions) -> None:
        """Start empty.

        Args:
            console: Renders the rows (used from the UI thread once handed over).
            options: How: no wrapping, wide enough for the widest row.
        """
        self._console = console
        self._options = options
        self._parts: list[list[Strip] | LazyRows] = []
        self._starts: list[int] = []
        self._length = 0
        self._cache: LRUCache[tuple[int, int], Strip] = LRUCache(self.CACHED_ROWS)

    def append(self, strip: Strip) -> None:
        """Add one laid-out line."""
        if not self._parts or not isinstance(self._parts[-1], list):
            self._starts.append(self._length)
            self._parts.append([])
        last = self._parts[-1]
        assert isinstance(last, list)
        last.append(strip)
        self._length += 1

    def add_rows(self, rows: LazyRows) -> None:
        """Add rows of a big text, to be made strips when shown."""
        self._starts.append(self._length)
        self._parts.append(rows)
        self._length += len(rows)

    def __len__(self) -> int:
        """Lines in all."""
        return self._length

    @overload
    def __getitem__(self, index: int) -> Strip: ...

    @overload
    def __getitem__(self, index: slice) -> list[Strip]: ...

    def __getitem__(self, index: int | slice) -> Strip | list[Strip]:
        """Line ``index`` (made now if it is a row of a big text not shown lately)."""
        if isinstance(index, slice):
            return [self[number] for number in range(*index.indices(self._length))]
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError(index)
        part_number = bisect_right(self._starts, index) - 1
        part = self._parts[part_number]
        offset = index - self._starts[part_number]
        if isinstance(part, list):
            return part[offset]
        key = (part_number, offset)
        strip = self._cache.get(key)
        if strip is None:
            lines = self._console.render_lines(part.row(offset), self._options, pad=False)
            strip = Strip(lines[0]) if lines else Strip.blank(0)
            self._cache.set(key, strip)
        return strip

    def __iter__(self) -> Iterator[Strip]:
        """Every line, in order."""
        for index in range(self._length):
            yield self[index]


def render_sections(
    sections: Sequence[Section], width: int, title_style: Style
) -> tuple[LaidOutLines, int]:
    """Lay sections out as lines of a given width (safe to call from a thread).

    Sections that fold are wrapped to ``width``; code, diffs and output keep their
    lines whole, for sideways scrolling. Big texts (:class:`~streamview.ui.rows.LazyRows`)
    are not laid out here at all: their rows become strips when they are shown; a big
    text that folds (:class:`~streamview.ui.wrap.WrapText`) is only cut into rows here.

    Returns:
        The lines, and the width of the widest one.
    """
    width = max(width, 10)
    console = offscreen_console(width)
    options = console.options.update_width(width)
    widest = width
    big = [s.body for s in sections if isinstance(s.body, LazyRows)]
    rows_width = max([width, *(rows.widest for rows in big)])
    strips = LaidOutLines(
        console, options.update(width=rows_width, no_wrap=True, overflow="ignore")
    )
    for section in sections:
        if section.title:
            if strips:
                strips.append(Strip.blank(0))
            strips.append(Strip([Segment(section.title, title_style)]))
        if isinstance(section.body, LazyRows):
            strips.add_rows(section.body)
            widest = max(widest, section.body.widest)
            continue
        if isinstance(section.body, WrapText):
            strips.add_rows(section.body.rows(width))
            continue
        section_options = options
        if not section.wrap:
            measured = Measurement.get(
                console, options.update_width(MAX_RENDER_WIDTH), section.body
            )
            if measured.maximum < MAX_RENDER_WIDTH:
                line_width = max(width, measured.maximum)
                section_options = options.update(width=line_width, no_wrap=True, overflow="ignore")
        lines = console.render_lines(section.body, section_options, pad=False)
        for line in lines:
            strip = Strip(line)
            widest = max(widest, strip.cell_length)
            strips.append(strip)
    return strips, widest


class SectionView(ScrollView, can_focus=True):
    """Sections laid out off the UI thread and shown line by line (Line API).

    A payload of 100,000 lines costs the UI thread nothing but the lines on screen;
    the layout is redone in a worker when the width changes.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"section-view--title"}
    """Component classes: styled in ``streamview.tcss``."""

    class Ready(Message):
        """The sections are laid out and on screen."""

    def __init__(self, *, id: str | None = None) -> None:
        """Create an empty view; :meth:`show` gives it sections."""
        super().__init__(id=id)
        self.sections: Sequence[Section] | None = None
        self._strips: Sequence[Strip] = []
        self._laid_out_width = -1
        self._title_style: Style | None = None

    @property
    def lines(self) -> Sequence[Strip]:
        """The laid-out lines (empty while loading)."""
        return self._strips

    @property
    def text(self) -> str:
        """Everything laid out, as plain text."""
        return "\n".join(strip.text.rstrip() for strip in self._strips)

    def show(self, sections: Sequence[Section] | None) -> None:
        """Show ``sections`` (``None``: loading), laid out in a worker."""
        self.sections = sections
        self._laid_out_width = -1
        if sections is None:
            self._set_strips([], 0, -1)
            return
        self._layout()

    def on_resize(self, event: events.Resize) -> None:
        """Lay the sections out again when the width changed."""
        if self.sections is not None and self._content_width() != self._laid_out_width:
            self._layout()

    def notify_style_update(self) -> None:
        """The theme changed: lay out again if section titles change colour."""
        super().notify_style_update()
        if self.sections is not None and self.is_mounted:
            title = self.get_component_rich_style("section-view--title", partial=True)
            if title != self._title_style:
                self._layout()

    def _content_width(self) -> int:
        return self.scrollable_content_region.width or self.size.width or 80

    def _layout(self) -> None:
        if self.sections is None:
            return
        width = self._content_width()
        title = self.get_component_rich_style("section-view--title", partial=True)
        self._title_style = title
        self._layout_worker(self.sections, width, title)

    # A description of its own: by default Textual puts the repr of the arguments in
    # it, and the repr of a million-line payload stalls the UI thread for 0.2 s.
    @work(thread=True, exclusive=True, name="lay out sections", description="lay out sections")
    def _layout_worker(self, sections: Sequence[Section], width: int, title: Style) -> None:
        strips, widest = render_sections(sections, width, title)
        self.app.call_from_thread(self._set_strips, strips, widest, width)

    def _set_strips(self, strips: Sequence[Strip], widest: int, width: int) -> None:
        self._strips = strips
        self._laid_out_width = width
        self.virtual_size = Size(widest if widest > width else 1, len(strips))
        self.refresh()
        if self.sections is not None:
            self.post_message(self.Ready())

    def render_line(self, y: int) -> Strip:
        """One screen line: a laid-out line cropped to the scroll position."""
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        base = self.rich_style
        index = scroll_y + y
        if self.sections is None or not 0 <= index < len(self._strips):
            return Strip.blank(width, base)
        return self._strips[index].crop_extend(scroll_x, scroll_x + width, base).apply_style(base)


class SectionScreen(Screen[None]):
    """A screen whose body is :class:`Section` s laid out off the UI thread.

    Subclasses say what to show in :meth:`build_sections`; this class loads it in a
    thread worker, shows a loading line meanwhile, and offers "show all" only when
    something was cut to the display limits.
    """

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

    def loading_line(self) -> Static:
        """The line shown until the body is laid out."""
        return Static("loading…", id=self.LOADING_ID, markup=False)

    def build_sections(self) -> list[Section]:
        """What to show (runs in a worker thread)."""
        raise NotImplementedError

    @work(thread=True, exclusive=True, name="load sections")
    def load(self) -> None:
        """Read, parse and lay out the body off the UI thread."""
        sections = self.build_sections()
        self.app.call_from_thread(self.show_sections, sections)

    def show_sections(self, sections: list[Section]) -> None:
        """Replace the body with ``sections``."""
        self.query_one(SectionView).show(sections)
        self.truncated = any(section.truncated for section in sections)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "Show all" is offered only when something was cut."""
        if action == "show_all":
            return self.truncated and not self.full
        return True

    def on_section_view_ready(self) -> None:
        """Laid out: the loading line goes."""
        for loading in self.query(f"#{self.LOADING_ID}"):
            loading.remove()

    def reload(self) -> None:
        """Empty the body, show the loading line and load again."""
        view = self.query_one(SectionView)
        view.show(None)
        if not self.query(f"#{self.LOADING_ID}"):
            self.mount(self.loading_line(), before=view)
        self.load()

    def action_show_all(self) -> None:
        """Render big payloads in full instead of their first lines."""
        if not self.full:
            self.full = True
            self.reload()

    def action_close(self) -> None:
        """Go back to where the user came from."""
        self.dismiss()


class ToolCallDetailScreen(SectionScreen):
    """A tool call in full: what was asked, and everything that came back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close"),
        Binding("r", "toggle_raw", "Raw JSON"),
        Binding(SHOW_ALL_KEY, "show_all", "Show all"),
    ]

    LOADING_ID = "detail-loading"

    def __init__(self, call: ToolCall, store: LineStore | None) -> None:
        """Create the screen.

        Args:
            call: The call to show.
            store: Where to read the call's full lines from (``None``: summary only).
        """
        super().__init__(store)
        self.call = call
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
            yield Static(id="detail-heading")
            yield Static(id="detail-status", markup=False)
            yield Static(id="detail-duration", markup=False)
        yield Static(id="detail-meta")
        yield self.loading_line()
        yield SectionView(id="detail-body")
        yield Footer()

    def _watched(self) -> tuple[object, ...]:
        """What, when it changes, means the call must be shown again."""
        call = self.call
        return (call.status, call.completed_line, call.approval, call.target, call.started_line)

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
        self.query_one("#detail-duration", Static).update(format_duration(call.duration_ms))
        meta = Text(f"#{call.index + 1}  call_id ")
        meta.append(escaped_id(call.call_id))
        lines = [str(n) for n in (call.started_line, call.completed_line) if n is not None]
        if lines:
            meta.append(f"  ·  line{'s' if len(lines) > 1 else ''} {', '.join(lines)}")
        if call.approval:
            meta.append(f"  ·  {one_line(call.approval, 200)}")
        self.query_one("#detail-meta", Static).update(meta)

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
        )
        return sections

    def action_toggle_raw(self) -> None:
        """Switch between the laid-out result and the raw JSON records."""
        self.raw = not self.raw
        self.reload()
