"""The Textual viewer: header, transcript, tool calls and status, fed by a background reader.

Events reach the UI in batches: the :class:`~streamview.ui.feed.reader.Feed` thread parses and
buffers, and once per frame the app drains everything pending, folds it into one
:class:`~streamview.core.state.StreamState` and repaints only what
:meth:`~streamview.core.state.StreamState.take_changes` says changed. While the reader
is far ahead (a huge file) the app folds only and repaints a few times a second.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container
from textual.events import Resize
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Input

from streamview.config.settings import Settings
from streamview.core.exit_status import exit_code_for
from streamview.core.state import Session, StreamState
from streamview.sources.base import InputError, Source, now_ms
from streamview.ui import STYLESHEET
from streamview.ui.calls import filter as call_filter
from streamview.ui.calls.search import CallHit
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.feed.gc import collect_between_frames, collection_due
from streamview.ui.feed.reader import Feed
from streamview.ui.frame import opening
from streamview.ui.frame.actions import ViewerActions
from streamview.ui.frame.controls import ViewerControls
from streamview.ui.frame.keys import APP_BINDINGS
from streamview.ui.frame.keys_footer import KeysFooter
from streamview.ui.frame.session_header import SessionHeader
from streamview.ui.frame.status_bar import StatusBar, StatusInfo
from streamview.ui.playback.controls import status_notes
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text import highlight
from streamview.ui.text.safe_text import phrase, safe, set_border_subtitle, set_border_title, toast
from streamview.ui.transcript.transcript import Transcript

FRAME_SECONDS = 1 / 30
"""How often pending events are folded in."""
EARLIEST_PUMP_SECONDS = 1 / 120
"""Events arriving after a quiet spell are folded at once, or once the last fold is this old."""
FOLD_BUDGET_SECONDS = 0.05
"""Time one frame may spend folding before it yields to the UI."""
BEHIND_SYNC_SECONDS = 0.5
"""While the reader is ahead, repaint at most this often."""
CATCHING_UP_EVENTS = 2_000
"""Folding this many events in one frame means reading a backlog, not a live run."""
WIDE_LAYOUT_COLUMNS = 150
"""From this width on, transcript and tool calls sit side by side."""
RATE_WINDOW_MS = 3_000
"""The lines/s shown is measured over this much recent time."""


class StreamviewApp(ViewerActions):
    """Watch one Cursor agent stream: live from a pipe, or replayed from a file.

    Args:
        source: Where the stream comes from.
        theme: A Textual theme name (``textual-dark``, ``textual-light``...).
        clock: The wall clock in epoch ms; tests pass a fixed one so nothing on screen
            depends on when they ran.
        feed: A ready-made feed (tests); by default one is made from ``source``.
        frame_seconds: How often pending events are folded in.
        agent: The dialect to read the stream as (``None``: recognised from its start).
        cwd_map: ``(OLD, NEW)`` directories from ``--cwd-map``: where ``o`` looks for a
            recorded path on this machine (the settings add theirs).
    """

    CSS_PATH = STYLESHEET
    TITLE = "streamview"

    BINDINGS: ClassVar[list[BindingType]] = APP_BINDINGS

    def __init__(
        self,
        source: Source,
        *,
        theme: str | None = None,
        clock: Callable[[], int] = now_ms,
        feed: Feed | PlaybackFeed | None = None,
        frame_seconds: float = FRAME_SECONDS,
        agent: str | None = None,
        cwd_map: Sequence[tuple[str, str]] = (),
    ) -> None:
        super().__init__()
        self.source = source
        self.cwd_map = list(cwd_map)
        self.clock = clock
        self.feed = feed or Feed(source, clock=clock, agent=agent)
        self.controls: ViewerControls | None = None
        """Playback, agent and export controls, installed on mount."""
        self.state = StreamState(track_changes=True)
        self.session_index: int | None = None
        """Index of the session on show (``None`` before the first one)."""
        self.pinned = False
        """The user picked an older session: do not jump to new ones."""
        self.read_error: str | None = None
        self._frame_seconds = frame_seconds
        self._last_sync = 0.0
        self._last_pump = 0.0
        self._early_pump: Timer | None = None
        """A fold asked for by arriving events, due shortly."""
        self._collect_pending = False
        """A garbage collection waits for the frame to reach the screen."""
        self._resting = False
        """The frame and clock timers are paused: nothing on screen can change."""
        self._rate_samples: deque[tuple[int, int]] = deque()
        self._header_count = 0
        """How many sessions the header's "i/n" counted."""
        self._announced_sessions = 0
        """Sessions the user has been shown or told about."""
        # The widgets of the main screen, kept here because App.query_one looks at
        # the active screen, which is the detail or log screen while one is open.
        self.header = SessionHeader(id="session-header")
        self.transcript = Transcript(id="transcript")
        set_border_title(self.transcript, phrase("Transcript"))
        self.tool_table = ToolCallTable(id="tool-calls", now_ms=clock())
        set_border_title(self.tool_table, phrase("Tool calls"))
        self.call_hits: list[CallHit] = []
        """Tool calls holding the searched text (after the transcript's matches)."""
        self.search_note: str | None = None
        """What the last search had to say (no match...): shown in the status bar."""
        self.other_sessions: list[int] = []
        """Other sessions of the stream that hold the searched text (``n`` goes on there)."""
        self.search_at = -1
        """The current hit among the transcript's matches, then the calls'."""
        self.search_box = Input(
            placeholder="/ search the transcript and tool calls (re: for a regular expression; "
            "enter: find, escape: close)",
            id="search",
        )
        self.filter_box = Input(
            placeholder="\\ show the tool calls whose target holds… (enter: filter, escape: all)",
            id="call-filter",
        )
        self.search_box.display = self.filter_box.display = False  # mounted when opened
        self.status_bar = StatusBar(id="status-bar")
        self.main_screen: Screen[Any] | None = None
        """The screen with the panes (set on mount; others are pushed over it)."""
        self.settings, self._settings_problem = Settings.load()
        """Remembered choices (theme, thinking, filter); flags win over them."""
        if theme is not None:
            if theme not in self.available_themes:
                known = ", ".join(sorted(self.available_themes))
                raise InputError(f"unknown theme {theme!r} (known: {known})")
            self.theme = theme
        elif self.settings.theme in self.available_themes:
            self.theme = self.settings.theme or self.theme

    # -- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Header, the two panes, status and footer (the search and filter boxes are
        mounted under the panes when first opened)."""
        yield self.header
        with Container(id="panes"):
            yield self.transcript
            yield self.tool_table
        yield self.status_bar
        yield KeysFooter()

    def on_mount(self) -> None:
        """Start reading, fold every frame, and tick the clock every second."""
        highlight.hold()  # no lexer competes with the first screen (see opening)
        self.set_timer(opening.HIGHLIGHT_AT_THE_LATEST_SECONDS, highlight.release)
        self.transcript.focus()
        self.main_screen = self.screen
        self._apply_width(self.size.width)
        if isinstance(self.feed, Feed):
            # post_message is thread-safe; the handler runs in the app like any message.
            self.feed.on_arrival = lambda: self.post_message(self.EventsArrived())
        folded_now = opening.fold_small_file(self.source, self.feed)
        if not folded_now:  # read once the first frame is up (see opening)
            self.call_after_refresh(self.feed.start)
        self.controls = ViewerControls(
            self,
            self.source,
            self.feed,
            state=lambda: self.state,
            pump=self.pump,
            rewind=self.start_over,
        )
        self.controls.install()
        self.watch(self.screen, "focused", self._focus_moved, init=False)
        self._apply_settings()
        self._pump_timer = self.set_interval(self._frame_seconds, self.pump, name="pump")
        self._tick_timer = self.set_interval(1.0, self.tick, name="tick")
        if folded_now:
            self.pump()  # the first frame shows the file, not empty panes before it
        self.refresh_status()

    def on_resize(self, event: Resize) -> None:
        """Side by side on wide terminals, stacked otherwise."""
        self._apply_width(event.size.width)

    def _apply_width(self, width: int) -> None:
        if self.main_screen is not None:
            self.main_screen.set_class(width >= WIDE_LAYOUT_COLUMNS, "-wide")

    def start_over(self) -> None:
        """Show a fresh state, from no session on (playback went back: the feed hands
        out the events again)."""
        self.state = StreamState(track_changes=True)
        self.session_index = None
        self.pinned = False

    def action_playback(self, command: str) -> None:
        """Playback, agent and export keys: see :mod:`streamview.ui.frame.controls`."""
        self.wake()  # a playback key may start things moving
        if self.controls is not None:
            self.controls.run(command)
            self.refresh_status()  # playing, paused, where: not a tick later

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Ctrl+C is "stop the agent" only while one runs; otherwise Textual's own."""
        if action == "playback":
            controls = self.controls
            if controls is None:
                return False
            if parameters == ("interrupt",):
                # With text selected, ctrl+c copies it (Textual's key) and the agent runs on.
                return controls.can_interrupt() and not self.screen.selections
            # Export works everywhere; the other playback keys need a file played back.
            return parameters == ("export",) or controls.playback is not None
        if action in ("previous_session", "next_session") and len(self.state.sessions) < 2:
            return False
        return self.works_here(action)

    async def action_quit(self) -> None:
        """Stop the reader (it polls, so this is quick) and leave."""
        self.feed.stop(timeout=0.5)
        self.exit(self.exit_code)

    @property
    def exit_code(self) -> int:
        """0 when the last session succeeded, 1 otherwise."""
        return exit_code_for(self.state)

    # -- feeding ------------------------------------------------------------------------

    class EventsArrived(Message):
        """The reader put events into an empty buffer (sent at most once per fold)."""

    def on_streamview_app_events_arrived(self, message: EventsArrived) -> None:
        """Events came after a quiet spell: fold them now, or once the last fold is
        :data:`EARLIEST_PUMP_SECONDS` old (not at the next frame: a line streamed in
        just after a fold would wait a whole frame for nothing)."""
        self.wake()
        wait = EARLIEST_PUMP_SECONDS - (time.perf_counter() - self._last_pump)
        if wait <= 0:
            self.pump()
        elif self._early_pump is None:
            self._early_pump = self.set_timer(wait, self._pump_early, name="early-pump")

    def _pump_early(self) -> None:
        self._early_pump = None
        self.pump()

    def wake(self) -> None:
        """Frames and the clock run again (events came, or a key may start a playback)."""
        if self._resting:
            self._resting = False
            self._pump_timer.resume()
            self._tick_timer.resume()
            if self.controls is not None:
                self.controls.timer.resume()

    def _rest_if_idle(self, folded: int, more: bool) -> None:
        """Stop the frame and clock timers while nothing on screen can change: the
        input is over and folded, no playback moves and no agent runs. A key, or news
        from the reader, wakes them (:meth:`wake`)."""
        feed = self.feed
        if folded or more or not self.state.ended:
            return
        if isinstance(feed, PlaybackFeed) and (
            feed.playing or feed.indexing or not (feed.loaded or feed.folded)
        ):
            return
        controls = self.controls
        if controls is not None and (controls.can_interrupt() or controls.waiting):
            return  # the agent's panel counts its time; keys wait for the index
        if not self._resting:
            self._resting = True
            self.tick()  # the last word: durations, the status, the panel
            if controls is not None:
                controls.refresh()
                controls.timer.pause()
            self._pump_timer.pause()
            self._tick_timer.pause()

    def pump(self) -> None:
        """Fold every pending event (within a time budget) and repaint what changed."""
        self._last_pump = time.perf_counter()
        self.wake()
        feed = self.feed
        state = self.state
        apply = state.apply
        started = time.perf_counter()
        folded = 0
        while True:
            batch = feed.drain(limit=5_000)
            if batch.state is not None:
                # A state folded on the reader's thread: show it as after a rewind.
                self.state = state = batch.state
                apply = state.apply
                self.session_index = None
                self.pinned = False
            for event in batch.events:
                apply(event)
            folded += len(batch.events)
            if not batch.more or time.perf_counter() - started > FOLD_BUDGET_SECONDS:
                break
        if folded and isinstance(feed, Feed):
            feed.pack_blocks(state.sessions, state.notices)
        if batch.error and self.read_error is None:
            self.read_error = batch.error
        if batch.ended and not state.ended:
            state.counts.blank += feed.blank_lines
            notice = self.source.ended_notice()  # what --redact removed: the event log's
            if notice is not None:
                state.notices.append(notice)
            state.finish()
            self.run_ended()
        elif batch.more or folded >= CATCHING_UP_EVENTS:
            # Far behind (a big file): fold on at once, repaint only now and then.
            if batch.more:
                self.call_later(self.pump)
            if time.perf_counter() - self._last_sync < BEHIND_SYNC_SECONDS:
                return
        self.sync()
        if collection_due() and not self._collect_pending:
            self._collect_pending = True
            self.call_after_refresh(self._collect)
        self._rest_if_idle(folded, batch.more)

    def _collect(self) -> None:
        """The frame is on screen: collect garbage now (:mod:`streamview.ui.feed.gc`)."""
        self._collect_pending = False
        collect_between_frames()

    def sync(self) -> None:
        """Repaint the widgets the latest changes touch."""
        self._last_sync = time.perf_counter()
        state = self.state
        changes = state.take_changes()
        if not changes and self.session_index is not None:
            return
        self._note_rate()
        if state.sessions:
            newest = len(state.sessions) - 1
            if self.session_index is None or (
                not self.pinned and self.transcript.following and self.session_index != newest
            ):
                first = self.session_index is None
                self.show_session(newest)
                self.refresh_status()
                if first:  # colour code once this screen is painted (see opening)
                    self.set_timer(opening.HIGHLIGHT_AFTER_SECONDS, highlight.release)
                return
            if newest + 1 > self._announced_sessions and self.session_index != newest:
                # Paused or pinned: say so rather than pull the view away.
                started = phrase("session {n} started · ] or f to show it", n=newest + 1)
                toast(self, started, timeout=4)
        self._announced_sessions = len(state.sessions)
        index = self.session_index
        if index is None:
            transcript = self.transcript
            if transcript.session is not None:  # the state was started over
                transcript.show_session(None)
                self.tool_table.show_session(None)
                self.header.show(None, (0, 0))
            self.header.set_ended(state.ended)
            for pane in (self.transcript, self.tool_table):  # "waiting…" notes: no more
                if pane.input_ended != state.ended:
                    pane.input_ended = state.ended
                    pane.refresh()
            self.refresh_status()
            return
        session = state.sessions[index]
        if index in changes.sessions or len(state.sessions) != self._header_count:
            self._show_header()
            # An outcome arrived: "waiting…"/"yet" notes of empty panes change wording.
            self.transcript.refresh()
            self.tool_table.refresh()
        calls = [call for s, call in changes.calls if s == index]
        if index in changes.transcript or calls:
            self.transcript.sync(calls)
        if calls:  # a call that started since the last tick is timed from now, not then
            self.tool_table.tick(self.clock())
            self.tool_table.refresh_calls(calls)
            self._title_table(session)
        self.refresh_status()

    def tick(self) -> None:
        """Once a second: running calls' timers and the idle counter move on."""
        self.tool_table.tick(self.clock())
        self.refresh_status()

    def show_session(self, index: int) -> None:
        """Show session ``index`` in every pane."""
        session = self.state.sessions[index]
        self.session_index = index
        self._show_header()
        self.transcript.show_session(session)
        table = self.tool_table
        table.tick(self.clock())
        table.show_session(session)
        table.follow_newest(self.table_follows())
        self._title_table(session)

    def _show_header(self) -> None:
        if self.session_index is None:
            return
        if len(self.state.sessions) != self._header_count:
            self._header_count = len(self.state.sessions)
            self.refresh_bindings()  # the session keys appear with a second session
        self.header.show(
            self.state.sessions[self.session_index],
            (self.session_index + 1, len(self.state.sessions)),
        )

    def _title_table(self, session: Session) -> None:
        table = self.tool_table
        title = call_filter.session_title(session.tool_calls, table.row_count, table.call_filter)
        set_border_title(table, safe(title))  # the kind and text filter are the stream's

    def _note_rate(self) -> None:
        now = self.clock()
        samples = self._rate_samples
        samples.append((now, self.state.counts.total))
        while samples and now - samples[0][0] > RATE_WINDOW_MS:
            samples.popleft()

    def _rate(self) -> float | None:
        samples = self._rate_samples
        if len(samples) < 2:
            return None
        (start, first), (end, last) = samples[0], samples[-1]
        if end - start < 500 or last < first:  # too short, or the state was started over
            return None
        return (last - first) * 1000 / (end - start)

    def refresh_status(self) -> None:
        """Recompute and show the status line."""
        state = self.state
        session = state.sessions[self.session_index] if self.session_index is not None else None
        live = self.source.live
        playback = replaying = None
        feed = self.feed
        if isinstance(feed, PlaybackFeed):
            # A playback shows the run as it went: idle, calls still open; playing, that
            # it plays (not "streaming"); paused before the end, where it stopped.
            live = feed.loaded
            if self.controls is not None:
                self.controls.refresh()  # the bar's "event n" and the counts: one moment
            playback, replaying = status_notes(feed)
        idle = None
        if live and state.last_event_ms is not None:
            idle = max(0, self.clock() - state.last_event_ms)
        transcript = self.transcript
        search = self.search_status()
        self.status_bar.show(
            StatusInfo(
                session=session,
                counts=state.counts,
                live=live,
                ended=state.ended,
                error=self.read_error,
                idle_ms=idle,
                rate=self._rate(),
                bytes_read=self.feed.bytes_read,
                loading=self._preview_progress(),
                unseen=transcript.unseen,
                following=transcript.following,
                search=search,
                playback=playback,
                replaying=replaying,
            )
        )
        paused = phrase("paused · f to follow") if not transcript.following else None
        unseen = phrase("▼ new content · f to follow") if transcript.unseen else None
        set_border_subtitle(transcript, unseen or paused)

    def _preview_progress(self) -> float | None:
        """Share of the file read, while the state shown is a big file's preview."""
        feed = self.feed
        if isinstance(feed, PlaybackFeed) and feed.is_preview(self.state):
            return feed.progress or 0.0
        return None
