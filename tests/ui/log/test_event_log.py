"""The event log: malformed lines, unknown records and notices, in line order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from msgspec.structs import replace
from rich.console import Console
from textual.app import App
from textual.widgets import Static

from streamview.core.events import ConnectionNotice
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.ui.details.section_view import SectionView
from streamview.ui.log.event_log import (
    MALFORMED,
    NOTICE,
    UNKNOWN,
    EntryFollower,
    EventEntryScreen,
    EventLogList,
    EventLogScreen,
    describe_counts,
    log_entries,
)

from ..conftest import settle_sections

REPO = Path(__file__).resolve().parents[3]
STYLESHEET = REPO / "streamview" / "ui" / "streamview.tcss"
CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"

LONG_TAIL = "END-OF-THE-LONG-LINE"
STREAM = b"\n".join(
    [
        b'{"type":"system","subtype":"init","session_id":"s1","model":"GPT-5"}',
        b"T: \x1b[31mfree plan\x1b[0m \x1b]52;c;aGk=\x07 banner",
        b'{"type":"connection","subtype":"reconnecting","attempt":1,"session_id":"s1"}',
        b'{"type":"plasma","subtype":"burst","note":"\\u001b[2Jhi","session_id":"s1"}',
        b'{"type":"assistant","message":{"content":[{"type":"text","text":"hi"}]},"session_id":"s1"}',
        b'{"broken": ' + b"x" * 9_000 + LONG_TAIL.encode(),
        b'{"type":"retry","subtype":"starting","is_resume":true,"session_id":"s1"}',
        b'{"type":"hologram","session_id":"s1"}',
        b"[1, 2, 3]",
    ]
)


def fold(data: bytes) -> tuple[StreamState, LineStore]:
    """Fold ``data`` keeping its lines in a memory store."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


class LogApp(App[None]):
    """A host that opens the event log."""

    CSS_PATH = STYLESHEET

    def __init__(self, state: StreamState, store: LineStore | None) -> None:
        super().__init__()
        self.state = state
        self.store = store

    def on_mount(self) -> None:
        self.push_screen(EventLogScreen(self.state, self.store))


def list_rows(widget: EventLogList) -> list[str]:
    """The list's screen lines as text."""
    return [widget.render_line(y).text for y in range(widget.size.height)]


def static_text(screen: Any) -> str:
    """All the text of a screen's Static widgets and laid-out sections."""
    console = Console(width=200)
    parts = []
    for widget in screen.query(Static):
        content = widget.content
        if isinstance(content, str):
            parts.append(content)
        else:
            parts.append("".join(s.text for s in console.render(content, console.options)))
    for view in screen.query(SectionView):
        parts.append(view.text)
    return "\n".join(parts)


def test_entries_are_in_line_order_with_counts() -> None:
    state, _ = fold(STREAM)
    entries = log_entries(state)
    assert [(e.line, e.kind) for e in entries] == [
        (2, MALFORMED),
        (3, NOTICE),
        (4, UNKNOWN),
        (6, MALFORMED),
        (7, NOTICE),
        (8, UNKNOWN),
        (9, MALFORMED),
    ]
    assert entries[2].label == "plasma/burst"
    assert entries[4].label.startswith("retry/starting")
    assert describe_counts(state) == (
        "3 malformed lines · 2 unknown records · 2 notices  (of 9 lines)"
    )
    for entry in entries:
        assert "\x1b" not in entry.preview and "\x07" not in entry.preview
        assert "\n" not in entry.preview and "\n" not in entry.label


