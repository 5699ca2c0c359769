"""Redaction of text and of NDJSON lines: secrets become ``[REDACTED:kind]``, the home
directory ``~``, and (when asked) the user and host names ``[REDACTED:user]`` and
``[REDACTED:host]``.

A rule is tried only on text holding one of its keywords (gitleaks' own prefilter):
one scan of the text for every keyword at once picks the few rules worth running. A
secret wrapped across lines (a key printed at 80 columns) is found by trying the rules
again on the text with its line breaks inside words taken out, and redacting the
whole wrapped span.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import orjson

from streamview.core.redact.rules import Rule, every_rule

_HOME_PATTERNS = (
    re.compile(r"(?<![\w.~/-])/(?:home|Users)/[A-Za-z0-9._-]+(?=/|\b|$)"),
    re.compile(r"(?<![\w.~/-])/root(?=/|\b)"),
    re.compile(r"[A-Za-z]:\\\\?Users\\\\?[A-Za-z0-9._ -]+?(?=\\|\b|$)"),
)
"""Home directories of any machine (a recording is shared from wherever it was made)."""

_TOKEN_END = re.compile(r"[A-Za-z0-9_+/=.:-]{2,}$")
_TOKEN_START = re.compile(r"[A-Za-z0-9_+/=.:-]{2,}")
"""A line that ends, and one that begins, with a run of a key's characters: a wrap."""

WRAPPED_LINES = 4
"""The most lines a wrapped secret is looked for across."""

_PUNCTUATION = re.compile(r"[/\\()\[\]{}<>|,]")
"""Characters a secret may meet in a path or code that the providers' rules do not
take as its end."""


@cache
def _keyword_index(rules: tuple[Rule, ...]) -> dict[str, list[Rule]]:
    """The rules by keyword."""
    by_keyword: dict[str, list[Rule]] = {}
    for rule in rules:
        for word in rule.keywords:
            by_keyword.setdefault(word, []).append(rule)
    return by_keyword


def marker(kind: str) -> str:
    """What a secret of ``kind`` becomes."""
    return f"[REDACTED:{kind}]"


