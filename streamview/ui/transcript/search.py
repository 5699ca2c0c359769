"""Search in the transcript: where the query occurs in the laid-out lines, and the
highlight of each hit.

A plain model with no widget of its own: :class:`streamview.ui.transcript.transcript.Transcript`
owns one, feeds it the lines it laid out, and asks it which hits fall on a line it
draws.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

import msgspec
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from streamview.core.textmatch import BadPattern, Matcher


class Match(msgspec.Struct):
    """One occurrence: entry, line within it, and the character span on that line."""

    entry: int
    line: int
    start: int
    end: int


class Matches(msgspec.Struct):
    """The hits of the current query, in the order of the lines, and which one is current.

    Filled an entry at a time (:meth:`put`), in any order: a search walks the blocks
    from the view on, and the layout thread sends long blocks when they are done.
    """

    query: str = ""
    """What was searched for (``""``: no search)."""
    hits: list[Match] = msgspec.field(default_factory=list)
    by_line: dict[tuple[int, int], list[Match]] = msgspec.field(default_factory=dict)
    """The hits on each ``(entry, line)``."""
    index: int = -1
    """The current hit (``-1``: none)."""
    waits: bool = False
    """The search found nothing yet while long blocks were still being laid out."""

    @property
    def position(self) -> int:
        """1-based index of the current hit (0 when none)."""
        return self.index + 1 if self.hits else 0

    @property
    def current(self) -> Match | None:
        """The current hit, if any."""
        return self.hits[self.index] if 0 <= self.index < len(self.hits) else None

    def clear(self) -> None:
        """Forget the hits (the query stays)."""
        self.hits = []
        self.by_line = {}
        self.index = -1

    def find(self, entries: Iterable[tuple[int, Sequence[str]]]) -> list[Match]:
        """Every occurrence of :attr:`query` in ``entries``' lines (case-insensitive; a
        leading ``re:`` makes it a regular expression, an invalid one finds nothing).

        Args:
            entries: ``(entry number, the texts of its laid-out lines)``, in order.
        """
        self.clear()
        matcher = self.matcher()
        if matcher is not None:
            for number, lines in entries:
                self.put(number, lines, matcher)
        return self.hits

    def replace(self, number: int, lines: Sequence[str]) -> list[Match]:
        """The hits, entry ``number``'s found again in ``lines`` (the texts of the lines
        the layout thread sent); the other entries' hits are kept, not searched again."""
        self.put(number, lines)
        return self.hits

    def put(self, number: int, lines: Sequence[str], matcher: Matcher | None = None) -> int:
        """Entry ``number``'s hits found in ``lines`` in place of those it had; the
        current hit stays the same one (or the nearest, if it was in this entry).

        Returns:
            How many hits the entry has now.
        """
        matcher = matcher or self.matcher()
        if matcher is None:
            return 0
        found = _matches(matcher, number, lines)
        hits = self.hits
        start = bisect_left(hits, number, key=_entry_of)
        end = bisect_right(hits, number, lo=start, key=_entry_of)
        if start == end and not found:
            return 0
        by_line = self.by_line
        for match in hits[start:end]:
            by_line.pop((match.entry, match.line), None)
        for match in found:
            by_line.setdefault((match.entry, match.line), []).append(match)
        hits[start:end] = found
        index = self.index
        if index >= end:
            self.index = index + len(found) - (end - start)
        elif index >= start:
            self.index = min(index, start + len(found) - 1) if found else min(start, len(hits) - 1)
        return len(found)

    def matcher(self) -> Matcher | None:
        """The query's matcher; ``None`` with no query or one that is no pattern."""
        if not self.query:
            return None
        try:
            return Matcher.for_query(self.query)
        except BadPattern:
            return None

    def highlight(self, strip: Strip, hits: list[Match], normal: Style, current: Style) -> Strip:
        """``strip`` with the hits ``hits`` on it styled (the current one as ``current``)."""
        text = strip.text
        on = self.current
        for match in hits:
            start = Segment.get_line_length([Segment(text[: match.start])])
            end = start + Segment.get_line_length([Segment(text[match.start : match.end])])
            before, middle, after = strip.divide([start, end, strip.cell_length])
            style = current if match is on else normal
            marked = Strip(list(Segment.apply_style(iter(middle), post_style=style)))
            strip = Strip.join([before, marked, after])
        return strip


def _entry_of(match: Match) -> int:
    return match.entry


def _matches(matcher: Matcher, number: int, lines: Sequence[str]) -> list[Match]:
    """The occurrences of ``matcher`` in entry ``number``'s ``lines`` (their texts)."""
    return [
        Match(number, line_number, start, end)
        for line_number, text in enumerate(lines)
        for start, end in matcher.spans(text)
    ]
