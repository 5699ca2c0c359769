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
from functools import cache, cached_property
from importlib import resources
from typing import Any

_MID_FLAGS = re.compile(r"\(\?([a-z]+)\)")


@dataclass(frozen=True)
class Allowlist:
    """What makes a match of a rule not a secret (gitleaks' ``[[rules.allowlists]]``)."""

    patterns: tuple[str, ...]
    """A match of one of these (on the secret, or the whole match) is allowed."""
    on_match: bool
    """Whether ``regexes`` test the whole match rather than the secret."""
    stopwords: tuple[str, ...]
    """A secret holding one of these (lower case) is allowed."""

    @cached_property
    def regexes(self) -> tuple[re.Pattern[str], ...]:
        """``patterns`` compiled, when first needed."""
        return tuple(re.compile(pattern) for pattern in self.patterns)

    def allows(self, secret: str, match: str) -> bool:
        """Whether this list lets the match through."""
        target = match if self.on_match else secret
        if any(regex.search(target) for regex in self.regexes):
            return True
        return self.stopword is not None and self.stopword.search(secret.lower()) is not None

    @cached_property
    def stopword(self) -> re.Pattern[str] | None:
        """Any of ``stopwords``, found in one scan."""
        if not self.stopwords:
            return None
        return re.compile("|".join(re.escape(word) for word in self.stopwords))


@dataclass(frozen=True)
class Rule:
    """One kind of secret: a pattern, the group that is the secret, and its filters."""

    kind: str
    """The name in ``[REDACTED:kind]`` (gitleaks' rule id)."""
    pattern: str
    """The regular expression (Python's), compiled when the rule is first tried."""
    secret_group: int
    """The group that holds the secret (0: the whole match)."""
    keywords: tuple[str, ...]
    """Lower-case words one of which the text must hold for the rule to be tried."""
    entropy: float = 0.0
    """The least Shannon entropy (bits a character) the secret must have."""
    allowlists: tuple[Allowlist, ...] = ()
    context: bool = False
    """Whether the pattern lost gitleaks' ``[\\w.-]{0,50}?`` head (the words before the
    keyword): tried at every position it made the rule 50 times slower, and it serves
    only the allowlists, which get it back by :func:`with_context`."""

    @cached_property
    def regex(self) -> re.Pattern[str]:
        """``pattern`` compiled: most rules' keywords never appear in a run, and
        compiling all 222 costs 0.6 s."""
        with warnings.catch_warnings():
            # "Possible nested set": Python's note about a class such as [[:x]], which
            # Go reads as Python does today.
            warnings.simplefilter("ignore", FutureWarning)
            return re.compile(self.pattern)

    def secrets(self, text: str) -> list[tuple[int, int]]:
        """The spans of ``text`` this rule finds to be secrets."""
        spans = []
        position = 0
        groups = self.regex.groups or 0
        while position <= len(text):
            match = self.regex.search(text, position)
            if match is None:
                break
            start, end = match.span(self.secret_group if self.secret_group <= groups else 0)
            if start < 0:
                start, end = match.span()
            secret = text[start:end]
            if (
                end <= start
                or (self.entropy and shannon_entropy(secret) < self.entropy)
                or any(allow.allows(secret, self._whole(text, match)) for allow in self.allowlists)
            ):
                # Not a secret; a real one may start inside this match ("token = x =
                # 'KEY'"): search again from the next character, not after the match.
                position = max(match.start() + 1, start)
                continue
            spans.append((start, end))
            position = max(match.end(), match.start() + 1)
        return spans

    def _whole(self, text: str, match: re.Match[str]) -> str:
        """The match as gitleaks' pattern would have it (its head given back)."""
        if not self.context:
            return match.group(0)
        start = match.start()
        head = _HEAD_CHARS.search(text, max(0, start - 50), start)
        return text[head.start() if head else start : match.end()]


_HEAD = r"[\w.-]{0,50}?"
_HEAD_CHARS = re.compile(r"[\w.-]*$")


def shannon_entropy(text: str) -> float:
    """Bits of information a character of ``text`` carries (gitleaks' measure)."""
    if not text:
        return 0.0
    length = len(text)
    return -sum(n / length * math.log2(n / length) for n in Counter(text).values())


_END = r"""(?:[\x60'"\s;]|\\[nr]|$)"""
"""How gitleaks' rules end a secret (152 of them): a quote, a space, ``;`` or the end."""
_END_OR_PUNCTUATION = r"""(?:[\x60'"\s;.,:!?)\]}>]|\\[nr]|$)"""
"""The same, or a sentence's punctuation: an agent's prose writes "the key is sk-ant-….",
and gitleaks' ending let that key through whole."""


def go_to_python(pattern: str) -> str:
    """A gitleaks (Go RE2) pattern as Python's ``re`` reads it, its secret allowed to
    end a sentence too (:data:`_END`)."""
    pattern = pattern.replace(r"\z", r"\Z").replace(_END, _END_OR_PUNCTUATION)
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
        pattern=(r"\b[a-zA-Z][a-zA-Z0-9+.-]{1,20}://[^\s:/@'\"]{1,100}:([^\s@/'\"]{1,200})@"),
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
                patterns=tuple(go_to_python(str(r)) for r in raw_regexes),
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
    return tuple(_compile(config["rules"]))


def _compile(entries: list[dict[str, Any]]) -> list[Rule]:
    rules = []
    for entry in entries:
        if "regex" not in entry:
            continue
        pattern = go_to_python(entry["regex"])
        flags = _MID_FLAGS.match(pattern)
        body = pattern[flags.end() if flags else 0 :]
        context = body.startswith(_HEAD)
        if context:
            pattern = pattern[: len(pattern) - len(body)] + body[len(_HEAD) :]
        rules.append(
            Rule(
                kind=entry["id"],
                pattern=pattern,
                context=context,
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
