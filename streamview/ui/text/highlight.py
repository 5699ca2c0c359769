"""Syntax highlighting that never holds up a frame: lexers are built on a thread.

Pygments builds a lexer's regular expressions the first time the lexer is used in a
process (40-90 ms for Python), and imports the lexer's and the colour theme's modules
(10-30 ms more), on whatever thread asked. The first code block of a session used to
pay that on the UI thread, so the first screen of a recording, or the frame after a
live answer opened a fence, came that much later. Now the first block in a language
is shown plain on the theme's background while its lexer and theme are built on a
thread, and the transcript lays it out again in colour when they are ready
(:func:`on_ready`).

While the viewer paints its first screen it holds the builds back (:func:`hold`,
:func:`release`): the thread needs the interpreter's lock as much as the UI thread
does, so a lexer built then (50-60 ms of CPU for Python) delayed that screen by as
much, and the transcript was laid out a second time inside it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from rich.style import Style

DEFER = True
"""Build missing lexers on a thread (the app); off, a code block builds its lexer at
once, as Rich does (tests that compare screens want the coloured result at once)."""

BACKGROUNDS = {"monokai": "#272822", "default": "#f8f8f8"}
"""The background of each code theme the transcript uses, known without importing it
(a test checks them against Pygments)."""

_ready: set[tuple[str, str]] = set()
_building: set[tuple[str, str]] = set()
_listeners: list[Callable[[str], object]] = []
_held: list[tuple[str, str]] | None = None
"""Builds asked for while held (``None``: not held)."""
_lock = threading.Lock()


def hold() -> None:
    """Build no lexer until :func:`release` (the first screen is being painted)."""
    global _held
    with _lock:
        if _held is None:
            _held = []


def release() -> None:
    """Start the builds asked for while held, and any later one at once."""
    global _held
    with _lock:
        waiting, _held = _held or [], None
    for key in waiting:
        _start(key)


def _start(key: tuple[str, str]) -> None:
    threading.Thread(target=_build, args=key, name="streamview-lexer", daemon=True).start()


def highlight_now(language: str, theme: str) -> bool:
    """Whether a code block in ``language`` can be highlighted in ``theme`` now.

    ``False`` the first time a process sees the pair: its lexer and theme are then
    built on a thread (once), and the listeners hear of it when they are ready.
    """
    key = (language, theme)
    if not DEFER or key in _ready:
        return True
    with _lock:
        if key in _building:
            return False
        _building.add(key)
        if _held is not None:
            _held.append(key)
            return False
    _start(key)
    return False


def plain_background(theme: str) -> Style:
    """The background of ``theme``'s code blocks, for code shown before its colours."""
    colour = BACKGROUNDS.get(theme)
    return Style(bgcolor=colour) if colour else Style()


def _build(language: str, theme: str) -> None:
    """Build what highlighting ``language`` in ``theme`` needs (the thread's body),
    then tell the listeners."""
    from rich.syntax import Syntax

    try:
        Syntax("", language).lexer  # noqa: B018 - builds the lexer (Pygments keeps it)
        Syntax.get_theme(theme)
    except Exception:  # what cannot be built, Rich shows plain: nothing is lost
        pass
    with _lock:
        _ready.add((language, theme))
        _building.discard((language, theme))
        listeners = list(_listeners)
    for listener in listeners:
        listener(language)


def on_ready(listener: Callable[[str], object]) -> Callable[[], None]:
    """Call ``listener(language)`` (on the building thread) whenever a lexer is ready.

    Returns:
        A function that stops the calls.
    """
    with _lock:
        _listeners.append(listener)

    def remove() -> None:
        with _lock:
            if listener in _listeners:
                _listeners.remove(listener)

    return remove
