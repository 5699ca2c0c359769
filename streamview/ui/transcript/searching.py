"""The transcript's ``/`` search, done a slice at a time between frames (issue 27).

A search lays out the blocks that can hold the query (:mod:`.search_keys`) and finds
it in their lines. That can still be most of a session (a common word, a regular
expression), and a 200 MB session took 24 s laid out in one go, the screen held all
along. The walk here works for :data:`SLICE_SECONDS` at a time, then lets the app
paint and answer keys: the first hit is shown as soon as it is found, ``n``/``N`` move
among the hits found so far, and a new search, Escape or another session stops it. It
goes from the view's first block to the end, then from the top, so the first hit
found is the one a person looks for first.

:class:`TranscriptSearch` is the layer of :class:`.transcript.Transcript` between the
layout and the keys.
"""

from __future__ import annotations

import time
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from textual.message import Message
from textual.timer import Timer

from streamview.core.block_columns import kind_at, packed_count, tools_from
from streamview.core.state import THINKING, TOOL, Block, Session
from streamview.core.textmatch import Matcher
from streamview.ui.transcript.layout import TranscriptLayout
from streamview.ui.transcript.marker_text import MarkerHolds
from streamview.ui.transcript.search import Match, Matches
from streamview.ui.transcript.search_keys import KeyFinder, may_hold, query_key

SLICE_SECONDS = 0.03
"""How long a search works before it lets the app paint and read keys."""
PAUSE_SECONDS = 0.004
"""The pause between two slices (frames and keys happen in it)."""
REFLOW_SECONDS = 0.25
"""How often a search under way places the blocks it laid out (a reflow of a 2 GB
session's two million blocks costs tens of ms)."""

TELL_SECONDS = 0.1
"""How often the status bar hears how far a search got."""

VIEW, FIRST, LAST, STAY = "view", "first", "last", "stay"
"""Where a search lands: the first hit from the top of the view on, the first, the
last, or nowhere (the view stays; the current hit is the first from the view on)."""


class SearchWalk:
    """A search under way: the blocks left, walked from ``start`` to the end, then from
    the top."""

    def __init__(
        self, matcher: Matcher, holds: KeyFinder | None, start: int, count: int, land: str
    ) -> None:
        self.matcher = matcher
        self.holds = holds
        """Finds the query's key in a block's text (``None``: every block is laid out)."""
        self.markers: MarkerHolds | None = None
        """Whether a call's marker can hold the key (read from the session's columns)."""
        self._calls: dict[int, int] | None = None
        """Each tool block's call, by the block's place."""
        self.start = start
        self.count = count
        self.done = 0
        """Blocks walked so far."""
        self.land = land
        self.landed = land == LAST
        """The view went to a hit (or goes only at the end)."""
        self.reflowed = time.monotonic()
        self.told = 0.0
        """When the app last heard how far the search got."""

    def may_hold(
        self, blocks: Sequence[Block], index: int, kind: str, session: Session | None
    ) -> bool:
        """Whether block ``index`` (of kind ``kind``) can hold the query's key (call only
        with :attr:`holds`): a tool marker's flag is read from the session's call
        columns, a run of calls at a time, the block not made."""
        holds = self.holds
        assert holds is not None
        markers = self.markers
        if session is None:
            markers = None
        elif (
            markers is None or markers.calls is not session.tool_calls or markers.cwd != session.cwd
        ):
            # the first pack makes the list of calls columns; a cwd can come late
            markers = self.markers = MarkerHolds(session.tool_calls, session.cwd, holds)
        if kind == TOOL and markers is not None:
            calls = self._calls
            if calls is None:  # each packed marker's call, from the blocks' columns
                packed = packed_count(blocks)
                calls = self._calls = {
                    at: call for at, call in tools_from(blocks, 0) if at < packed
                }
            call = calls.get(index)
            if call is None:
                call = blocks[index].call_index
            if call is not None:
                return markers(call)
        return may_hold(blocks[index], session, holds, markers)

    def next(self) -> int:
        """The next block's index (call while :attr:`done` < :attr:`count`)."""
        index = self.start + self.done
        self.done += 1
        return index if index < self.count else index - self.count

    @property
    def wrapped(self) -> bool:
        """The blocks from ``start`` on are walked."""
        return self.done >= self.count - self.start


