"""Make untrusted text safe to paint on a terminal.

Text from a model or a shell command may hold escape sequences that move the cursor,
clear the screen, retitle the window, write the clipboard (OSC 52) or toggle modes.
None of them may reach the terminal as a control sequence. Colour (SGR) sequences are
removed from plain text (views that can style text parse them instead); every other
control is replaced by a visible, inert picture (``␛``, ``␍``, ``\\x9b``) so nothing is
hidden either.
"""

from __future__ import annotations

import re

# ESC-introduced sequences: CSI (incl. SGR), OSC/DCS/APC/PM/SOS strings, two-char escapes.
_SGR = re.compile(r"\x1b\[[0-9;:]*m")
_ESCAPE_SEQUENCE = re.compile(
    r"\x1b(?:\[[0-?]*[ -/]*[@-~]"  # CSI
    r"|[\]PX^_][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, DCS, SOS, PM, APC strings
    r"|[ -/]*[0-~])"  # other escapes
)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_PICTURES[0x7F] = "␡"


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    picture = _PICTURES.get(code)
    return picture if picture is not None else f"\\x{code:02x}"


def _inert_sequence(match: re.Match[str]) -> str:
    return _CONTROL.sub(_picture, match.group())


def has_controls(text: str) -> bool:
    """Whether ``text`` holds anything other than printable text, ``\\n`` and ``\\t``."""
    return _CONTROL.search(text) is not None


def clean(text: str, keep_sgr: bool = False) -> str:
    """Return ``text`` with no control sequence left in it.

    Args:
        text: Untrusted text.
        keep_sgr: Leave colour sequences in place, for a caller that turns them into
            styles itself (Rich's ``Text.from_ansi``) and never writes them raw.

    Returns:
        The text with ``\\r\\n`` made ``\\n``, colour removed (unless kept), and every
        other control shown as an inert picture. ``\\n`` and ``\\t`` are kept.
    """
    if not _CONTROL.search(text):
        return text
    text = text.replace("\r\n", "\n")
    if not keep_sgr:
        text = _SGR.sub("", text)
        return _CONTROL.sub(_picture, _ESCAPE_SEQUENCE.sub(_inert_sequence, text))
    pieces: list[str] = []
    last = 0
    for match in _SGR.finditer(text):
        pieces.append(_CONTROL.sub(_picture, text[last : match.start()]))
        pieces.append(match.group())
        last = match.end()
    pieces.append(_CONTROL.sub(_picture, text[last:]))
    return "".join(pieces)


def one_line(text: str, limit: int = 200) -> str:
    """Clean ``text`` and fold it onto one line (newlines shown as ``⏎``), cut to ``limit``."""
    text = clean(text).replace("\n", "⏎").replace("\t", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"
