"""Which agent wrote a stream, from its first lines, before it is read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

import streamview.core.dialects as dialects
from streamview.core.decoding import decode_line
from streamview.core.dialects.base import Dialect
from streamview.core.framing import LineFramer

SNIFF_BYTES = 16 << 20
"""Bytes read to recognise the dialect at most: past them (one endless first line, say)
the stream is read as the default dialect rather than held in memory."""


def sniff(chunks: Iterable[bytes]) -> tuple[Dialect, Iterator[bytes]]:
    """Recognise a stream's dialect from its first lines, giving the chunks back.

    Returns:
        The dialect, and an iterator over every chunk (those read to decide first).
    """
    found, source = recognise(chunks)
    return found or dialects.DEFAULT, source


def recognise(chunks: Iterable[bytes]) -> tuple[Dialect | None, Iterator[bytes]]:
    """:func:`sniff`, saying ``None`` when no record proved the dialect (the stream is
    then read as :data:`~streamview.core.dialects.DEFAULT`'s, but not named after it)."""
    source = iter(chunks)
    read: list[bytes] = []
    framer = LineFramer()
    seen = 0
    held = 0
    for chunk in source:
        read.append(chunk)
        held += len(chunk)
        number = framer.lines_seen
        for data in framer.split(chunk):
            number += 1
            if not data.strip():
                continue
            seen += 1
            record, _ = decode_line(data.rstrip(b"\r"), number)
            found, known = dialects.decide_how(record)
            if found is not None:
                return found if known else None, chain(read, source)
            if seen >= dialects.DETECT_WINDOW:
                return None, chain(read, source)
        # Its lines said nothing: no more is held to look for one (one line so long
        # it is not over yet). Looked at only now, so a whole file in one chunk (runs'
        # read of a recording) is recognised by its first lines, not read as Cursor's.
        if held > SNIFF_BYTES:
            return dialects.DEFAULT, chain(read, source)
    for number, _, data in framer.finish():
        record, _ = decode_line(data, number)
        found, known = dialects.decide_how(record)
        if found is not None:
            return found if known else None, iter(read)
    return None, iter(read)
