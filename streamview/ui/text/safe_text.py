"""Untrusted text made safe once, and the only surfaces that paint it.

Text from a stream, a file name, a recorded path or a person's typing may hold escape
sequences (an OSC 52 that writes the clipboard) and Textual markup (a
``[@click=app.screenshot(...)]`` that runs an action when clicked, a ``[/x]`` that
raises ``MarkupError`` and takes the viewer down). Textual parses markup in
``notify()`` and in a border title given as ``str``. So no code of the viewer hands
``str`` to those surfaces: it builds a :class:`Safe` (sanitized with
:func:`~streamview.core.sanitize.one_line`, held as a Textual ``Content`` built
without markup) and passes that to :func:`toast`, :func:`set_border_title` or
:func:`set_border_subtitle`, which take nothing else; the clipboard is written by
:func:`copy_text` only. An f-string of stream text handed to a surface is then a type
error under ``mypy --strict``, and ``tests/ui/text/test_surfaces.py`` fails on any direct
``notify(``, title assignment, ``from_markup`` or clipboard write elsewhere.

Two constructors::

    safe(call.target)                                    # one untrusted string
    phrase("exported {path} and {svg}", path=path, svg=svg)  # a literal template

``phrase``'s template must be a literal (the test checks it); its parts are sanitized and
put in as plain text, never parsed (``str.format`` does not look inside what it
inserts). Numbers keep their format specs (``{count:,}``).
"""

from __future__ import annotations

import re
from typing import Any, Final, Literal, final

from textual.app import App
from textual.content import Content
from textual.widget import Widget

from streamview.core.sanitize import UNSAFE_CHARS, one_line

PART_LIMIT: Final = 200
"""How much of one untrusted part a toast or title shows (the rest is cut with ``…``)."""

_KEY = object()
"""Only this module makes a :class:`Safe`: its constructor asks for this token."""


@final
class Safe:
    """Text that is safe to paint: no control character, and never read as markup.

    Made by :func:`safe` or :func:`phrase` only. ``plain`` is the text, ``content`` the
    Textual ``Content`` of it (built without markup: ``[`` is just a bracket).
    """

    __slots__ = ("content", "plain")

    def __init__(self, plain: str, key: object) -> None:
        if key is not _KEY:
            raise TypeError("make a Safe with safe() or phrase()")
        self.plain: Final = plain
        self.content: Final = Content(plain)

    def __repr__(self) -> str:
        return f"Safe({self.plain!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Safe) and other.plain == self.plain

    def __hash__(self) -> int:
        return hash(self.plain)


def _part(value: object, limit: int) -> object:
    """One part of :func:`phrase`: numbers as they are (for ``{n:,}``), anything else as
    its text, sanitized and folded onto one line."""
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, Safe):
        return value.plain
    return one_line(value if isinstance(value, str) else str(value), limit)


def safe(text: str, limit: int = PART_LIMIT) -> Safe:
    """``text`` (untrusted) made safe: sanitized, on one line, cut to ``limit``."""
    return Safe(one_line(text, limit), _KEY)


def phrase(template: str, /, limit: int = PART_LIMIT, **parts: object) -> Safe:
    """``template`` (a literal of ours) with ``parts`` (untrusted) put in as plain text.

    Each part is sanitized and folded onto one line (cut to ``limit``); braces in a
    part are inserted as they are, never read as fields or markup.
    """
    return Safe(
        template.format(**{name: _part(value, limit) for name, value in parts.items()}), _KEY
    )


def toast(
    app: App[Any],
    message: Safe,
    *,
    severity: Literal["information", "warning", "error"] = "information",
    timeout: float | None = None,
) -> None:
    """Show ``message`` in a toast, as plain text (Textual would read a ``str`` as markup)."""
    app.notify(message.plain, severity=severity, timeout=timeout, markup=False)


def set_border_title(widget: Widget, title: Safe | None) -> None:
    """Set ``widget``'s border title (a ``Content``, which Textual does not parse);
    unchanged, it is left alone (setting it repaints the widget)."""
    if title is None:
        if widget.border_title is not None:
            widget.border_title = None
    elif widget.border_title != title.content.markup:
        widget.border_title = title.content


def set_border_subtitle(widget: Widget, subtitle: Safe | None) -> None:
    """Set ``widget``'s border subtitle, as :func:`set_border_title` does the title."""
    if subtitle is None or not subtitle.plain:
        if widget.border_subtitle:
            widget.border_subtitle = None
    elif widget.border_subtitle != subtitle.content.markup:
        widget.border_subtitle = subtitle.content


# -- the clipboard ------------------------------------------------------------------------

_SEQUENCE = re.compile(
    "\x1b\\[[0-?]*[ -/]*[@-~]"  # CSI: colour, cursor moves, the bracketed-paste markers
    "|\x9b[0-?]*[ -/]*[@-~]"  # the same, as an 8-bit CSI
    "|(?:\x1b\\]|\x9d)[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\\\|\x9c)?"  # OSC: clipboard, links
    "|(?:\x1b[P^_X]|[\x90\x98\x9e\x9f])[^\x1b\x9c\n]*(?:\x1b\\\\|\x9c)?"  # DCS, PM, APC, SOS
    "|\x1b[ -/]*[0-~]?"  # any other escape
)
_CONTROL = re.compile(f"[{UNSAFE_CHARS}]")


def without_controls(text: str) -> tuple[str, int]:
    """``text`` with every escape sequence and control character taken out (``\\n`` and
    ``\\t`` kept, ``\\r\\n`` made ``\\n``), and how many characters went.

    What is copied is pasted into a shell or an editor: an ``ESC[201~`` there ends a
    bracketed paste early and runs the rest at once, so the sequences go whole, not
    as pictures (:func:`~streamview.core.sanitize.clean` is for showing them).
    """
    if _CONTROL.search(text) is None:
        return text, 0
    text = text.replace("\r\n", "\n")
    kept = _CONTROL.sub("", _SEQUENCE.sub("", text))
    return kept, len(text) - len(kept)


CLIPBOARD_LIMIT = 2**20
"""The most ``c`` puts on the clipboard, in bytes. The copy goes through the terminal
(OSC 52, base64): a 10 MB value was 13 MB written to the terminal, which froze the
viewer's output for 40 s in a pty, and terminals cap or drop such a copy anyway."""


def copy_text(app: App[Any], value: str, what: Safe, *, command: bool = False) -> None:
    """Put ``value`` (untrusted) on the clipboard without its control characters, and
    say what was copied (``what``), what was taken out, and whether a ``command`` for
    a shell runs more than one line."""
    kept, removed = without_controls(value)
    size = len(kept.encode("utf-8", "surrogatepass"))
    if size > CLIPBOARD_LIMIT:
        toast(
            app,
            Safe(
                f"Not copied: {what.plain} is {size / 2**20:,.1f} MiB, over the "
                f"{CLIPBOARD_LIMIT // 2**20} MiB a terminal's clipboard takes (x exports it)",
                _KEY,
            ),
            severity="warning",
            timeout=6,
        )
        return
    app.copy_to_clipboard(kept)
    lines = kept.count("\n") + 1
    note = what.plain
    if command and lines > 1:
        note = f"{lines:,}-line {note} · pasted in a shell, every line runs"
    if removed:
        plural = "s" if removed != 1 else ""
        note = f"{note} · {removed:,} control character{plural} left out"
    loud = bool(removed) or (command and lines > 1)
    toast(
        app,
        Safe(f"Copied {note}", _KEY),
        severity="warning" if loud else "information",
        timeout=4 if loud else 2,
    )
