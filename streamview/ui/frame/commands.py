"""The command palette and the help screen, both made from the key bindings.

Neither holds a list of its own: the palette offers every binding active where it was
opened (shown in the footer or not), and the help screen lists every binding the viewer
declares, grouped by where it works. A new binding appears in both; a removed one
leaves both (``tests/ui/test_commands.py`` walks every class that declares bindings).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.command import Hit, Hits
from textual.dom import DOMNode
from textual.screen import Screen
from textual.system_commands import SystemCommandsProvider
from textual.widget import Widget

from streamview.ui.frame.help import HelpScreen, HelpSection

KEY_NAMES = {
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "pgup",
    "pagedown": "pgdn",
    "question_mark": "?",
    "slash": "/",
    "full_stop": ".",
    "comma": ",",
    "greater_than_sign": ">",
    "less_than_sign": "<",
    "plus": "+",
    "minus": "-",
    "equals_sign": "=",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "backslash": "\\",
}
"""How a key is written in the help (Textual's names are for code)."""
KEY_SUFFIX = " · key "
"""What ends an entry's help (its key): not words of its description ("key" would
find every entry)."""
STOP = "playback('interrupt')"
"""Ctrl+C's action: listed with the keys that work anywhere, not with playback."""


def key_text(key: str) -> str:
    """``ctrl+c``, ``↑``, ``/``: one key as a person reads it."""
    return KEY_NAMES.get(key, key)


TEXTUAL_MEANINGS = {
    "app.focus_next": "to the next pane (transcript, tool calls, boxes)",
    "app.focus_previous": "to the previous pane",
    "screen.copy_text": "copy the selected text (drag to select)",
}
"""What Textual's own keys do here, said as ours are (Textual gives them a word)."""


def meaning(binding: Binding) -> str:
    """What a binding does, in a sentence (its tooltip) or a word (its description)."""
    return (
        binding.tooltip
        or TEXTUAL_MEANINGS.get(binding.action)
        or binding.description
        or binding.action
    )


def as_bindings(declared: Iterable[BindingType]) -> list[Binding]:
    """``BINDINGS`` entries as :class:`Binding` objects (tuples allowed, as Textual does)."""
    bindings = []
    for item in declared:
        if isinstance(item, Binding):
            bindings.append(item)
        else:
            bindings.append(Binding(*item))
    return bindings


def help_rows(bindings: Sequence[Binding]) -> list[tuple[str, str]]:
    """``(keys, meaning)`` rows; bindings that mean the same thing share a row."""
    merged: dict[str, list[str]] = {}
    for binding in bindings:
        keys = [key_text(key.strip()) for key in binding.key.split(",")]
        shown = merged.setdefault(meaning(binding), [])
        shown.extend(key for key in keys if key not in shown)
    rows: list[tuple[str, str]] = []
    for text, keys in merged.items():
        written = "0-9" if keys == [str(digit) for digit in range(10)] else "  ".join(keys)
        rows.append((written, text))
    return rows


def help_sections(groups: Sequence[tuple[str, Iterable[BindingType]]]) -> list[HelpSection]:
    """The help screen's sections from ``(title, bindings)`` groups."""
    return [HelpSection(title, help_rows(as_bindings(declared))) for title, declared in groups]


def palette_title(node: DOMNode, binding: Binding) -> str:
    """The binding's name in the palette: its description, unless the class that
    declares it names it there more fully (``PALETTE_TITLES``, for keys whose footer
    word alone would not say what they act on: "Log" is the "Event log")."""
    titles: dict[str, str] = getattr(node, "PALETTE_TITLES", {})
    return titles.get(binding.action, binding.description)


def own_bindings(node: DOMNode) -> list[Binding]:
    """The bindings streamview's classes declare on ``node`` (most derived first), not
    those it inherits from Textual's (a transcript's "Scroll Left" scrolls nothing)."""
    return [
        binding
        for cls in type(node).__mro__
        if cls.__module__.startswith("streamview.") and "BINDINGS" in vars(cls)
        for binding in as_bindings(vars(cls)["BINDINGS"])
    ]


def palette_commands(app: App[Any], screen: Screen[Any]) -> Iterator[SystemCommand]:
    """A palette entry for every binding of streamview's active on ``screen`` (footer
    or not).

    The title is :func:`palette_title`, the help its meaning and its key; choosing an
    entry runs the action where the binding is declared, as the key would.
    """
    seen: set[tuple[int, str]] = set()
    owned: dict[int, set[tuple[str, str]]] = {}
    for key, active in screen.active_bindings.items():
        binding, node = active.binding, active.node
        if binding.system or not binding.description or not active.enabled:
            continue
        if id(node) not in owned:
            owned[id(node)] = {
                (one.strip(), own.action)
                for own in own_bindings(node)
                for one in own.key.split(",")
            }
        marker = (id(node), binding.action)
        if (key, binding.action) not in owned[id(node)] or marker in seen:
            continue
        seen.add(marker)
        keys = binding.key_display or key_text(key)
        about = meaning(binding)
        title = palette_title(node, binding)
        help_text = f"{about}{KEY_SUFFIX}{keys}" if about != title else f"key {keys}"
        yield SystemCommand(title, help_text, _runner(app, binding.action, node))


def pane_commands(app: App[Any], panes: Iterable[Widget]) -> Iterator[SystemCommand]:
    """Palette entries for the keys of panes that are not focused: the tool table's
    filter works from the palette while the transcript has the focus, and choosing it
    focuses the table, where the key would have worked."""
    for pane in panes:
        if pane.has_focus:
            continue  # its keys are active: palette_commands has them
        seen: set[str] = set()
        for binding in own_bindings(pane):
            action = binding.action
            if action in seen or binding.system or not binding.description:
                continue
            seen.add(action)
            if pane.check_action(action, ()) is False:
                continue
            about = meaning(binding)
            keys = binding.key_display or ", ".join(
                key_text(key.strip()) for key in binding.key.split(",")
            )
            yield SystemCommand(
                palette_title(pane, binding),
                f"{about}{KEY_SUFFIX}{keys}",
                # After the palette has closed: focus belongs to the main screen.
                partial(app.call_later, _focus_and_run, app, action, pane),
            )


async def _focus_and_run(app: App[Any], action: str, pane: Widget) -> None:
    pane.focus()
    await app.run_action(action, pane)


def _runner(app: App[Any], action: str, node: DOMNode) -> Callable[[], Any]:
    return partial(app.run_action, action, node)


WORDS_SCORE = 0.25
"""The score of an entry found by the words of its description, not its name: below
most matches of its name, so what a person typed as a name comes first."""


def says_every_word(text: str, query: str) -> bool:
    """True when every word of ``query`` is in ``text`` (case ignored): "markdown"
    finds "export a Markdown transcript", but a query's letters scattered through a
    long sentence do not (the fuzzy match of names would find nearly every one)."""
    words = query.casefold().split()
    folded = text.casefold()
    return bool(words) and all(word in folded for word in words)


class ActionsProvider(SystemCommandsProvider):
    """The palette's entries, found by their name (fuzzy, as Textual does) or by the
    words of their description ("markdown" finds the export, whose name is "Export")."""

    async def search(self, query: str) -> Hits:
        """Entries whose name matches ``query``, then those whose description has
        every word of it.

        Args:
            query: What the person typed.
        """
        matcher = self.matcher(query)
        for name, help_text, callback, *_ in self.app.get_system_commands(self.screen):
            if (score := matcher.match(name)) > 0:
                yield Hit(score, matcher.highlight(name), callback, help=help_text)
            elif help_text and says_every_word(help_text.partition(KEY_SUFFIX)[0], query):
                yield Hit(WORDS_SCORE, name, callback, text=name, help=help_text)


def viewer_help(app: App[Any]) -> list[HelpSection]:
    """Every key of the viewer, grouped by where it works, from the classes' bindings."""
    from textual.screen import Screen as TextualScreen

    from streamview.ui.calls.table import ToolCallTable
    from streamview.ui.details.screen import SectionScreen, ToolCallDetailScreen
    from streamview.ui.details.section_view import SectionView
    from streamview.ui.frame.export_dialog import ExportDialog
    from streamview.ui.frame.summary_screen import SummaryScreen
    from streamview.ui.log.event_log import EventEntryScreen, EventLogList, EventLogScreen
    from streamview.ui.transcript.transcript import Transcript

    declared = as_bindings(type(app).BINDINGS)
    playback = [b for b in declared if b.action.startswith("playback(") and b.action != STOP]
    anywhere = [b for b in declared if b not in playback and not b.system]
    palette = Binding(
        app.COMMAND_PALETTE_BINDING,
        "command_palette",
        "Palette",
        tooltip="command palette: every action by name",
    )
    log = [*EventLogScreen.BINDINGS, *EventLogList.BINDINGS]
    sections = [*SectionScreen.BINDINGS, *SectionView.BINDINGS]
    return help_sections(
        [
            ("Anywhere", [*anywhere, palette, *as_bindings(TextualScreen.BINDINGS)]),
            ("Transcript", Transcript.BINDINGS),
            ("Tool calls", ToolCallTable.BINDINGS),
            ("Playback (a file) and export", playback),
            ("A tool call's details (enter)", [*ToolCallDetailScreen.BINDINGS, *sections]),
            ("Event log (l)", log),
            ("A line of the event log (enter there)", [*EventEntryScreen.BINDINGS, *sections]),
            ("Export dialog (x): enter saves", ExportDialog.BINDINGS),
            ("Run summary (S)", SummaryScreen.BINDINGS),
            ("This help", HelpScreen.BINDINGS),
        ]
    )
