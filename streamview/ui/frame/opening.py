"""How the viewer opens: what its first screen waits for, and what waits for it.

``bench/first_screen.py`` times ``streamview FILE``'s first full screen against a bare
Textual app's (issue 21). Two things the app does on opening follow from it:

- a small finished file is folded on the UI thread before the first frame
  (:func:`fold_small_file`): on the loader's thread the fold came after an empty first
  frame, so the panes were painted twice, three times with their heights settling,
  before the file showed;
- lexers are built a while after the first session is on screen
  (:data:`HIGHLIGHT_AFTER_SECONDS`, :mod:`streamview.ui.text.highlight`): built at
  once, their thread held the interpreter's lock while that screen was painted.
"""

from __future__ import annotations

import stat

from streamview.sources.base import Source
from streamview.ui.feed.reader import Feed
from streamview.ui.playback.feed import PlaybackFeed

FOLD_AT_ONCE_BYTES = 256 * 1024
"""A finished file up to this size is folded before the first frame (a few ms)."""
HIGHLIGHT_AFTER_SECONDS = 0.25
"""Lexers are built this long after the first session is on screen (the screen, and
the next frame as the panes' heights settle, are painted by then)."""
HIGHLIGHT_AT_THE_LATEST_SECONDS = 1.0
"""... and this long after the viewer starts at the latest (a pipe with no session)."""


def fold_small_file(source: Source, feed: Feed | PlaybackFeed) -> bool:
    """Fold ``source`` here and now if it is a small finished file; whether it was.

    A pipe, a file that grows and a big file are read on the loader's thread once the
    first frame is up (the window appears at once, whatever the size).
    """
    path = source.path
    if not isinstance(feed, PlaybackFeed) or path is None or source.live:
        return False
    try:
        found = path.stat()
    except OSError:
        return False  # the loader says what is wrong, as for any file
    # Only a regular file has a size that says when it ends: /dev/zero or a named
    # pipe says 0 and never ends, and folded here it would hold the UI thread for ever.
    small = stat.S_ISREG(found.st_mode) and found.st_size <= FOLD_AT_ONCE_BYTES
    if small:
        feed.load()
    return small
