"""What the viewer does when asked: keys, palette commands and the panes' messages.

:class:`ViewerActions` is the base of :class:`streamview.ui.app.StreamviewApp`: the
actions its bindings name (search, thinking, follow, sessions, event log, help), the
command palette's entries, and the messages the panes send (a call to open, the table's
cursor, follow mode). The app on top of it owns the panes, the feed and the fold.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from textual import on, work
from textual.app import App, SystemCommand
from textual.events import Key
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from streamview.core.state import Session, StreamState, ToolCall
from streamview.core.textmatch import BadPattern, Matcher
from streamview.settings import Settings
from streamview.ui import handoff
from streamview.ui.call_filter import STATUS_GROUPS, CallFilter
from streamview.ui.commands import palette_commands, pane_commands, viewer_help
from streamview.ui.feed import Feed
from streamview.ui.help import HelpScreen
from streamview.ui.playback import PlaybackFeed
from streamview.ui.search_calls import (
    TARGET,
    CallHit,
    find_in_calls,
    next_session,
    other_sessions_holding,
)
from streamview.ui.selection import amount, copy_target, copy_with_note
from streamview.ui.tool_table import ToolCallTable
from streamview.ui.transcript import Transcript


class ViewerActions(App[int]):
    """The viewer's actions and message handlers (the panes and feed are the app's)."""

    transcript: Transcript
    tool_table: ToolCallTable
    search_box: Input
    settings: Settings
    _settings_problem: str | None
    call_hits: list[CallHit]
    search_note: str | None
    other_sessions: list[int]
    search_at: int
    filter_box: Input
    state: StreamState
    feed: Feed | PlaybackFeed
    session_index: int | None
    pinned: bool
    main_screen: Screen[Any] | None

    def show_session(self, index: int) -> None:
        """Show session ``index`` in every pane (the app's)."""
        raise NotImplementedError

    def refresh_status(self) -> None:
        """Recompute the status line (the app's)."""
        raise NotImplementedError

    def action_playback(self, command: str) -> None:
        """Playback, agent and export keys (the app's)."""
        raise NotImplementedError

    def _preview_progress(self) -> float | None:
        raise NotImplementedError

    def _title_table(self, session: Session) -> None:
        raise NotImplementedError

    @on(Transcript.EndPressed)
    def _end_pressed(self, message: Transcript.EndPressed) -> None:
        feed = self.feed
        if isinstance(feed, PlaybackFeed) and feed.loaded and feed.position < feed.total:
            self.action_playback("end")

    @on(Transcript.FollowChanged)
    def _follow_changed(self, message: Transcript.FollowChanged) -> None:
        self.refresh_status()

    def _focus_moved(self, focused: Widget | None) -> None:
        """The table's cursor is marked in the transcript while the table has focus."""
        table = self.tool_table
        self.transcript.mark_call(table.cursor_call if focused is table else None)

    @on(ToolCallTable.Highlighted)
    def _call_highlighted(self, message: ToolCallTable.Highlighted) -> None:
        table = self.tool_table
        self.transcript.mark_call(message.call_index if table.has_focus else None)

    @on(Transcript.CallInView)
    def _call_in_view(self, message: Transcript.CallInView) -> None:
        """Scrolling the transcript moves the table's cursor to the call on screen."""
        if not self.tool_table.has_focus:
            self.tool_table.select_call(message.call_index)

    @on(Transcript.OpenCall)
    @on(ToolCallTable.OpenDetail)
    def _open_detail(self, message: ToolCallTable.OpenDetail | Transcript.OpenCall) -> None:
        if self.session_index is None:
            return
        if self._preview_progress() is not None:
            self.notify("still loading the file…", timeout=1.5)
            return
        session = self.state.sessions[self.session_index]
        if not 0 <= message.call_index < len(session.tool_calls):
            return
        from streamview.ui.detail import ToolCallDetailScreen

        self.push_screen(
            ToolCallDetailScreen(session.tool_calls[message.call_index], self.feed.store)
        )

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
        self.search_note = None
        count = transcript.search(query)
        self.search_box.display = False
        transcript.focus()
        self.call_hits = []
        self.other_sessions = []
        self.search_at = transcript.match_position - 1
        if query and self.session_index is not None:
            self._search_calls(self.session_index, query)
        elif query and not count:
            self.search_note = f"no match for “{query[:40]}”"
        self.refresh_status()

    def _say_in_status(self, note: str) -> None:
        """A search's news, in the status bar until the next search or escape: a toast
        would cover the status bar for seconds (and the count it speaks of)."""
        self.search_note = note
        self.refresh_status()

    @work(thread=True, exclusive=True, group="search calls", description="search tool calls")
    def _search_calls(self, index: int, query: str, land: int = 1) -> None:
        """The calls of session ``index`` that hold the text, and the other sessions
        that hold it; ``land`` says where ``n`` (1) or ``N`` (-1) arrived from."""
        sessions = list(self.state.sessions)
        store = self.feed.store
        hits = find_in_calls(sessions[index], store, query)
        thinking = self.transcript.show_thinking
        holding = other_sessions_holding(sessions, store, query, index, thinking)
        self.call_from_thread(self._calls_found, query, hits, holding, land)

    def _calls_found(
        self, query: str, hits: list[CallHit], holding: list[int], land: int = 1
    ) -> None:
        transcript = self.transcript
        if transcript.query_text != query:
            return  # another search since
        self.call_hits = hits
        self.other_sessions = holding
        if not transcript.match_count and not hits and holding:
            where = ", ".join(str(i + 1) for i in holding[:3])
            self.search_note = f"“{query[:20]}” not in this session · n goes to session {where}"
        elif not transcript.match_count and not hits:
            if transcript.laying_out:
                # Long blocks still being laid out are searched when they arrive.
                self.search_note = f"no match for “{query[:20]}” yet: still laying out"
            else:
                self.search_note = f"no match for “{query[:40]}”"
        elif not transcript.match_count:
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
        total = transcript.match_count + len(self.call_hits)
        text = f"“{transcript.query_text[:20]}” {self.search_at + 1 if total else 0}/{total}"
        if self.call_hits:
            text += f" · {len(self.call_hits)} in tool calls"
        if self.other_sessions:
            shown = ", ".join(str(i + 1) for i in self.other_sessions[:3])
            more = len(self.other_sessions) - 3
            text += f" · also in session{'s' if len(self.other_sessions) > 1 else ''} {shown}"
            text += f" +{more}" if more > 0 else ""
        return text

    def on_key(self, event: Key) -> None:
        """Escape closes the search or filter box, or else clears the search's highlights."""
        if event.key != "escape" or self.screen is not self.main_screen:
            return
        if self.filter_box.has_focus:
            event.stop()
            self.filter_box.display = False
            self.tool_table.focus()
            return
        search = self.search_box
        if search.has_focus:
            event.stop()
            search.display = False
            self.transcript.focus()
        elif self.transcript.query_text or self.search_note:
            event.stop()
            self.search_note = None
            self.call_hits = []
            self.other_sessions = []
            self.transcript.clear_search()
            self.refresh_status()

    def action_help(self) -> None:
        """Show every key."""
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(viewer_help(self)))

    def action_search(self) -> None:
        """Open the search box."""
        if self.filter_box.has_focus:  # "/" is a priority key: paths hold it
            self.filter_box.insert_text_at_cursor("/")
            return
        search = self.search_box
        if search.has_focus:
            search.insert_text_at_cursor("/")
            return
        search.display = True
        # Focus now, not after a refresh: keys typed right after "/" belong to the box.
        self.screen.set_focus(search)

    def action_next_match(self) -> None:
        """Go to the next search match."""
        self._step_match(1)

    def action_previous_match(self) -> None:
        """Go to the previous search match."""
        self._step_match(-1)

    def _step_match(self, step: int) -> None:
        """The next (previous) hit: the transcript's matches, then the tool calls'."""
        transcript = self.transcript
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
        found = transcript.search(query)
        self.call_hits = []
        self.search_at = -1
        if found:
            self.search_at = 0 if step > 0 else found - 1
            transcript.set_follow(False)
            transcript.go_to_match(self.search_at)
            transcript.focus()
        self.notify(f"session {target + 1} of {count}: “{query[:40]}”", timeout=2)
        self._search_calls(target, query, land=step if not found else 0)
        self.refresh_status()
        return True

    def _close_details(self) -> None:
        """Close the call details an earlier hit opened: the next hit is elsewhere."""
        from streamview.ui.detail import ToolCallDetailScreen

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
        from streamview.ui.detail import ToolCallDetailScreen

        call = self.state.sessions[self.session_index].tool_calls[hit.call_index]
        query = self.transcript.query_text
        self.push_screen(ToolCallDetailScreen(call, self.feed.store, find=query))

    @on(ToolCallTable.FilterChanged)
    def _filter_changed(self, message: ToolCallTable.FilterChanged) -> None:
        if self.session_index is not None:
            self._title_table(self.state.sessions[self.session_index])
        chosen = self.tool_table.call_filter
        self._remember(
            filter_status=chosen.status, filter_kind=chosen.kind, filter_text=chosen.text
        )

    # -- settings that persist --------------------------------------------------------

    def _apply_settings(self) -> None:
        """On mount: thinking and the filter as they were left (the theme is set already)."""
        settings = self.settings
        if self._settings_problem:
            self.notify(self._settings_problem, severity="warning", timeout=5)
        if not settings.show_thinking:
            self.transcript.set_show_thinking(False)
        chosen = CallFilter(settings.filter_status, settings.filter_kind, settings.filter_text)
        if chosen.status not in (None, *STATUS_GROUPS):
            chosen = replace(chosen, status=None)
        if chosen.active:
            self.tool_table.set_filter(chosen)
        self.watch(self, "theme", lambda theme: self._remember(theme=theme), init=False)

    def _remember(self, **changes: Any) -> None:
        """Change settings and save them (a failure to save is said once)."""
        settings = self.settings
        if all(getattr(settings, name) == value for name, value in changes.items()):
            return
        for name, value in changes.items():
            setattr(settings, name, value)
        problem = settings.save()
        if problem and not self._settings_problem:
            self._settings_problem = problem
            self.notify(problem, severity="warning", timeout=5)

    def action_filter_text(self) -> None:
        """Open the box that filters the tool calls by text."""
        box = self.filter_box
        box.display = True
        box.value = self.tool_table.call_filter.text
        self.screen.set_focus(box)

    @on(Input.Submitted, "#call-filter")
    def _filter_submitted(self, message: Input.Submitted) -> None:
        table = self.tool_table
        self.filter_box.display = False
        table.set_filter(replace(table.call_filter, text=message.value.strip()))
        table.focus()

    def _chosen_call(self) -> ToolCall | None:
        """The call a hand-off key acts on: the one in the details, else the table's."""
        screen = self.screen
        call = getattr(screen, "call", None)
        if isinstance(call, ToolCall):
            return call
        table = self.tool_table
        if table.cursor_call is None or self.session_index is None:
            return None
        return self.state.sessions[self.session_index].tool_calls[table.cursor_call]

    def action_open_file(self) -> None:
        """Open the file the chosen call touched in $EDITOR (at the line, when known)."""
        call = self._chosen_call()
        if call is None:
            self.notify("pick a tool call first (tab, then ↑ ↓)", timeout=3)
            return
        session = (
            self.state.sessions[self.session_index] if self.session_index is not None else None
        )
        found = handoff.file_of(call, session.cwd if session is not None else None)
        if found is None:
            self.notify(f"a {call.kind} call touches no file", timeout=3)
            return
        path, line = found
        problem = handoff.run_suspended(self, handoff.editor_command(path, line))
        if problem:
            self.notify(problem, severity="error", timeout=5)

    def action_page_result(self) -> None:
        """Show the chosen call's whole result in $PAGER."""
        call = self._chosen_call()
        if call is None:
            self.notify("pick a tool call first (tab, then ↑ ↓)", timeout=3)
            return
        text = handoff.result_text(call, self.feed.store)
        problem = handoff.run_suspended(self, handoff.pager_command(), stdin_text=text)
        if problem:
            self.notify(problem, severity="error", timeout=5)

    def action_copy(self) -> None:
        """Copy the selected text, else the target of the tool call under the cursor."""
        text = self.screen.get_selected_text()
        if text:
            copy_with_note(self, text, amount(text))
            return
        table = self.tool_table
        if table.has_focus and table.cursor_call is not None and self.session_index is not None:
            call = self.state.sessions[self.session_index].tool_calls[table.cursor_call]
            if copy_target(self, call):
                return
        self.notify(
            "nothing to copy: drag over text to select it, or pick a tool call (tab)", timeout=3
        )

    def action_toggle_thinking(self) -> None:
        """Show or hide thinking blocks."""
        transcript = self.transcript
        transcript.set_show_thinking(not transcript.show_thinking)
        self._remember(show_thinking=transcript.show_thinking)
        self.notify(
            "thinking shown" if transcript.show_thinking else "thinking hidden", timeout=1.5
        )

    def action_toggle_follow(self) -> None:
        """Follow the newest content, or stop following it."""
        transcript = self.transcript
        transcript.set_follow(not transcript.following)
        if transcript.following and self.state.sessions:
            # Following means the newest content: of the newest session too.
            self.pinned = False
            newest = len(self.state.sessions) - 1
            if self.session_index != newest:
                self.show_session(newest)
                self.refresh_status()

    def action_event_log(self) -> None:
        """Open the event log: malformed lines, unknown records, connection notices."""
        from streamview.ui.event_log import EventLogScreen

        self.push_screen(EventLogScreen(self.state, self.feed.store))

    def action_previous_session(self) -> None:
        """Show the session before this one."""
        self._switch_session(-1)

    def action_next_session(self) -> None:
        """Show the session after this one."""
        self._switch_session(1)

    def _switch_session(self, step: int) -> None:
        if self.session_index is None:
            return
        target = self.session_index + step
        count = len(self.state.sessions)
        if not 0 <= target < count:
            self.bell()
            return
        self.pinned = target != count - 1
        self.show_session(target)
        self.refresh_status()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, then every key's action where the palette was opened."""
        titles = set()
        for command in super().get_system_commands(screen):
            titles.add(command.title)
            yield command
        for command in palette_commands(self, screen):
            if command.title not in titles:
                titles.add(command.title)
                yield command
        if screen is self.main_screen:
            for command in pane_commands(self, [self.tool_table, self.transcript]):
                if command.title not in titles:
                    yield command
