"""How deep a decoded JSON value nests, and a copy of it cut to a depth every view can walk.

The parser (orjson) accepts records nested up to :data:`PARSER_DEPTH` levels. A view
that walks a value with one Python frame per level (``json.dumps(indent=2)``, Rich,
a tree of directories) would hit Python's recursion limit long before that, and
orjson refuses to *write* more than 254 levels. So a record is cut to
:data:`SHOWN_DEPTH` levels where it enters a view (the detail screens, the exports):
a container deeper than that is replaced by the text ``… nested N deep`` (N: how many
levels it holds), and every walk here is a loop, never a recursion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

PARSER_DEPTH = 1024
"""Deepest nesting orjson decodes; a line nested deeper is "nested too deep"."""

SHOWN_DEPTH = 200
"""Levels of a value the views and exports show (orjson writes up to 254)."""


def depth_of(value: Any) -> int:
    """How many levels of lists and objects ``value`` nests (0 for a string or number)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        stack.extend((child, depth) for child in children if isinstance(child, dict | list | tuple))
    return deepest


def too_deep_note(levels: int) -> str:
    """What stands in for a cut container: ``… nested 700 deep``."""
    return f"… nested {levels:,} deep"


def _same(text: str) -> str:
    return text


def cut_deep(
    value: Any,
    limit: int = SHOWN_DEPTH,
    text: Callable[[str], str] = _same,
    key: Callable[[Any], Any] = _same,
) -> Any:
    """A copy of ``value`` no deeper than ``limit``, made without recursion.

    Args:
        value: A decoded JSON value (dicts, lists, strings, numbers...).
        limit: Levels kept; a list or object deeper than that becomes
            :func:`too_deep_note` of its own depth.
        text: Applied to every string value (a sanitizer, say).
        key: Applied to every object key.

    Returns:
        The copy; ``value`` itself when nothing needs changing (no ``text`` or ``key``
        given and no deeper than ``limit``), which is the common case and costs one walk.
    """
    if text is _same and key is _same and depth_of(value) <= limit:
        return value

    def leaf(item: Any) -> Any:
        return text(item) if isinstance(item, str) else item

    if not isinstance(value, dict | list):
        return leaf(value)
    if limit <= 0:
        return too_deep_note(depth_of(value))
    root: Any = {} if isinstance(value, dict) else []
    # Each entry: a container to copy, its (empty) copy, and the copy's depth.
    stack: list[tuple[Any, Any, int]] = [(value, root, 1)]
    while stack:
        source, copy, depth = stack.pop()
        pairs = source.items() if isinstance(source, dict) else enumerate(source)
        for name, child in pairs:
            if isinstance(child, dict | list):
                if depth >= limit:
                    made: Any = too_deep_note(depth_of(child))
                else:
                    made = {} if isinstance(child, dict) else []
                    stack.append((child, made, depth + 1))
            else:
                made = leaf(child)
            if isinstance(copy, dict):
                copy[key(name)] = made
            else:
                copy.append(made)
    return root
