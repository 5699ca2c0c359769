"""The viewer's keys that work anywhere: quit, help, search, thinking, hand-off, copy,
follow, the event log, sessions, stopping the agent, and the playback and export keys
(declared here, enabled by the app's ``check_action`` when they apply). The help
screen and the palette are made from these (:mod:`streamview.ui.frame.commands`)."""

from __future__ import annotations

from textual.binding import Binding, BindingType

from streamview.ui.frame.export_actions import EXPORT_BINDING
from streamview.ui.playback.controls import playback_bindings

QUIT_MEANING = "quit (the run's exit status becomes streamview's)"
"""What q does, on every screen."""

APP_BINDINGS: list[BindingType] = [
    Binding("q", "quit", "Quit", tooltip=QUIT_MEANING),
    Binding("question_mark", "help", "Help", tooltip="this help: every key"),
    # Priority: the app sees "/" before it forwards the next keys, so text typed
    # right after it (fast typing, paste) lands in the search box.
    Binding(
        "slash",
        "search",
        "Search",
        priority=True,
        tooltip="search the transcript and the tool calls' targets, arguments and results, "
        "in every session (a leading re: makes it a regular expression)",
    ),
    Binding("n", "next_match", "Next match", show=False, tooltip="next / previous match"),
    Binding("N", "previous_match", "Previous match", show=False, tooltip="next / previous match"),
    Binding("t", "toggle_thinking", "Thinking", tooltip="show / hide thinking"),
    Binding(
        "o",
        "open_file",
        "Open call's file in editor",
        show=False,
        tooltip="open the file the tool call touched in $EDITOR (at the line, when known)",
    ),
    Binding(
        "p",
        "page_result",
        "Call's result in pager",
        show=False,
        tooltip="read the tool call's whole result in $PAGER",
    ),
    Binding(
        "backslash",
        "filter_text",
        "Filter calls by text",
        show=False,
        tooltip="show only the tool calls whose target holds a text (empty: all)",
    ),
    Binding(
        "c",
        "copy",
        "Copy selection or call's target",
        show=False,
        tooltip="copy the selected text (drag to select), else the tool call's "
        "command, path, pattern, URL or query",
    ),
    Binding("f", "toggle_follow", "Follow", tooltip="follow the newest content on / off"),
    Binding(
        "l,e",
        "event_log",
        "Log",
        tooltip="event log: malformed lines, unknown records, connection notices",
    ),
    # One footer entry for both keys, shown only when there are sessions to switch.
    Binding(
        "left_square_bracket",
        "previous_session",
        "Session",
        key_display="[ ]",
        tooltip="previous / next session, when the stream holds several",
    ),
    Binding(
        "right_square_bracket",
        "next_session",
        "Next session",
        show=False,
        tooltip="previous / next session, when the stream holds several",
    ),
    Binding(
        "ctrl+c",
        "playback('interrupt')",
        "Stop agent",
        show=False,
        priority=True,
        tooltip="run mode: stop the agent (again: harder; with text selected, copy it "
        "instead); the viewer stays open",
    ),
    Binding(
        "ctrl+z",
        "suspend_process",
        "Suspend",
        show=False,
        priority=True,  # over the help, a call's details, the summary: every screen
        tooltip="suspend streamview to the shell, the terminal given back (fg: back, "
        "repainted); a run's agent goes on meanwhile",
    ),
    # The table's filters from any pane of the main screen (the table's own F and K,
    # listed with it in the help and the palette, win while it has the focus).
    Binding("F", "table_filter_status", show=False, system=True),
    Binding("K", "table_filter_kind", show=False, system=True),
    # Neither to copy nor to stop (Textual's copy passed): say so, and that q quits.
    Binding("ctrl+c", "help_quit", show=False, system=True),
    # Playback and export: declared here, enabled by check_action when they apply.
    *playback_bindings(),
    # After the playback keys: where the footer is too narrow for all (a file played
    # back at 100 columns or fewer), Summary is the one it leaves out, not Play/Pause;
    # the help, the palette and the end-of-run toast name it too.
    Binding(
        "S",
        "run_summary",
        "Summary",
        tooltip="the run summed up: outcome and duration, files changed (+/- lines), "
        "commands and their exit status, calls failed or refused, tokens and cost",
    ),
    EXPORT_BINDING,
]
