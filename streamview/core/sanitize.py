"""Make untrusted text safe to paint on a terminal.

Text from a model or a shell command may hold escape sequences that move the cursor,
clear the screen, retitle the window, write the clipboard (OSC 52), open links (OSC 8)
or toggle modes (bracketed paste). None of them may reach the terminal as a control
sequence. The rule is simple and does not depend on recognising every sequence a
terminal might understand: every character that could start or take part in a control
sequence is replaced by a visible, inert picture, so nothing is acted upon and nothing
is hidden either. ``ESC [ 2 J`` is shown as ``␛[2J``; an OSC 52 clipboard write is
shown as ``␛]52;c;...␇``.

What counts as unsafe (:data:`UNSAFE_CHARS`):

- C0 controls except ``\\t`` and ``\\n`` (ESC, BEL, ``\\r``, NUL, backspace, ...), DEL
  and the C1 controls U+0080-U+009F (U+009B is an 8-bit CSI on some terminals);
- the Unicode bidirectional controls (embeddings, overrides, isolates and marks), which
  a bidi-aware terminal uses to show text in an order other than the one it has
  ("Trojan Source"), and the line and paragraph separators U+2028/U+2029, which some
  code treats as line breaks;
- lone surrogates (from ``\\ud800`` escapes in JSON), which cannot be encoded at all:
  they become U+FFFD.

Colour (SGR, ``ESC [ ... m``) is removed from plain text. A view that styles shell
output itself asks for it to be kept (``keep_sgr=True``) and turns it into styles
(Rich's ``Text.from_ansi``); SGR is then the only sequence left in the text.

The common case, text with no unsafe character, costs one regex scan and no copy.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import orjson

from streamview.core.nesting import cut_deep

_OTHER_UNSAFE = (
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi controls
    "\u2028\u2029"  # line and paragraph separators
    "\ud800-\udfff"  # lone surrogates
)
_C0_C1_BUT_ESC = "\x00-\x08\x0b-\x1a\x1c-\x1f\x7f-\x9f"  # C0 but \t \n ESC, DEL, C1
UNSAFE_CHARS = _C0_C1_BUT_ESC + "\x1b" + _OTHER_UNSAFE
"""A regex character-class body matching every character :func:`clean` replaces."""

_SGR_MAX_PARAMS = 64
"""Longer parameter lists are not colour anyone wrote on purpose: shown inert."""


@functools.cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """:func:`clean`'s patterns (unsafe, unsafe but ESC, SGR, ESC not SGR), compiled on first use.

    The two character classes take ~1 ms to compile, and most runs (``--json``,
    ``--events``) never clean text: compiling them on import cost every start-up.
    """
    return (
        re.compile(f"[{UNSAFE_CHARS}]"),
        re.compile(f"[{_C0_C1_BUT_ESC}{_OTHER_UNSAFE}]"),
        re.compile(f"\x1b\\[[0-9;:]{{0,{_SGR_MAX_PARAMS}}}m"),
        re.compile(f"\x1b(?!\\[[0-9;:]{{0,{_SGR_MAX_PARAMS}}}m)"),
    )


_PICTURES: dict[str, str] = {chr(code): chr(0x2400 + code) for code in range(0x20)}
_PICTURES["\x7f"] = "␡"
_PICTURES.update({chr(code): f"\\x{code:02x}" for code in range(0x80, 0xA0)})
_PICTURES.update(
    {char: f"\\u{ord(char):04x}" for char in "\u061c\u200e\u200f\u2028\u2029"}
    | {chr(code): f"\\u{code:04x}" for code in range(0x202A, 0x202F)}
    | {chr(code): f"\\u{code:04x}" for code in range(0x2066, 0x206A)}
)


def picture(char: str) -> str:
    """The inert, visible stand-in for one unsafe character (``␛``, ``\\x9b``, ``\\u202e``)."""
    found = _PICTURES.get(char)
    if found is not None:
        return found
    return "\ufffd"  # a lone surrogate: cannot be encoded, shown as a replacement


def _picture_of_match(match: re.Match[str]) -> str:
    return picture(match.group())


def has_controls(text: str) -> bool:
    """Whether ``text`` holds anything :func:`clean` would change (``\\n``, ``\\t`` are fine)."""
    return _patterns()[0].search(text) is not None


def clean(text: str, keep_sgr: bool = False) -> str:
    """Return ``text`` with no control sequence left in it.

    Args:
        text: Untrusted text.
        keep_sgr: Leave colour sequences in place, for a caller that turns them into
            styles itself (Rich's ``Text.from_ansi``) and never writes them raw.

    Returns:
        The text with ``\\r\\n`` made ``\\n``, colour removed (unless kept), and every
        other unsafe character shown as an inert picture. ``\\n`` and ``\\t`` are kept.
    """
    unsafe, unsafe_but_esc, sgr, esc_not_sgr = _patterns()
    if unsafe.search(text) is None:
        return text
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
    if "\x1b" in text:
        # Plain substitutions, no Python call per sequence: shell output holds thousands.
        text = esc_not_sgr.sub("␛", text) if keep_sgr else sgr.sub("", text).replace("\x1b", "␛")
        if unsafe_but_esc.search(text) is None:
            return text
        return unsafe_but_esc.sub(_picture_of_match, text)
    return unsafe.sub(_picture_of_match, text)


_JSON_UNSAFE = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xa8-\xae]|\xe2\x81[\xa6-\xa9]"
)
"""UTF-8 of DEL, C1, bidi controls and U+2028/9: orjson writes them raw inside strings."""
_JSON_UNSAFE_LEADS = (b"\x7f", b"\xc2", b"\xd8", b"\xe2")
"""The first bytes of :data:`_JSON_UNSAFE`'s sequences."""


def _has_json_unsafe(data: bytes) -> bool:
    """Whether ``data`` holds a sequence of :data:`_JSON_UNSAFE`: each lead byte found
    (a memchr) and matched where it is.

    The regex's own search steps through every byte (~4.7 ns a byte: 41 ms for an
    8.7 MB output of English with 2,000 curly quotes, whose ``\xe2`` lead is common in
    agents' text); finding the leads costs ~0.3 ns a byte and a match per lead. Past
    one lead in 128 bytes (Arabic text leads with ``\xd8`` every other letter) the
    text is decoded and searched for the characters themselves: 67 ms for 15.6 MB of
    Arabic, where the bytes' search took 213."""
    budget = (len(data) >> 7) + 16
    find, match = data.find, _JSON_UNSAFE.match
    for lead in _JSON_UNSAFE_LEADS:
        at = find(lead)
        while at >= 0:
            if match(data, at) is not None:
                return True
            budget -= 1
            if budget < 0:
                text = data.decode("utf-8", "replace")  # a lead byte starts a character
                return _json_unsafe_chars().search(text) is not None
            at = find(lead, at + 1)
    return False


@functools.cache
def _json_unsafe_chars() -> re.Pattern[str]:
    """The characters whose UTF-8 :data:`_JSON_UNSAFE` matches, as a class."""
    return re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")


def _json_escape(match: re.Match[bytes]) -> bytes:
    return b"\\u%04x" % ord(match.group().decode("utf-8"))


def escape_json_unsafe(data: bytes) -> bytes:
    """JSON from orjson or msgspec with DEL, C1 and bidi controls and U+2028/9 escaped.

    Both encoders escape C0 controls but write those raw inside strings; as ``\\uXXXX``
    escapes the JSON decodes to the same strings and is safe to show on a terminal.
    """
    if _has_json_unsafe(data):
        return _JSON_UNSAFE.sub(_json_escape, data)
    return data


def dumps_for_terminal(value: Any, indent: bool = False) -> str:
    """:func:`json_for_terminal`, as text."""
    return json_for_terminal(value, indent).decode("utf-8")


def json_for_terminal(value: Any, indent: bool = False) -> bytes:
    """Serialise ``value`` as JSON that is safe to print and decodes back to ``value``.

    orjson escapes C0 controls but writes DEL, C1 controls and bidi controls raw, and
    refuses lone surrogates, integers over 64 bits and deep nesting. Those are written
    as ``\\uXXXX`` escapes instead (and nesting deeper than the stack allows as
    ``… nested N deep``), so a script gets the exact strings back and a
    person running ``streamview --json`` in a terminal gets no control sequence.

    Args:
        value: What to write.
        indent: Two-space indentation (for a person); else one line (for a pipe).
    """
    try:
        data = orjson.dumps(value, option=orjson.OPT_INDENT_2 if indent else 0)
    except TypeError:
        spaces = 2 if indent else None
        form: dict[str, Any] = {"ensure_ascii": True, "indent": spaces}
        if not indent:
            form["separators"] = (",", ":")  # one line, as orjson writes it
        try:
            text = json.dumps(value, **form)
        except RecursionError:  # deeper than the stack allows here: cut, not lost whole
            text = json.dumps(cut_deep(value), **form)
        return text.encode("ascii")
    # Each unsafe sequence starts with one of four bytes: finding them (a memchr each)
    # spares a regex scan of a summary of megabytes.
    if _has_json_unsafe(data):
        data = _JSON_UNSAFE.sub(_json_escape, data)
    return data


def one_line(text: str, limit: int = 200) -> str:
    """Clean ``text`` and fold it onto one line (newlines shown as ``↵``), cut to ``limit``.

    Only as much of ``text`` as the line can show is cleaned, so a 50 MB argument
    costs no more than a short one.
    """
    size = max(limit * 4, 1024)
    while True:
        head = text[:size]
        folded = clean(head).replace("\n", "↵").replace("\t", " ")
        # The margin keeps a sequence cut at the end of ``head`` out of sight.
        if len(head) == len(text) or len(folded) > limit + _SGR_MAX_PARAMS + 8:
            break
        size *= 4
    return folded if len(folded) <= limit else folded[: limit - 1] + "…"
