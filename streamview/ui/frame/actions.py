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

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from msgspec.structs import replace
from textual import on
from textual.app import SystemCommand
from textual.command import Provider
from textual.events import Key
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from streamview.config.settings import Settings
from streamview.core.call_reading import with_parent
from streamview.core.state import Session, ToolCall
from streamview.sources.base import Source
from streamview.ui.calls.filter import STATUS_GROUPS, CallFilter
from streamview.ui.calls.table import ToolCallTable
from streamview.ui.frame.crash import CrashHooks
from streamview.ui.frame.search_actions import SearchActions
from streamview.ui.frame.suspend import Suspension
from streamview.ui.playback.feed import PlaybackFeed
from streamview.ui.text.safe_text import copy_text, phrase, safe, toast
from streamview.ui.text.selection import amount, copy_target
from streamview.ui.transcript.transcript import Transcript

TEXTUAL_COMMANDS_KEPT = {"Theme"}
"""Textual's own palette entries that the viewer keeps."""
MAIN_SCREEN_ONLY = {
    "filter_text",
    "table_filter_status",
    "table_filter_kind",
    "toggle_follow",
    "toggle_thinking",
    "previous_session",
    "next_session",
}
"""Actions on the panes of the main screen (and ``search``): behind another screen they
would change what cannot be seen."""
WITH_A_CALL = {"next_match", "previous_match", "open_file", "page_result"}
"""Actions on a tool call: on the main screen (the table's) or in its details."""


def actions_provider() -> type[Provider]:
    """The palette's provider (:class:`~streamview.ui.frame.commands.ActionsProvider`),
    imported when the palette first opens."""
    from streamview.ui.frame.commands import ActionsProvider

    return ActionsProvider


