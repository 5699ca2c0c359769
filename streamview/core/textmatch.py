"""What a search looks for: plain text (case-insensitive), or with a leading ``re:`` a
regular expression (case-insensitive too). Shared by the transcript's search and the
search through tool calls."""

from __future__ import annotations

import re
from collections.abc import Iterator

import msgspec

REGEX_PREFIX = "re:"


class BadPattern(ValueError):
    """A ``re:`` query whose regular expression does not compile (the message says why)."""


class Matcher(msgspec.Struct, frozen=True):
    """Finds a query in texts."""

    query: str
    pattern: re.Pattern[str] | None = None
    """The compiled expression of a ``re:`` query; ``None`` for plain text."""

    @classmethod
    def for_query(cls, query: str) -> Matcher:
        """The matcher of what a person typed.

        Raises:
            BadPattern: A ``re:`` query that is not a valid regular expression.
        """
        if query.startswith(REGEX_PREFIX) and len(query) > len(REGEX_PREFIX):
            source = query[len(REGEX_PREFIX) :]
            try:
                return cls(query, re.compile(source, re.IGNORECASE))
            except re.error as error:
                raise BadPattern(f"not a regular expression: {source} ({error})") from None
        return cls(query)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where the query occurs in ``text`` (non-empty, non-overlapping)."""
        if self.pattern is not None:
            for found in self.pattern.finditer(text):
                if found.end() > found.start():
                    yield found.start(), found.end()
            return
        needle = self.query.casefold()
        if not needle:
            return
        haystack = text.casefold()
        start = haystack.find(needle)
        while start >= 0:
            yield start, start + len(needle)
            start = haystack.find(needle, start + len(needle))

    def holds(self, text: str) -> bool:
        """Whether the query occurs in ``text``."""
        return next(self.spans(text), None) is not None