class TranscriptSearch(TranscriptLayout):
    """Search: the hits, the walk that finds them, and going from one to the next."""

    @dataclass
    class SearchProgress(Message, namespace="transcript"):
        """A search found more, or ended (its count is final)."""

        done: bool

    _walk: SearchWalk | None = None
    _walk_timer: Timer | None = None

    @property
    def query_text(self) -> str:
        """What the last search looked for (``""``: no search)."""
        return self._search.query

    @property
    def match_count(self) -> int:
        """How many matches the last search found (so far, while it runs)."""
        return len(self._search.hits)

    @property
    def match_position(self) -> int:
        """1-based index of the current match (0 when none)."""
        return self._search.position

    @property
    def search_progress(self) -> float | None:
        """How far the search under way has got (0 to 1); ``None``: none is."""
        walk = self._walk
        return None if walk is None else walk.done / max(1, walk.count)

    def begin_search(self, query: str, land: str = VIEW) -> None:
        """Look for ``query`` (case-insensitive; ``re:`` a regular expression): the blocks
        near the view now, the rest a slice at a time between frames.

        Args:
            query: What to find (``""``: no search).
            land: Where the view goes (:data:`VIEW`, :data:`FIRST`, :data:`LAST`, :data:`STAY`).
        """
        self._stop_walk()
        search = self._search
        search.query = query
        search.clear()
        search.waits = False
        matcher = search.matcher()
        if matcher is None:
            self.refresh()
            self.post_message(self.SearchProgress(True))
            return
        start = 0
        if land in (VIEW, STAY) and self._entries:
            start = max(0, bisect_right(self._offsets, round(self.scroll_y)) - 1)
            start = min(start, len(self._entries) - 1)
        key = query_key(query)
        holds = KeyFinder(key) if key is not None else None
        self._walk = SearchWalk(matcher, holds, start, len(self._entries), land)
        self._search_slice()

    def search(self, query: str) -> int:
        """Find ``query`` and go to the first hit from the top of the view on, here and
        now, however long it takes (for tests and scripts; the app's is :meth:`begin_search`).

        Returns:
            How many matches there are.
        """
        self.begin_search(query)
        while self._walk is not None:
            self._search_slice(whole=True)
        return len(self._search.hits)

    def _stop_walk(self) -> None:
        self._walk = None
        if self._walk_timer is not None:
            self._walk_timer.stop()
            self._walk_timer = None

    def _clear_matches(self) -> None:
        self._stop_walk()
        self._search.clear()

    def _search_slice(self, whole: bool = False) -> None:
        """Walk on for :data:`SLICE_SECONDS` (``whole``: to the end)."""
        self._walk_timer = None
        walk = self._walk
        if walk is None:
            return
        budget = None if whole else SLICE_SECONDS
        deadline = time.perf_counter() + (budget or 0.0)
        search, entries = self._search, self._entries
        blocks, session, holds = entries.blocks, self.session, walk.holds
        hidden = None if self.show_thinking else THINKING
        laid_from: int | None = None
        count = min(walk.count, len(entries))
        shown = self._entries_in_view()
        repaint = False
        while walk.done < walk.count:
            index = walk.next()
            if index >= count:
                continue
            kind = kind_at(blocks, index)
            if kind == hidden:
                continue
            if holds is not None and not walk.may_hold(blocks, index, kind, session):
                if budget is not None and not index & 31 and time.perf_counter() > deadline:
                    break
                continue
            if entries.get(index) is None and (laid_from is None or index < laid_from):
                laid_from = index
            if search.put(index, self._texts_at(index), walk.matcher) and index in shown:
                repaint = True
            if search.hits and not walk.landed and self._lands(walk):
                break
            if budget is not None and time.perf_counter() > deadline:
                break
        done = walk.done >= walk.count
        now = time.monotonic()
        if laid_from is not None and (done or now - walk.reflowed > REFLOW_SECONDS):
            self._place_laid_out(laid_from)
            walk.reflowed = now
        if not walk.landed and search.hits and (done or self._lands(walk)):
            self._land(walk)
            repaint = True
        if done:
            self._walk = None
            search.waits = not search.hits and bool(self.laying_out)
            if walk.land == LAST and search.hits:
                self._go_to_match(len(search.hits) - 1)
        else:
            self._walk_timer = self.set_timer(PAUSE_SECONDS, self._search_slice, name="search")
        if repaint or done:
            self.refresh()  # only a hit on screen, or the view moved: a frame costs ~10 ms
        if done or repaint or now - walk.told > TELL_SECONDS:
            walk.told = now
            self.post_message(self.SearchProgress(done))

    def _entries_in_view(self) -> range:
        """The blocks on screen now."""
        offsets = self._offsets
        top = round(self.scroll_y)
        first = max(0, bisect_right(offsets, top) - 1)
        last = bisect_right(offsets, top + self.scrollable_content_region.height)
        return range(first, last + 1)

    def _lands(self, walk: SearchWalk) -> bool:
        """Whether the hit to land on is found: one from the top of the view on (or,
        with none there, any once the walk is round the end)."""
        if walk.land == FIRST or walk.wrapped:
            return True
        hits = self._search.hits
        top = round(self.scroll_y)
        offsets = self._offsets
        for at in range(bisect_left(hits, walk.start, key=_entry_of), len(hits)):
            match = hits[at]
            if offsets[match.entry] + match.line >= top:
                return True
        return False

    def _land(self, walk: SearchWalk) -> None:
        """Make the first hit from the view on current (and go there unless :data:`STAY`)."""
        walk.landed = True
        hits = self._search.hits
        offsets = self._offsets
        if walk.land == FIRST:
            self._go_to_match(0)
            return
        self._place_laid_out(walk.start)  # the offsets of the hits about to be compared
        walk.reflowed = time.monotonic()
        top = round(self.scroll_y)
        after = bisect_left(hits, walk.start, key=_entry_of)
        below = (
            at for at in range(after, len(hits)) if offsets[hits[at].entry] + hits[at].line >= top
        )
        first = next(below, 0)
        if walk.land == STAY:
            self._search.index = first
        else:
            self._go_to_match(first)

    def _place_laid_out(self, start: int) -> None:
        """Heights of blocks from ``start`` on are known now: place them, the view kept."""
        anchor = self._anchor()
        self._reflow(start)
        if self.following:
            self._scroll_to_end()
        else:
            self._restore(anchor)

    def _refind(self, only: tuple[int, list[str]] | None = None) -> None:
        """Lines were rendered again (width, theme, thinking): find the matches again,
        a slice at a time, the view staying (``only``: in these lines of this entry, the
        rest being as they were)."""
        search = self._search
        if not search.query:
            return
        if only is None:
            self.begin_search(search.query, STAY)
            return
        search.put(*only)
        if search.hits and search.waits:
            search.waits = False
            self._go_to_match(0)
        self.refresh()

    def next_match(self, step: int = 1) -> bool:
        """Go to the next (``step=1``) or previous (``-1``) match; False when there is none."""
        hits = self._search.hits
        if not hits:
            return False
        if self._walk is not None:
            self._walk.landed = True  # the person moved: the search no longer lands
        self._go_to_match((self._search.index + step) % len(hits))
        return True

    def go_to_match(self, index: int) -> None:
        """Go to match ``index`` (0-based) of the last search, if there is one."""
        if 0 <= index < len(self._search.hits):
            walk = self._walk
            if walk is not None:
                walk.landed = True  # the person moved: the search no longer lands
            self._go_to_match(index)

    def clear_search(self) -> None:
        """Forget the search and its highlights (one under way stops)."""
        self._stop_walk()
        self._search = Matches()
        self.refresh()

    def _go_to_match(self, index: int) -> None:
        self._search.index = index
        match = self._search.hits[index]
        y = self._offsets[match.entry] + match.line
        if self.following:
            self.following = False
            self.post_message(self.FollowChanged(False, self.unseen))
        height = self.scrollable_content_region.height
        self._set_scroll(max(0, y - height // 3))
        self.refresh()

    def _match_in_view(self) -> bool:
        """Whether the current search match is on screen."""
        match = self._search.current
        if match is None:
            return False
        y = self._offsets[match.entry] + match.line
        top = round(self.scroll_y)
        return top <= y < top + self.scrollable_content_region.height

    def _hits_on(self, index: int, line: int) -> list[Match] | None:
        """The hits on line ``line`` of entry ``index``, if any."""
        return self._search.by_line.get((index, line))


def _entry_of(match: Match) -> int:
    return match.entry