class ViewerActions(CrashHooks, Suspension, SearchActions):
    """The viewer's actions and message handlers (the panes and feed are the app's;
    search is :class:`~streamview.ui.frame.search_actions.SearchActions`')."""

    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {actions_provider}
    """The palette finds an entry by its name or by its description's words."""

    PALETTE_TITLES: ClassVar[dict[str, str]] = {
        "help": "Help: key bindings and shortcuts",
        "toggle_thinking": "Show or hide thinking",
        "toggle_follow": "Follow the newest on/off",
        "event_log": "Event log",
        "run_summary": "Run summary",
        "previous_session": "Previous session",
        "playback('step(1)')": "Step one event forward",
        "playback('step(-1)')": "Step one event back",
    }
    """The palette's names of keys whose footer word is short (see
    :func:`~streamview.ui.frame.commands.palette_title`)."""

    settings: Settings
    _settings_problem: str | None
    cwd_map: list[tuple[str, str]]
    """``--cwd-map`` pairs: recorded directories and the local checkouts they stand for."""
    source: Source
    _transcript_followed = True
    """The transcript was following when it last said so (its changes move the table)."""
    _summary_offered = False
    """The run's end was summed up by itself once (:meth:`run_ended`): never again."""

    def action_playback(self, command: str) -> None:
        """Playback, agent and export keys (the app's)."""
        raise NotImplementedError

    @property
    def viewed_screen(self) -> Screen[Any]:
        """The screen whose keys are in play: modal screens over it (the palette, the
        help, the export dialog) do not count, as they hide the app's keys anyway; what
        the palette offers is what works on the screen under it."""
        stack: list[Screen[Any]] = self.screen_stack
        return next((s for s in reversed(stack) if not s.is_modal), stack[0])

    def works_here(self, action: str) -> bool:
        """Whether the app's ``action`` does something on the screen in view: the
        key is live there and the palette offers it (see :data:`MAIN_SCREEN_ONLY`)."""
        screen = self.viewed_screen
        if action == "search":
            # "/" is a priority key: Textual offers it even over a modal screen, whose
            # text field (the export's path) must get it. Only the palette is seen through.
            from textual.command import CommandPalette

            stack = [s for s in self.screen_stack if not isinstance(s, CommandPalette)]
            return stack[-1] is self.main_screen
        if action in MAIN_SCREEN_ONLY:
            return screen is self.main_screen
        if action in WITH_A_CALL:
            if screen is self.main_screen:
                return True
            # Imported here: the footer asks on the first screen, which has no details.
            from streamview.ui.details.screen import ToolCallDetailScreen

            return isinstance(screen, ToolCallDetailScreen)
        return True

    def _preview_progress(self) -> float | None:
        raise NotImplementedError

    def _title_table(self, session: Session) -> None:
        raise NotImplementedError

    def table_follows(self) -> bool:
        """Whether the tool table rides on the newest call of a session being shown:
        while the transcript follows, in a run that is going on (a pipe, ``run``, a
        followed file) or in a playback, which follows its playhead. A finished file
        opens on its first call, however it is read: its calls arrive as the disk and
        the frames allow, not as the run went (read in batches, a file was shown
        half-read on some openings and the rest of its calls pulled the cursor down)."""
        if not self.transcript.following or self.pinned:
            return False
        feed = self.feed
        if isinstance(feed, PlaybackFeed):
            # Opened at its final state (or its preview): a finished file. Any other
            # state is one the playhead reached (playing, a seek, a step, G).
            state = self.state
            opened = feed.is_preview(state) or (feed.folded and state is feed.final_state())
            return not opened
        return self.source.live

    @on(Transcript.EndPressed)
    def _end_pressed(self, message: Transcript.EndPressed) -> None:
        """End follows a playing playback's playhead (the transcript follows again);
        ``G``, or End while paused, takes the playback to its end."""
        table = self.tool_table
        if table.session is not None and not table.session.finished:
            table.follow_newest()  # the live end: of the transcript and of the calls
        feed = self.feed
        if not isinstance(feed, PlaybackFeed) or not feed.loaded:
            return
        if feed.position < feed.total and (message.to_run_end or not feed.playing):
            self.action_playback("end")

    @on(Transcript.FollowChanged)
    def _follow_changed(self, message: Transcript.FollowChanged) -> None:
        """The table follows the newest call while the transcript follows the end."""
        table = self.tool_table
        if message.following != self._transcript_followed:
            self._transcript_followed = message.following
            table.follow_newest(message.following)
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
        """Scrolling the transcript moves the table's cursor to the call on screen
        (back at the end of a live run, the table follows the newest call instead)."""
        table = self.tool_table
        live = table.session is not None and not table.session.finished
        if not table.has_focus and not (live and self.transcript.following):
            table.select_call(message.call_index)

    @on(Transcript.OpenCall)
    @on(ToolCallTable.OpenDetail)
    def _open_detail(self, message: ToolCallTable.OpenDetail | Transcript.OpenCall) -> None:
        if self.session_index is None:
            return
        if self._preview_progress() is not None:
            toast(self, phrase("still loading the file…"), timeout=1.5)
            return
        session = self.state.sessions[self.session_index]
        if not 0 <= message.call_index < len(session.tool_calls):
            return
        from streamview.ui.details.screen import ToolCallDetailScreen

        call = session.tool_calls[message.call_index]
        calls = with_parent(session.tool_calls)  # (all of them, unless packed: subagents')
        self.push_screen(ToolCallDetailScreen(call, self.feed.store, cwd=session.cwd, calls=calls))

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
        """Show every key (again: close the help)."""
        from streamview.ui.frame.commands import viewer_help
        from streamview.ui.frame.help import HelpScreen

        self.toggle_screen(HelpScreen, lambda: HelpScreen(viewer_help(self)))

    def toggle_screen(self, kind: type[Screen[Any]], make: Callable[[], Screen[Any]]) -> None:
        """Open a screen of ``kind`` made by ``make``; if one is open already, close it
        and whatever was opened over it: the key that opens a screen closes it, and
        pressing it again never stacks a second copy (one escape closes one level).

        A call's details above that screen were not opened over it: the main screen
        opens them, by a message that arrives after a key typed right behind enter (enter
        then e put the log under the details). The key then opens its screen over what
        is on show; closing both (as it did) took a person back to the main screen."""
        from streamview.ui.details.screen import ToolCallDetailScreen

        stack = self.screen_stack
        opened = [at for at, screen in enumerate(stack) if isinstance(screen, kind)]
        if not opened or any(
            isinstance(screen, ToolCallDetailScreen) for screen in stack[opened[-1] + 1 :]
        ):
            self.push_screen(make())
            return
        target = stack[opened[-1]]
        while self.screen is not target:
            self.pop_screen()
        self.pop_screen()

    @on(ToolCallTable.FilterChanged)
    def _filter_changed(self, message: ToolCallTable.FilterChanged) -> None:
        if self.session_index is not None:
            self._title_table(self.state.sessions[self.session_index])
        chosen = self.tool_table.call_filter
        run = self._run_key()
        if run:  # a pipe's filter is not kept: no later run is the same one
            self._remember(
                filter_status=chosen.status,
                filter_kind=chosen.kind,
                filter_text=chosen.text,
                filter_run=run,
            )

    def _run_key(self) -> str:
        """The file on show, as the settings name the run a filter was set on."""
        path = self.source.path
        return str(path.resolve()) if path is not None else ""

    # -- settings that persist --------------------------------------------------------

    def _apply_settings(self) -> None:
        """On mount: thinking and the filter as they were left (the theme is set already)."""
        settings = self.settings
        if self._settings_problem:
            toast(self, safe(self._settings_problem), severity="warning", timeout=5)
        if not settings.show_thinking:
            self.transcript.set_show_thinking(False)
        chosen = CallFilter(settings.filter_status, settings.filter_kind, settings.filter_text)
        if chosen.status not in (None, *STATUS_GROUPS):
            chosen = replace(chosen, status=None)
        if chosen.active and settings.filter_run and settings.filter_run == self._run_key():
            # A filter belongs to the run it was set on: another run opens unfiltered.
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
            toast(
                self,
                phrase(
                    "the settings file did not parse: kept it as {path} and wrote new settings",
                    path=settings.kept_as,
                ),
                severity="warning",
                timeout=10,
            )
        if problem and not self._settings_problem:
            self._settings_problem = problem
            toast(self, safe(problem, limit=400), severity="warning", timeout=5)

    def action_table_filter_status(self) -> None:
        """F from another pane: the table's next status filter (it keeps the focus
        where it was; the table's title says what it shows)."""
        self.tool_table.action_filter_status()

    def action_table_filter_kind(self) -> None:
        """K from another pane: the table's next kind filter."""
        self.tool_table.action_filter_kind()

    def action_filter_text(self) -> None:
        """Open the box that filters the tool calls by text."""
        box = self.filter_box
        self.open_box(box)
        box.value = self.tool_table.call_filter.text

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
            toast(self, phrase("pick a tool call first (tab, then ↑ ↓)"), timeout=3)
            return
        session = (
            self.state.sessions[self.session_index] if self.session_index is not None else None
        )
        cwd_map = handoff.merged_map(self.cwd_map, self.settings.cwd_map)
        cwd = session.cwd if session is not None else None
        command, note = handoff.open_command(call, cwd, cwd_map, self.feed.store)
        if command is None:
            toast(self, safe(note, limit=400), severity="warning", timeout=5)
            return
        problem = handoff.run_suspended(self, command)
        if problem:
            toast(self, safe(problem, limit=400), severity="error", timeout=5)
        elif note:
            toast(self, safe(note, limit=400), timeout=4)

    def action_page_result(self) -> None:
        """Show the chosen call's whole result in $PAGER."""
        from streamview.ui.details import handoff

        call = self._chosen_call()
        if call is None:
            toast(self, phrase("pick a tool call first (tab, then ↑ ↓)"), timeout=3)
            return
        text = handoff.result_text(call, self.feed.store)
        problem = handoff.run_suspended(self, handoff.pager_command(), stdin_text=text)
        if problem:
            toast(self, safe(problem, limit=400), severity="error", timeout=5)

    def action_copy(self) -> None:
        """Copy the selected text, else the target of the tool call under the cursor."""
        text = self.screen.get_selected_text()
        if text:
            copy_text(self, text, phrase("{amount}", amount=amount(text)))
            return
        table = self.tool_table
        if table.has_focus and table.cursor_call is not None and self.session_index is not None:
            call = self.state.sessions[self.session_index].tool_calls[table.cursor_call]
            if copy_target(self, call):
                return
        toast(
            self,
            phrase("nothing to copy: drag over text to select it, or pick a tool call (tab)"),
            timeout=3,
        )

    def action_help_quit(self) -> None:
        """Ctrl+C with no text selected and no agent running (Textual's own key, which
        otherwise names ctrl+q): say there is nothing for it to do, and how to quit."""
        toast(self, phrase("nothing to copy or stop · q quits"), timeout=3)

    def action_toggle_thinking(self) -> None:
        """Show or hide thinking blocks."""
        transcript = self.transcript
        transcript.set_show_thinking(not transcript.show_thinking)
        self._remember(show_thinking=transcript.show_thinking)
        shown = phrase("thinking shown") if transcript.show_thinking else phrase("thinking hidden")
        toast(self, shown, timeout=1.5)

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
        """Open the event log: malformed lines, unknown records, connection notices
        (again: close it)."""
        from streamview.ui.log.event_log import EventLogScreen

        self.toggle_screen(EventLogScreen, lambda: EventLogScreen(self.state, self.feed.store))

    def action_run_summary(self) -> None:
        """Open the run's summary (again: close it)."""
        from streamview.core.run_summary import run_summary
        from streamview.ui.frame.summary_screen import SummaryScreen

        self.toggle_screen(SummaryScreen, lambda: SummaryScreen(run_summary(self.state)))

    def run_ended(self) -> None:
        """The input is over. A replay (``--replay``, a presenter's show) played to its
        end opens its summary, once per viewer and only over the main screen; closed, it
        is never reshown by itself. A file opened at its end is being read, and a live
        run's end is on the status line where the person watching reads it: neither is
        covered by anything (``S`` opens the summary any time)."""
        feed = self.feed
        if self._summary_offered or not isinstance(feed, PlaybackFeed):
            return
        # Played to its end, not taken there: End or G is a person going to look at the
        # last screen, which a summary would cover (tmux tests caught it covering it).
        if feed.plays_on_open and feed.played_to_end and len(self.screen_stack) == 1:
            self._summary_offered = True
            self.action_run_summary()

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
        """Textual's theme picker, then every key's action where the palette was opened
        (and, on the main screen, the keys of the pane that is not focused).

        Textual's other entries are left out: its "Keys" panel (the help is ``?``),
        its "Screenshot" (which wrote to a ~/Downloads that may not exist: the export
        writes one where asked), "Quit" (``q`` is in the list) and "Maximize"."""
        from streamview.ui.frame.commands import palette_commands, pane_commands

        for command in super().get_system_commands(screen):
            if command.title in TEXTUAL_COMMANDS_KEPT:
                yield command
        yield from palette_commands(self, screen)
        if screen is self.main_screen:
            yield from pane_commands(self, [self.tool_table, self.transcript])
