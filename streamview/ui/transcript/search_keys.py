"""Which blocks a transcript search must lay out: those whose own text can hold the
query once laid out (issue 27).

Laying a block out (Markdown, wrapping) is what a search costs; reading its text is
cheap. A block is laid out only if its *key* holds the query's key: the text case
folded with everything but letters and digits taken out. That is a superset of the
blocks whose lines hold the query, because laying out keeps a block's letters and
digits in order and adds or drops only other characters (markup, wrapping, joined
lines, bullets, bars, padding), with these exceptions, which make a block a
candidate whatever its key:

- a ``[`` (a link shows its address after its text; a reference link's address comes
  from elsewhere), a ``<`` (an autolink shows the address twice), a ``&`` (an entity
  becomes a character), a ``|`` (a table wraps each cell apart);
- an ordered list (its items are numbered again from the first);
- text long enough to be cut, with a note counting the rest.

Control characters become pictures (``\\x9b``) or go (colour): the key is taken of the
text as :func:`~streamview.core.sanitize.clean` leaves it, as the layout does.
Thinking has its label, a tool marker is its kind, target, status, summary and time
(:func:`tool_text`). A query whose key is empty (only punctuation) or a ``re:`` query
has no key: every block is laid out.

``str.casefold`` maps each character on its own and letters stay letters through it,
so a query found in a line, both folded, has its key inside the line's key.
"""

from __future__ import annotations

import re

from streamview.core.sanitize import clean
from streamview.core.state import NOTICE, PROMPT, TEXT, THINKING, TOOL, Block, Session, ToolCall
from streamview.core.textmatch import REGEX_PREFIX
from streamview.ui.transcript.block_layout import BLOCK_TEXT_LIMIT, THINKING_LABEL
from streamview.ui.transcript.marker_text import MarkerHolds, call_text

_NOT_LETTER = re.compile(r"[\W_]+")
"""What a key leaves out: ``\\w`` is :meth:`str.isalnum` and ``_``."""
_MAKES_TEXT = re.compile(r"[\[<&|]|^[ \t>*+-]*\d{1,9}[.)]", re.MULTILINE)
"""Markdown that shows letters or digits out of the text's order (see the module)."""
CUT_FROM = BLOCK_TEXT_LIMIT // 2
"""Text this long may be cut with a note (cleaning can lengthen it): always laid out."""


def key_of(text: str) -> str:
    """``text`` case folded, with only its letters and digits."""
    return _NOT_LETTER.sub("", text.casefold())


def query_key(query: str) -> str | None:
    """The key a block must hold to be laid out for ``query`` (``None``: every block)."""
    if query.startswith(REGEX_PREFIX) and len(query) > len(REGEX_PREFIX):
        return None
    return key_of(query) or None


class KeyFinder:
    """Whether a text's key holds ``key``, without making the text's key: the key's
    letters in order with anything but letters and digits between them, searched in
    the folded text (one scan, no copy of the text without its punctuation)."""

    def __init__(self, key: str) -> None:
        self.key = key
        self._pattern = re.compile(r"[\W_]*".join(map(re.escape, key)))

    def __call__(self, text: str) -> bool:
        """Whether ``key_of(text)`` holds the key."""
        return self._pattern.search(text.casefold()) is not None


def tool_text(call: ToolCall | None, cwd: str | None) -> str:
    """A tool marker's line before it is cut at the width (as
    :func:`~streamview.ui.transcript.blocks.tool_line` draws it)."""
    return call_text(call, cwd)


def may_hold(
    block: Block, session: Session | None, holds: KeyFinder, markers: MarkerHolds | None = None
) -> bool:
    """Whether ``block``'s lines, laid out, can hold a query whose key ``holds`` finds
    (``markers``: the session's markers' flags, read from its columns)."""
    kind = block.kind
    if kind == TOOL:
        call_index = block.call_index
        if markers is not None and call_index is not None:
            return markers(call_index)
        call = None
        if session is not None and call_index is not None:
            call = session.tool_calls[call_index]
        return holds(tool_text(call, session.cwd if session is not None else None))
    text = block.text
    if len(text) > CUT_FROM:
        return True
    text = clean(text)
    if kind == NOTICE:
        return holds(text)
    if kind == THINKING:
        if holds(THINKING_LABEL):
            return True
    elif kind not in (TEXT, PROMPT):
        return True
    if kind != PROMPT and _MAKES_TEXT.search(text) is not None:
        return True
    return holds(text)
