"""What the bytes a viewer wrote to its terminal must not hold, with the key to blame.

A :class:`KeyLog` remembers where in the output each key was pressed, so a problem
found at a byte offset names the key (and the screen) that produced it. The checks
compare with a baseline: the bytes Textual itself writes when the same keys are
pressed on a benign stream (its pointer-shape OSC 22, the OSC 52 of a legitimate copy).
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

STRING_SEQUENCE = re.compile(rb"\x1b[\]P_^X][^\x07\x1b]*(?:\x07|\x1b\\)?")
"""An OSC, DCS, APC, PM or SOS string: what a terminal acts on without showing it."""
OSC52 = re.compile(rb"\x1b\]52;([^;\x07\x1b]*);([^\x07\x1b]*)")
"""A clipboard write (or query): its target and its base64 payload."""
OSC8 = re.compile(rb"\x1b\]8;[^;\x07\x1b]*;([^\x07\x1b]*)")
"""A hyperlink: its URL."""
C1 = re.compile(rb"\xc2[\x80-\x9f]")
"""An 8-bit control (U+0080-U+009F) as UTF-8: CSI, DCS, OSC... to many terminals."""
LONE_ESCAPE = re.compile(rb"\x1b[^\[\]\\]")
"""An escape followed by neither ``[`` (CSI), ``]`` (OSC) nor ``\\`` (ST): Textual
writes none; the stream's ``ESC P`` (DCS), ``ESC D`` or ``ESC c`` are such."""
CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""A control character in copied text (tab and newline are text)."""
COUNTED = {
    "DSR cursor query ESC[6n": b"\x1b[6n",
    "DSR status query ESC[5n": b"\x1b[5n",
    "bracketed paste end ESC[201~": b"\x1b[201~",
    "DCS ESC P": b"\x1bP",
    "OSC 8 link": b"\x1b]8;",
}
"""Sequences allowed no more often than Textual sends them on the benign stream."""
CRASH_WORDS = (b"Traceback", b"MarkupError", b"Error in stylesheet")
"""Words of an unhandled exception's report."""


@dataclass
class KeyLog:
    """Which key was pressed where in the output."""

    entries: list[tuple[int, str]] = field(default_factory=list)

    def add(self, offset: int, label: str) -> None:
        """Key ``label`` was pressed when the output was ``offset`` bytes long."""
        self.entries.append((offset, label))

    def at(self, offset: int) -> str:
        """The key pressed last before ``offset`` (``start`` before the first)."""
        label = "start (before any key)"
        for where, name in self.entries:
            if where > offset:
                break
            label = name
        return label


def _excerpt(output: bytes, start: int, end: int) -> bytes:
    return output[max(0, start - 20) : min(len(output), end + 20)]


def problems(output: bytes, keys: KeyLog, markers: Iterable[bytes], baseline: bytes) -> list[str]:
    """Everything in ``output`` the stream must not have put there, each with the key
    that produced it and the offending bytes.

    Args:
        output: Every byte the viewer wrote to its terminal.
        keys: Where each key was pressed.
        markers: Byte strings only the hostile stream holds (its unique marker, the
            base64 of it, its link's host): found in a terminal string, it came from there.
        baseline: The bytes of a run on a benign stream with the same keys.
    """
    found: list[str] = []
    seen: dict[str, int] = {}
    marks = [m for m in markers if m]

    def report(what: str, start: int, end: int) -> None:
        key = keys.at(start)
        kind = f"{what} after key {key!r}"
        seen[kind] = seen.get(kind, 0) + 1
        if seen[kind] <= 2:  # the first two of a kind, with their bytes; then a count
            found.append(f"{kind} at byte {start}: {_excerpt(output, start, end)!r}")

    for match in STRING_SEQUENCE.finditer(output):
        body = match.group()
        copy = OSC52.match(body)
        if copy is not None and _decoded(copy.group(2)) is not None:
            continue  # a copy: judged by what it copies, below
        if any(m in body for m in marks):
            report("a terminal string carrying the stream's text", *match.span())
    for match in OSC52.finditer(output):
        copied = _decoded(match.group(2))
        if copied is not None and copied.encode() in marks:
            # The stream's own clipboard write, whole: its payload is the marker.
            report("a terminal string carrying the stream's text", *match.span())
            continue
        # A legitimate copy of the stream's (cleaned) text may hold the marker, and its
        # base64 then the marker's base64 wherever the two line up: what counts is that
        # it copies no control character.
        report_copy = _bad_copy(match.group(2))
        if report_copy:
            report(f"an OSC 52 clipboard write {report_copy}", *match.span())
    for match in OSC8.finditer(output):
        url = match.group(1)
        if url and url not in baseline and not any(m in url for m in marks):
            report("an OSC 8 link to a URL Textual never sends", *match.span())
    for match in C1.finditer(output):
        report("a raw C1 control", *match.span())
    for name, sequence in COUNTED.items():
        allowed = baseline.count(sequence)
        places = [m.start() for m in re.finditer(re.escape(sequence), output)]
        if len(places) > allowed:
            first = places[allowed]
            extra = len(places) - allowed
            report(f"{name}, {extra} more than on a benign stream", first, first + 8)
    lone = [m.start() for m in LONE_ESCAPE.finditer(output)]
    allowed = len(LONE_ESCAPE.findall(baseline))
    if len(lone) > allowed:
        first = lone[allowed]
        report(
            f"an escape that starts no CSI or OSC ({len(lone) - allowed} more than on a"
            " benign stream: ESC D scrolls, ESC c resets the terminal)",
            first,
            first + 2,
        )
    for word in CRASH_WORDS:
        where = output.find(word)
        if where >= 0:
            report(f"{word.decode()} on the terminal", where, where + 400)
    found.extend(f"... {count - 2} more: {kind}" for kind, count in seen.items() if count > 2)
    return found


def _decoded(payload: bytes) -> str | None:
    """An OSC 52 payload's text, or ``None`` when it is not base64 of UTF-8."""
    try:
        return base64.b64decode(payload, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None


def _bad_copy(payload: bytes) -> str:
    """Why an OSC 52 payload is not a legitimate copy, or ``""``."""
    if payload == b"?":
        return "that queries the clipboard"
    try:
        text = base64.b64decode(payload, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return "whose payload is not base64 of UTF-8 text"
    control = CONTROL.search(text)
    if control:
        at = control.start()
        return f"copying a control character: {text[max(0, at - 30) : at + 30]!r}"
    return ""


def copied_texts(output: bytes) -> list[str]:
    """Every text the viewer put on the clipboard (OSC 52), decoded."""
    texts = []
    for match in OSC52.finditer(output):
        try:
            texts.append(base64.b64decode(match.group(2), validate=True).decode("utf-8"))
        except (binascii.Error, UnicodeDecodeError):
            texts.append(f"<not base64: {match.group(2)[:40]!r}>")
    return texts
