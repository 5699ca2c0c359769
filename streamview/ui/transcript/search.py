"""Search in the transcript: where the query occurs in the laid-out lines, and the
highlight of each hit.

A plain model with no widget of its own: :class:`streamview.ui.transcript.transcript.Transcript`
owns one, feeds it the lines it laid out, and asks it which hits fall on a line it
draws.
"""

from __future__ import annotations

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
    """The hits of the current query, and which one is current."""

    query: str = ""
    """What was searched for (``""``: no search)."""
    hits: list[Match] = msgspec.field(default_factory=list)
    by_line: dict[tuple[int, int], list[int]] = msgspec.field(default_factory=dict)
    """Indices into ``hits`` per ``(entry, line)``."""
    index: int = -1
    """The current hit (``-1``: none)."""
    waits: bool = False
    """The search found nothing yet while long blocks were still being laid out."""

    @property
    def position(self) -> int:
        """1-based index of the current hit (0 when none)."""
        return self.index + 1 if self.hits else 0

    def clear(self) -> None:
        """Forget the hits (the query stays)."""
        self.hits = []
        self.by_line = {}
        self.index = -1

    def find(self, entries: Iterable[tuple[int, Sequence[Strip]]]) -> list[Match]:
        """Every occurrence of :attr:`query` in ``entries``' lines (case-insensitive; a
        leading ``re:`` makes it a regular expression, an invalid one finds nothing).

        Args:
            entries: ``(entry number, its laid-out lines)``, in order.
        """
        self.clear()
        if not self.query:
            return self.hits
        try:
            matcher = Matcher.for_query(self.query)
        except BadPattern:
            return self.hits
        hits = self.hits
        for number, lines in entries:
            for line_number, strip in enumerate(lines):
                for start, end in matcher.spans(strip.text):
                    hits.append(Match(number, line_number, start, end))
        for index, match in enumerate(hits):
            self.by_line.setdefault((match.entry, match.line), []).append(index)
        return hits

    def highlight(self, strip: Strip, hits: list[int], normal: Style, current: Style) -> Strip:
        """``strip`` with the hits ``hits`` on it styled (the current one as ``current``)."""
        text = strip.text
        for hit in hits:
            match = self.hits[hit]
            start = Segment.get_line_length([Segment(text[: match.start])])
            end = start + Segment.get_line_length([Segment(text[match.start : match.end])])
            before, middle, after = strip.divide([start, end, strip.cell_length])
            style = current if hit == self.index else normal
            marked = Strip(list(Segment.apply_style(iter(middle), post_style=style)))
            strip = Strip.join([before, marked, after])
        return strip