@dataclass
class Redactor:
    """Redacts text, keeping count of what it removed.

    Attributes:
        home: The home directories to write as ``~`` (the user's own first).
        names: The user and host names to remove (``--redact-names``), by kind.
        counts: How many of each kind were removed so far.
    """

    home: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)
    rules: tuple[Rule, ...] = field(default_factory=every_rule)

    def __post_init__(self) -> None:
        self._by_keyword = _keyword_index(self.rules)
        self._words: list[str] | None = None  # the line's keywords (:meth:`line`)
        self._names = [
            (re.compile(rf"(?<![A-Za-z0-9_.-]){re.escape(name)}(?![A-Za-z0-9_-])"), kind)
            for kind, name in self.names.items()
            if len(name) >= 3
        ]

    def _candidates(self, text: str) -> list[Rule]:
        """The rules whose keywords ``text`` holds, in the rule set's order.

        Looked for with ``in`` (a fast scan in C; one pattern of every keyword was
        ten times slower): among the keywords of the line being redacted when there
        is one, else among all.
        """
        lowered = text.lower()
        chosen: dict[int, Rule] = {}
        for word in self._by_keyword if self._words is None else self._words:
            if word in lowered:
                for rule in self._by_keyword[word]:
                    chosen.setdefault(id(rule), rule)
        return list(chosen.values())

    def _secrets(self, text: str) -> str:
        return self._replace(text, self._found(text))

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """The secrets of ``text``, as merged ``(start, end, kind)`` spans (uncounted)."""
        return _merge(self._found(text))

    def _found(self, text: str) -> list[tuple[int, int, str]]:
        # A keyword may be cut by a line break too ("T3\nBlbkFJ").
        rules = self._candidates(text if "\n" not in text else text + text.replace("\n", ""))
        if not rules:
            return []
        spans: list[tuple[int, int, str]] = []
        for rule in rules:
            spans.extend((start, end, rule.kind) for start, end in rule.secrets(text))
        if _PUNCTUATION.search(text):
            # A key as a file name ("~/ghp_.../x"), in brackets or after a colon: the
            # providers' rules want a space or a quote after the key.
            spaced = _PUNCTUATION.sub(" ", text)
            for rule in rules:
                spans.extend((start, end, rule.kind) for start, end in rule.secrets(spaced))
        if "\n" in text:
            spans.extend(self._wrapped(text))
        return spans

    def _wrapped(self, text: str) -> list[tuple[int, int, str]]:
        """Secrets cut by line breaks (up to :data:`WRAPPED_LINES` lines), as spans of
        ``text``: each break between two words runs on is tried joined, alone and with
        the next ones."""
        lines = text.split("\n")
        starts = [0]
        for line in lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        spans = []
        for k in range(len(lines) - 1):
            if not (_TOKEN_END.search(lines[k]) and _TOKEN_START.match(lines[k + 1])):
                continue
            origin = list(range(starts[k], starts[k] + len(lines[k])))
            joined = lines[k]
            for m in range(k + 1, min(k + WRAPPED_LINES, len(lines))):
                joined += lines[m]
                origin.extend(range(starts[m], starts[m] + len(lines[m])))
                tail = "\n" if m + 1 < len(lines) else ""
                for rule in self._candidates(joined):
                    for start, end in rule.secrets(joined + tail):
                        if end > len(origin):
                            end = len(origin)
                        if start < len(lines[k]) < end:  # it crosses the break
                            spans.append((origin[start], origin[end - 1] + 1, rule.kind))
                if not _TOKEN_END.search(lines[m]):
                    break
        return spans

    def _replace(self, text: str, spans: list[tuple[int, int, str]]) -> str:
        if not spans:
            return text
        merged = _merge(spans)
        out = []
        position = 0
        for start, end, kind in merged:
            out.append(text[position:start])
            out.append(marker(kind))
            self.counts[kind] += 1
            position = end
        out.append(text[position:])
        return "".join(out)

    def text(self, text: str) -> str:
        """``text`` redacted."""
        text = self._secrets(text)
        for home in self.home:
            if home and home in text:
                self.counts["home"] += text.count(home)
                text = text.replace(home, "~")
        for pattern in _HOME_PATTERNS:
            text, removed = pattern.subn("~", text)
            if removed:
                self.counts["home"] += removed
        for pattern, kind in self._names:
            text, removed = pattern.subn(marker(kind), text)
            if removed:
                self.counts[kind] += removed
        return text

    def value(self, value: Any) -> Any:
        """A decoded JSON value with every string in it (keys too) redacted."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.value(item) for item in value]
        if isinstance(value, dict):
            return {self.text(key): self.value(item) for key, item in value.items()}
        return value

    def line(self, line: bytes) -> bytes:
        """One NDJSON line (without its line break) redacted: a JSON line decoded, every
        string redacted, encoded again; any other line redacted as text."""
        if not line.strip():
            return line
        try:
            decoded = orjson.loads(line)
        except orjson.JSONDecodeError:
            return self.text(line.decode("utf-8", "replace")).encode("utf-8")
        lowered = line.lower().decode("utf-8", "replace")
        if "\\u" not in lowered:  # no escape can hide a keyword from this scan
            # Without its escaped line breaks: a keyword cut by one is found whole, and
            # none is lost (no keyword holds one).
            joined = lowered.replace("\\n", "")
            self._words = [word for word in self._by_keyword if word in joined]
        try:
            redacted = self.value(decoded)
        finally:
            self._words = None
        if redacted == decoded:
            return line  # nothing removed: the line as it was, byte for byte
        return orjson.dumps(redacted)

    def report(self) -> str:
        """One line saying how many of each kind were removed."""
        return report(self.counts)


def _merge(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    """Overlapping spans as one (the first one's kind)."""
    spans = sorted(spans, key=lambda span: (span[0], -span[1]))
    merged: list[tuple[int, int, str]] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:
            first, last, first_kind = merged[-1]
            merged[-1] = (first, max(last, end), first_kind)
        else:
            merged.append((start, end, kind))
    return merged


def report(counts: Counter[str]) -> str:
    """``redacted 5: 3 aws-access-token, 2 home`` (most first), or ``redacted nothing``."""
    counts = Counter({kind: n for kind, n in counts.items() if n > 0})
    total = sum(counts.values())
    if not total:
        return "redacted nothing"
    parts = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items(), key=_most_first))
    return f"redacted {total}: {parts}"


def _most_first(item: tuple[str, int]) -> tuple[int, str]:
    return (-item[1], item[0])


def redact_lines(lines: Iterable[bytes], redactor: Redactor) -> Iterable[bytes]:
    """Each line of ``lines`` redacted (each without its line break)."""
    for line in lines:
        yield redactor.line(line)
