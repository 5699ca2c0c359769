"""Search, as the viewer does it: ``/`` finds a text in the transcript, the tool calls'
targets, arguments and results, and the other sessions of the stream; ``n``/``N`` walk
the hits in that order (opening a call at the word, going on into the next session);
what a search has to say (no match, a broken regular expression) is in the status bar.

:class:`SearchActions` is a base of :class:`streamview.ui.frame.actions.ViewerActions`;
finding the hits is :mod:`streamview.ui.calls.search` and the transcript's own search.
"""

from __future__ import annotations

import time
from typing import Any

from textual import on, work
from textual.app import App
from textual.screen import Screen
from textual.widgets import Input

from streamview.core.state import StreamState
from streamview.core.textmatch import BadPattern, Matcher
from streamview.ui.calls.search import (
    TARGET,
    CallHit,
    find_in_calls,
    next_session,
    other_sessions_holding,
)
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.feed.reader import Feed
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text.safe_text import phrase, toast
from streamview.ui.transcript.searching import FIRST, LAST
from streamview.ui.transcript.transcript import Transcript

CALLS_WAIT_SECONDS = 1.0
"""The longest the calls' search sleeps at once for the transcript's walk (then it
reads a few more calls and sleeps again)."""


class SearchActions(App[int]):
    """The search box, the hits and ``n``/``N`` (the panes and state are the app's)."""

    transcript: Transcript
    tool_table: ToolCallTable
    search_box: Input
    filter_box: Input
    call_hits: list[CallHit]
    search_note: str | None
    other_sessions: list[int]
    search_at: int
    state: StreamState
    feed: Feed | PlaybackFeed
    session_index: int | None
    pinned: bool
    main_screen: Screen[Any] | None
    _calls_searched = True
    """The calls' search of the search on show is done (its hits are in ``call_hits``)."""
    _calls_waiting: tuple[int, str, int] | None = None
    """The calls' search to start when the transcript's walk is done: session, query, land."""
    _calls_land = 0
    """Where ``n`` arrived from (1, -1) for a search found only in the calls; 0: stay."""
    _text_hits = 0
    """The transcript's hits counted when the status bar last heard of them."""

    def show_session(self, index: int) -> None:
        """Show session ``index`` in every pane (the app's)."""
        raise NotImplementedError

    def refresh_status(self) -> None:
        """Recompute the status line (the app's)."""
        raise NotImplementedError

    def search_here(self) -> None:
        """Another session is shown (``[``, ``]``): the search on show finds its hits
        there, and which other sessions hold it, without moving the view."""
        query = self.transcript.query_text
        self.call_hits = []
        self.other_sessions = []
        self.search_note = None
        if not query or self.session_index is None:
            return
        self._calls_searched = False
        self._text_hits = 0
        self.transcript.begin_search(query)
        self.search_at = self.transcript.match_position - 1
        self._search_calls_after(self.session_index, query, land=0)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, message: Input.Submitted) -> None:
        transcript = self.transcript
        query = message.value
        try:
            Matcher.for_query(query)
        except BadPattern as error:
            self.search_box.display = False
            transcript.focus()
            self._say_in_status(str(error))
            return
        self.search_box.display = False
        transcript.focus()
        self._search_for(query)

    def _search_for(self, query: str) -> None:
        """Find ``query`` in the transcript (a slice at a time: :meth:`_search_progress`
        hears how far it got), then in the calls and other sessions."""
        transcript = self.transcript
        self.search_note = None
        self.call_hits = []
        self.other_sessions = []
        self.search_at = -1
        self._text_hits = 0
        self._calls_searched = not (query and self.session_index is not None)
        transcript.begin_search(query)
        if not self._calls_searched and self.session_index is not None:
            self._search_calls_after(self.session_index, query)
        self.refresh_status()

    def _say_in_status(self, note: str) -> None:
        """A search's news, in the status bar until the next search or escape: a toast
        would cover the status bar for seconds (and the count it speaks of)."""
        self.search_note = note
        self.refresh_status()

    def _search_calls_after(self, index: int, query: str, land: int = 1) -> None:
        """Search the calls (:meth:`_search_calls`) once the transcript's walk is done:
        both at once, the thread took the walk's turns at the interpreter (``/the`` on
        a 200 MB session took 1.7 times as long)."""
        self._calls_waiting = (index, query, land)
        self._search_calls_waiting()

    def _search_calls_waiting(self) -> None:
        """Start the calls' search waiting for the transcript's walk, if it is done."""
        waiting = self._calls_waiting
        if waiting is None or self.transcript.search_progress is not None:
            return
        self._calls_waiting = None
        if waiting[1] == self.transcript.query_text:
            self._search_calls(*waiting)

    @work(thread=True, exclusive=True, group="search calls", description="search tool calls")
    def _search_calls(self, index: int, query: str, land: int = 1) -> None:
        """The calls of session ``index`` that hold the text, and the other sessions
        that hold it; ``land`` says where ``n`` (1) or ``N`` (-1) arrived from (0: the
        view stays where it is)."""
        sessions = list(self.state.sessions)
        store = self.feed.store
        hits = find_in_calls(sessions[index], store, query, self._calls_wait)
        thinking = self.transcript.show_thinking
        holding = other_sessions_holding(sessions, store, query, index, thinking)
        self.call_from_thread(self._calls_found, query, hits, holding, land, index)

    def _calls_wait(self) -> None:
        """On the calls' search thread: sleep while the transcript's search walks (one
        after a resize, or after thinking is shown), so that the walk has the
        interpreter (at most :data:`CALLS_WAIT_SECONDS`)."""
        transcript = self.transcript
        until = time.monotonic() + CALLS_WAIT_SECONDS
        while transcript.search_progress is not None and time.monotonic() < until:
            time.sleep(0.02)

    def _calls_found(
        self,
        query: str,
        hits: list[CallHit],
        holding: list[int],
        land: int = 1,
        index: int | None = None,
    ) -> None:
        transcript = self.transcript
        if transcript.query_text != query or (index is not None and index != self.session_index):
            return  # another search, or another session, since
        self.call_hits = hits
        self.other_sessions = holding
        self._calls_searched = True
        self._calls_land = land
        self._settle_search()

    def on_transcript_search_progress(self, message: Transcript.SearchProgress) -> None:
        """The transcript's search found more, or ended: the count and the current hit
        in the status bar; at the end, what the whole search has to say."""
        self._sync_search_at()
        if message.done:
            self._search_calls_waiting()
            self._settle_search()
        else:
            self.refresh_status()

    def _sync_search_at(self) -> None:
        """The current hit as the transcript's search, still under way, left it: its
        hits come in any order, so the current one's number moves."""
        transcript = self.transcript
        counted, self._text_hits = self._text_hits, transcript.match_count
        if self.search_at >= counted:  # on a call's hit: after the transcript's, moved on
            self.search_at += self._text_hits - counted
        else:
            self.search_at = transcript.match_position - 1

    def _settle_search(self) -> None:
        """Both searches are done (the transcript's and the calls'): say what there is
        to say (no match, only in other sessions) or go to a call's hit."""
        transcript = self.transcript
        if transcript.search_progress is not None or not self._calls_searched:
            self.refresh_status()
            return
        query, hits, holding = transcript.query_text, self.call_hits, self.other_sessions
        land, self._calls_land = self._calls_land, 0
        if not query:
            pass
        elif not transcript.match_count and not hits and holding:
            where = ", ".join(str(i + 1) for i in holding[:3])
            self.search_note = f"“{query[:20]}” not in this session · n goes to session {where}"
        elif not transcript.match_count and not hits:
            if transcript.laying_out:
                # Long blocks still being laid out are searched when they arrive.
                self.search_note = f"no match for “{query[:20]}” yet: still laying out"
            else:
                self.search_note = f"no match for “{query[:40]}”"
        elif not transcript.match_count and land:
            self.search_at = -1 if land > 0 else len(hits)
            self._step_match(land)  # only in tool calls: go to the first (or the last)
        self.refresh_status()

    def search_status(self) -> str | None:
        """``“pytest” 3/17 · 2 in tool calls`` while a search is active (or what a
        search has to say: no match, a broken regular expression)."""
        if self.search_note:
            return self.search_note
        transcript = self.transcript
        if not transcript.query_text:
            return None
        self._sync_search_at()
        total = transcript.match_count + len(self.call_hits)
        text = f"“{transcript.query_text[:20]}” {self.search_at + 1 if total else 0}/{total}"
        progress = transcript.search_progress
        if progress is not None:  # before the rest: a narrow status bar cuts the end
            text += f" · searching… {int(progress * 100)} %"
        if self.call_hits:
            text += f" · {len(self.call_hits)} in tool calls"
        if self.other_sessions:
            shown = ", ".join(str(i + 1) for i in self.other_sessions[:3])
            more = len(self.other_sessions) - 3
            text += f" · also in session{'s' if len(self.other_sessions) > 1 else ''} {shown}"
            text += f" +{more}" if more > 0 else ""
        return text

    def action_search(self) -> None:
        """Open the search box."""
        if self.filter_box.has_focus:  # "/" is a priority key: paths hold it
            self.filter_box.insert_text_at_cursor("/")
            return
        search = self.search_box
        if search.has_focus:
            search.insert_text_at_cursor("/")
            return
        self.open_box(search)

    def open_box(self, box: Input) -> None:
        """Show the search or filter box under the panes and focus it.

        The boxes are mounted when first opened: two hidden inputs made every opening
        style and lay out two more widgets, and bounce the focus (Textual focused the
        first of them before the transcript) (issue 21.12).
        """
        if not box.is_attached and self.main_screen is not None:
            others = [self.search_box, self.filter_box]
            after = [other for other in others if other is not box and other.is_attached]
            # The search box first, as the keys list them; both right under the panes.
            if box is self.search_box and after:
                self.main_screen.mount(box, before=after[0])
            else:
                self.main_screen.mount(box, after=after[0] if after else "#panes")
        box.display = True
        # Focus now, not after a refresh: keys typed right after "/" belong to the box.
        self.screen.set_focus(box)

    def action_next_match(self) -> None:
        """Go to the next search match."""
        self._step_match(1)

    def action_previous_match(self) -> None:
        """Go to the previous search match."""
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        """The next (previous) hit: the transcript's matches, then the tool calls'."""
        transcript = self.transcript
        self._sync_search_at()
        in_text = transcript.match_count
        total = in_text + len(self.call_hits)
        if not 0 <= self.search_at + step < total and self._search_other_session(step):
            return
        if not total:
            query = transcript.query_text
            self.bell()
            self._say_in_status(
                f"no match for “{query[:40]}”" if query else "nothing searched yet: press /"
            )
            return
        self.search_note = None
        self.search_at = (self.search_at + step) % total
        self._close_details()
        if self.search_at < in_text:
            transcript.go_to_match(self.search_at)
        else:
            self._go_to_call_hit(self.call_hits[self.search_at - in_text])
        self.refresh_status()

    def _search_other_session(self, step: int) -> bool:
        """Past this session's last hit (before its first), go on in the next (previous)
        session that holds the text; False when no other one does."""
        current = self.session_index
        if current is None:
            return False
        count = len(self.state.sessions)
        target = next_session(self.other_sessions, current, step, count)
        if target is None:
            return False
        transcript = self.transcript
        query = transcript.query_text
        self._close_details()
        self.pinned = target != count - 1
        self.show_session(target)
        self.call_hits = []
        self.search_at = -1
        self._text_hits = 0
        self._calls_searched = False
        transcript.set_follow(False)
        transcript.begin_search(query, FIRST if step > 0 else LAST)
        transcript.focus()
        where = phrase(
            "session {n} of {count}: “{query}”", n=target + 1, count=count, query=query, limit=40
        )
        toast(self, where, timeout=2)
        self._search_calls_after(target, query, land=step)
        self.refresh_status()
        return True

    def _close_details(self) -> None:
        """Close the call details an earlier hit opened: the next hit is elsewhere."""
        from streamview.ui.details.screen import ToolCallDetailScreen

        while isinstance(self.screen, ToolCallDetailScreen):
            self.pop_screen()

    def _go_to_call_hit(self, hit: CallHit) -> None:
        """Put the table's cursor on the call; open it at the text if it is inside."""
        if self.session_index is None:
            return
        table = self.tool_table
        self.transcript.set_follow(False)
        table.focus()  # the transcript marks the call under the table's cursor
        table.select_call(hit.call_index)
        self.transcript.mark_call(hit.call_index)
        if hit.where == TARGET:
            return
        from streamview.ui.details.screen import ToolCallDetailScreen

        session = self.state.sessions[self.session_index]
        call = session.tool_calls[hit.call_index]
        query = self.transcript.query_text
        self.push_screen(ToolCallDetailScreen(call, self.feed.store, find=query, cwd=session.cwd))
