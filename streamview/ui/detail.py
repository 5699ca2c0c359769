"""The full story of one tool call: its arguments and its whole result.

The fold keeps only a call's summary; this screen asks the line store for the call's
``started`` and ``completed`` lines, parses them again and lays the payload out with
:mod:`streamview.ui.payload_view`. Loading and laying out happen in a thread worker,
so a call whose result is megabytes long shows "loading…" instead of freezing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, ClassVar

import orjson
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer
from textual.screen import Screen
from textual.widgets import Footer, Static

from streamview.core.events import ToolCallEvent
from streamview.core.linestore import LineStore
from streamview.core.parse import parse_line
from streamview.core.sanitize import clean, one_line
from streamview.core.state import ToolCall
from streamview.printer import STATUS_MARK, format_duration
from streamview.ui import payload_view
from streamview.ui.payload_view import Section


@dataclass(slots=True)
class CallRecords:
    """What the store still knows about a call: its parsed events and raw records."""

    args: dict[str, Any] | None = None
    outcome: str | None = None
    payload: Any = None
    description: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)
    """``started`` / ``completed`` to the record as decoded JSON (or its text)."""
    found: bool = False
    """At least one line was found in the store."""


def load_records(call: ToolCall, store: LineStore | None) -> CallRecords:
    """Read a call's lines back from ``store`` and parse them.

    Args:
        call: The call, as the fold left it.
        store: Where the raw lines are kept, if anywhere.

    Returns:
        The arguments and result from the lines, falling back to what the fold kept
        (``call.args``) when the store has nothing.
    """
    records = CallRecords(args=call.args, description=call.description)
    if store is None:
        return records
    for name, number in (("started", call.started_line), ("completed", call.completed_line)):
        if number is None:
            continue
        data = store.get(number)
        if data is None:
            continue
        records.found = True
        try:
            records.raw[name] = orjson.loads(data)
        except orjson.JSONDecodeError:
            records.raw[name] = data.decode("utf-8", "replace")
        event = parse_line(data, number)
        if not isinstance(event, ToolCallEvent):
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


class ToolCallDetailScreen(Screen[None]):
    """A tool call in full: what was asked, and everything that came back."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close"),
        Binding("r", "toggle_raw", "Raw JSON"),
        Binding(payload_view.SHOW_ALL_KEY, "show_all", "Show all"),
    ]

    def __init__(self, call: ToolCall, store: LineStore | None) -> None:
        """Create the screen.

        Args:
            call: The call to show.
            store: Where to read the call's full lines from (``None``: summary only).
        """
        super().__init__()
        self.call = call
        self.store = store
        self.raw = False
        """Showing the raw JSON records instead of the laid-out result."""
        self.full = False
        """Showing every line of big payloads."""
        self.truncated = False
        """Something on show was cut to the display limits."""

    def compose(self) -> ComposeResult:
        """Title bar, the scrollable body (loading at first), the footer."""
        call = self.call
        status = call.status
        with Horizontal(id="detail-title"):
            heading = Text(one_line(call.kind, 60), style="bold")
            if call.target:
                heading.append("  ")
                heading.append(one_line(call.target, 2000))
            yield Static(heading, id="detail-heading")
            yield Static(
                f"{STATUS_MARK.get(status, '•')} {status}",
                id="detail-status",
                classes=f"-{status}",
                markup=False,
            )
            duration = format_duration(call.duration_ms)
            yield Static(duration, id="detail-duration", markup=False)
        meta = Text(f"#{call.index + 1}  call_id ", style="")
        meta.append(escaped_id(call.call_id))
        lines = [str(n) for n in (call.started_line, call.completed_line) if n is not None]
        if lines:
            meta.append(f"  ·  line{'s' if len(lines) > 1 else ''} {', '.join(lines)}")
        if call.approval:
            meta.append(f"  ·  {one_line(call.approval, 200)}")
        yield Static(meta, id="detail-meta")
        with ScrollableContainer(id="detail-body"):
            yield Static("loading…", id="detail-loading", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        """Start loading the call."""
        self.load()

    @work(thread=True, exclusive=True, name="load tool call")
    def load(self) -> None:
        """Read, parse and lay out the call off the UI thread."""
        sections = self.build_sections()
        self.app.call_from_thread(self.show_sections, sections)

    def build_sections(self) -> list[Section]:
        """The sections to show for the current mode (laid out or raw, capped or full)."""
        call = self.call
        records = load_records(call, self.store)
        if self.raw:
            if not records.raw:
                note = Text("the raw lines were not kept for this input", style="dim italic")
                return [Section("raw JSON", note)]
            return [payload_view.raw_json(records.raw, self.full)]
        sections = [payload_view.args_section(call.kind, records.args, records.description)]
        if records.outcome is None and not records.found and call.completed_line is not None:
            summary = Text(one_line(call.summary or call.status, 500))
            summary.append("\n(the full result was not kept for this input)", style="dim italic")
            sections.append(Section("result", summary))
            return sections
        if records.outcome is None and call.status != "running" and call.summary:
            sections.append(Section("result", Text(one_line(call.summary, 500))))
            return sections
        sections += payload_view.result_sections(
            call.kind,
            records.args,
            records.outcome,
            records.payload,
            approval=call.approval,
            full=self.full,
        )
        return sections

    def show_sections(self, sections: list[Section]) -> None:
        """Replace the body with ``sections``."""
        body = self.query_one("#detail-body", ScrollableContainer)
        with self.app.batch_update():
            body.remove_children()
            widgets: list[Static] = []
            for section in sections:
                if section.title:
                    widgets.append(
                        Static(section.title, classes="detail-section-title", markup=False)
                    )
                widgets.append(
                    Static(
                        section.body,
                        classes="detail-section" + ("" if section.wrap else " -nowrap"),
                    )
                )
            body.mount_all(widgets)
        self.truncated = any(section.truncated for section in sections)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """ "Show all" is offered only when something was cut."""
        if action == "show_all":
            return self.truncated and not self.full
        return True

    def _reload(self) -> None:
        body = self.query_one("#detail-body", ScrollableContainer)
        body.remove_children()
        body.mount(Static("loading…", id="detail-loading", markup=False))
        self.load()

    def action_close(self) -> None:
        """Go back to where the user came from."""
        self.dismiss()

    def action_toggle_raw(self) -> None:
        """Switch between the laid-out result and the raw JSON records."""
        self.raw = not self.raw
        self._reload()

    def action_show_all(self) -> None:
        """Render big payloads in full instead of their first lines."""
        if not self.full:
            self.full = True
            self._reload()