async def test_log_lists_every_entry_inert_and_opens_the_whole_line() -> None:
    state, store = fold(STREAM)
    app = LogApp(state, store)
    async with app.run_test(size=(100, 16)) as pilot:
        await pilot.pause()
        widget = app.screen.query_one(EventLogList)
        rows = list_rows(widget)
        assert "line" in rows[0] and "kind" in rows[0]
        assert rows[1].split()[:2] == ["2", "malformed"]
        assert "T: free plan ␛]52;c;aGk=␇ banner" in rows[1]  # colour dropped, OSC inert
        assert rows[3].split()[:3] == ["4", "unknown", "plasma/burst"]
        assert all("\x1b" not in "".join(s.text for s in widget.render_line(y)) for y in range(16))
        assert LONG_TAIL not in rows[4]  # the preview is cut to the width
        assert "3 malformed lines" in static_text(app.screen)
        widget.focus()
        await pilot.press("down", "down", "down", "enter")
        await settle_sections(app, pilot)
        assert isinstance(app.screen, EventEntryScreen)
        text = static_text(app.screen)
        assert LONG_TAIL not in text and "9,031 bytes" in text
        assert "long line cut at 5,000 characters (press a to show all" in text.replace("\n", "")
        await pilot.press("a")
        await settle_sections(app, pilot)
        assert LONG_TAIL in static_text(app.screen).replace("\n", "")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EventLogScreen)
        await pilot.press("up", "enter")
        await settle_sections(app, pilot)
        text = static_text(app.screen)
        assert '"subtype": "burst"' in text and '"note": "␛[2Jhi"' in text
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, (EventLogScreen, EventEntryScreen))


async def test_thousands_of_bad_lines_scroll_to_the_end() -> None:
    state, store = fold(b"\n".join(b"not json %d" % n for n in range(5_000)))
    app = LogApp(state, store)
    async with app.run_test(size=(80, 20)) as pilot:
        await pilot.pause()
        widget = app.screen.query_one(EventLogList)
        widget.focus()
        await pilot.press("end")
        await pilot.pause()
        assert widget.cursor == 4_999
        assert list_rows(widget)[-1].split()[:2] == ["5000", "malformed"]
        assert "not json 4999" in list_rows(widget)[-1]


async def test_an_empty_log_says_so_and_refresh_picks_up_new_entries() -> None:
    state, store = fold(b'{"type":"system","subtype":"init","session_id":"s"}')
    app = LogApp(state, store)
    async with app.run_test(size=(80, 10)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, EventLogScreen)
        widget = screen.query_one(EventLogList)
        assert "nothing unusual" in list_rows(widget)[1]
        # The stream folded above goes on: the reader numbers on from its line.
        reader = EventReader(store, agent=store.agent)
        reader.feed(b'{"type":"system","subtype":"init","session_id":"s"}\n')
        for event in reader.feed(b"garbage\n"):
            state.apply(event)
        await pilot.pause(0.7)  # the screen looks for new entries twice a second
        assert "garbage" in list_rows(widget)[1]
        assert "1 malformed line ·" in static_text(screen)
        for event in reader.feed(b'{"type":"mystery"}\n'):
            state.apply(event)
        screen.refresh_entries()
        await pilot.pause()
        assert list_rows(widget)[2].split()[1:3] == ["unknown", "mystery"]


def test_real_connection_and_retry_notices_are_listed() -> None:
    name = "unknownrepo_cursor-agent-2026.07.23_test-fixture-lines.ndjson"
    state, _ = fold((CAPTURES / name).read_bytes())
    kinds = [(e.kind, e.label.split(" ")[0]) for e in log_entries(state)]
    assert (NOTICE, "connection/reconnecting") in kinds and (NOTICE, "retry/starting") in kinds


def test_snapshot_event_log(snap_compare: Any) -> None:
    """Counts on top, a header row, then malformed lines (red), notices and unknown
    records (amber) in line order with inert one-line previews; cursor on the first."""
    state, store = fold(STREAM)
    assert snap_compare(LogApp(state, store), terminal_size=(100, 14))


def test_the_follower_adds_new_entries_in_line_order() -> None:
    state, _ = fold(b"bad one\n")
    follower = EntryFollower(state)
    assert [e.line for e in follower.entries] == [1]
    assert not follower.update()
    reader = EventReader()
    events = reader.feed(b"x\n" * 3)
    for number, event in enumerate(events, 2):
        state.apply(replace(event, line=number))
    assert follower.update()
    assert [e.line for e in follower.entries] == [1, 2, 3, 4]
    state.notices.append(ConnectionNotice(line=3, subtype="reconnecting"))  # out of order
    assert follower.update()
    assert [(e.line, e.kind) for e in follower.entries][2:4] == [(3, MALFORMED), (3, NOTICE)]
    state.malformed.clear()  # a rebuilt state
    assert follower.update()
    assert [(e.line, e.kind) for e in follower.entries] == [(3, NOTICE)]
    assert follower.entries[0].preview == ""
