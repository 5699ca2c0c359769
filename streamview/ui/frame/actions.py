"""What the viewer does when asked: keys, palette commands and the panes' messages.

:class:`ViewerActions` is the base of :class:`streamview.ui.frame.app.StreamviewApp`: the
actions its bindings name (search, thinking, follow, sessions, event log, help), the
command palette's entries, and the messages the panes send (a call to open, the table's
cursor, follow mode). The app on top of it owns the panes, the feed and the fold.

The help screen, the palette's entries and the editor and pager hand-off are imported
when first used: the first screen needs none of them (issue 21;
``tests/ui/frame/test_first_screen_imports.py`` keeps it so).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from textual import on
from textual.app import SystemCommand
from textual.events import Key
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from streamview.core.state import Session, ToolCall
from streamview.settings import Settings
from streamview.ui.calls.filter import STATUS_GROUPS, CallFilter
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.search_actions import SearchActions
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text.selection import amount, copy_target, copy_with_note
from streamview.ui.transcript.transcript import Transcript


class ViewerActions(SearchActions):
    """The viewer's actions and message handlers (the panes and feed are the app's;
    search is :class:`~streamview.ui.frame.search_actions.SearchActions`')."""

    settings: Settings
    _settings_problem: str | None
    cwd_map: list[tuple[str, str]]
    """``--cwd-map`` pairs: recorded directories and the local checkouts they stand for."""

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
        from streamview.ui.details.screen import ToolCallDetailScreen

        call = session.tool_calls[message.call_index]
        self.push_screen(ToolCallDetailScreen(call, self.feed.store, cwd=session.cwd))

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
        from streamview.ui.frame.commands import viewer_help
        from streamview.ui.frame.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(viewer_help(self)))

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
        if settings.kept_as is not None:
            self.notify(
                f"the settings file did not parse: kept it as {settings.kept_as} "
                "and wrote new settings",
                severity="warning",
                timeout=10,
            )
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
        from streamview.ui.details import handoff

        call = self._chosen_call()
        if call is None:
            self.notify("pick a tool call first (tab, then ↑ ↓)", timeout=3)
            return
        session = (
            self.state.sessions[self.session_index] if self.session_index is not None else None
        )
        cwd_map = handoff.merged_map(self.cwd_map, self.settings.cwd_map)
        cwd = session.cwd if session is not None else None
        command, note = handoff.open_command(call, cwd, cwd_map, self.feed.store)
        if command is None:
            self.notify(note, severity="warning", timeout=5)
            return
        problem = handoff.run_suspended(self, command)
        if problem:
            self.notify(problem, severity="error", timeout=5)
        elif note:
            self.notify(note, timeout=4)

    def action_page_result(self) -> None:
        """Show the chosen call's whole result in $PAGER."""
        from streamview.ui.details import handoff

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
        from streamview.ui.log.event_log import EventLogScreen

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
        self.search_here()
        self.refresh_status()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Textual's commands, then every key's action where the palette was opened."""
        from streamview.ui.frame.commands import palette_commands, pane_commands

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
