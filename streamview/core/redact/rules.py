"""The secret rules: gitleaks' rule set (vendored, ``gitleaks.toml``) plus a few of our
own that gitleaks leaves to other tools (passwords in URLs, the home directory).

gitleaks' rules are Go regular expressions. Python's ``re`` reads nearly all of them
as they are; the rest differ in two ways only: a flag group such as ``(?i)`` in the
middle of a pattern (moved to its start: a rule then matches a little more, which for
redaction errs on the safe side) and ``\\z`` (Python spells it ``\\Z``).
"""

from __future__ import annotations

import math
import re
import tomllib
import warnings
from collections import Counter
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

_MID_FLAGS = re.compile(r"\(\?([a-z]+)\)")


@dataclass(frozen=True)
class Allowlist:
    """What makes a match of a rule not a secret (gitleaks' ``[[rules.allowlists]]``)."""

    regexes: tuple[re.Pattern[str], ...]
    """A match of one of these (on the secret, or the whole match) is allowed."""
    on_match: bool
    """Whether ``regexes`` test the whole match rather than the secret."""
    stopwords: tuple[str, ...]
    """A secret holding one of these (lower case) is allowed."""

    def allows(self, secret: str, match: str) -> bool:
        """Whether this list lets the match through."""
        target = match if self.on_match else secret
        if any(regex.search(target) for regex in self.regexes):
            return True
        lowered = secret.lower()
        return any(word in lowered for word in self.stopwords)


@dataclass(frozen=True)
class Rule:
    """One kind of secret: a pattern, the group that is the secret, and its filters."""

    kind: str
    """The name in ``[REDACTED:kind]`` (gitleaks' rule id)."""
    regex: re.Pattern[str]
    secret_group: int
    """The group that holds the secret (0: the whole match)."""
    keywords: tuple[str, ...]
    """Lower-case words one of which the text must hold for the rule to be tried."""
    entropy: float = 0.0
    """The least Shannon entropy (bits a character) the secret must have."""
    allowlists: tuple[Allowlist, ...] = ()

    def secrets(self, text: str) -> list[tuple[int, int]]:
        """The spans of ``text`` this rule finds to be secrets."""
        spans = []
        for match in self.regex.finditer(text):
            group = self.secret_group if self.secret_group <= (self.regex.groups or 0) else 0
            start, end = match.span(group)
            if start < 0:
                start, end = match.span()
            if end <= start:
                continue
            secret = text[start:end]
            if self.entropy and shannon_entropy(secret) < self.entropy:
                continue
            if any(allow.allows(secret, match.group(0)) for allow in self.allowlists):
                continue
            spans.append((start, end))
        return spans


def shannon_entropy(text: str) -> float:
    """Bits of information a character of ``text`` carries (gitleaks' measure)."""
    if not text:
        return 0.0
    length = len(text)
    return -sum(n / length * math.log2(n / length) for n in Counter(text).values())


def go_to_python(pattern: str) -> str:
    """A gitleaks (Go RE2) pattern as Python's ``re`` reads it."""
    pattern = pattern.replace(r"\z", r"\Z")
    flags = ""
    for found in _MID_FLAGS.finditer(pattern):
        if found.start() > 0:
            flags += found.group(1)
    if flags:
        pattern = _MID_FLAGS.sub(lambda m: m.group(0) if m.start() == 0 else "", pattern)
        if pattern.startswith("(?") and _MID_FLAGS.match(pattern):
            head = _MID_FLAGS.match(pattern)
            assert head is not None
            flags += head.group(1)
            pattern = pattern[head.end() :]
        pattern = f"(?{''.join(sorted(set(flags)))})" + pattern
    return pattern


OWN_RULES = (
    Rule(
        kind="url-password",
        # scheme://user:PASSWORD@host: the password goes, the user and host stay.
        regex=re.compile(
            r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@'\"]{1,100}:([^\s@/'\"]{1,200})@"
        ),
        secret_group=1,
        keywords=("://",),
    ),
)
"""Rules gitleaks has no general form of."""


def _allowlists(entries: list[dict[str, object]]) -> tuple[Allowlist, ...]:
    lists = []
    for entry in entries:
        raw_regexes = entry.get("regexes") or []
        raw_stopwords = entry.get("stopwords") or []
        assert isinstance(raw_regexes, list) and isinstance(raw_stopwords, list)
        if entry.get("paths") or entry.get("commits"):
            continue  # about files and commits, which a stream has not
        lists.append(
            Allowlist(
                regexes=tuple(re.compile(go_to_python(str(r))) for r in raw_regexes),
                on_match=entry.get("regexTarget") == "match",
                stopwords=tuple(str(word).lower() for word in raw_stopwords),
            )
        )
    return tuple(lists)


@cache
def gitleaks_rules() -> tuple[Rule, ...]:
    """gitleaks' rules with a pattern (one, ``pkcs12-file``, names files only)."""
    text = resources.files(__package__).joinpath("gitleaks.toml").read_text("utf-8")
    config = tomllib.loads(text)
    rules = []
    with warnings.catch_warnings():
        # "Possible nested set": Python's note about a class such as [[:x]], which
        # Go reads as Python does today.
        warnings.simplefilter("ignore", FutureWarning)
        rules = _compile(config["rules"])
    return tuple(rules)


def _compile(entries: list[dict[str, Any]]) -> list[Rule]:
    rules = []
    for entry in entries:
        if "regex" not in entry:
            continue
        rules.append(
            Rule(
                kind=entry["id"],
                regex=re.compile(go_to_python(entry["regex"])),
                secret_group=int(entry.get("secretGroup", 1)),
                keywords=tuple(word.lower() for word in entry.get("keywords", ())),
                entropy=float(entry.get("entropy", 0.0)),
                allowlists=_allowlists(entry.get("allowlists", [])),
            )
        )
    return rules


@cache
def every_rule() -> tuple[Rule, ...]:
    """gitleaks' rules, then ours."""
    return (*gitleaks_rules(), *OWN_RULES)
