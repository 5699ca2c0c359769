"""An opencode run's tokens and cost, its steps added a batch at a time.

A quarter of an opencode run's lines is a step that called tools, and all it changes
is the run's totals: five token counts and a cost. Added to the usage dict one step at
a time, those were two thirds of such a line's own work past its decode (4,600 of
6,900 instructions). The fast path keeps the step's struct instead
(:attr:`RunTotals.kept`), and the steps kept are added when a batch is full or before
anything reads or adds the totals another way: once every key is in the usage, each
count summed in a local and the cost added in order, as one step after another adds it
(a float's total depends on that order). 4,100 instructions a step now, 1,950 of them
the line's other work.
"""

from __future__ import annotations

from typing import Any

from streamview.core.events import JSONObject

BATCH = 512
"""Steps kept at most before they are added (their structs: ~100 KB)."""
_KEYS = ("inputTokens", "outputTokens", "reasoningTokens", "cacheReadTokens", "cacheWriteTokens")
"""The usage's keys, in the order it lists them."""


class RunTotals:
    """A run's tokens (Cursor's key names, in the order they first came) and cost,
    summed over its finished steps."""

    __slots__ = ("_cost", "_usage", "kept")

    def __init__(self) -> None:
        self._usage: JSONObject = {}
        self._cost: float | None = None
        self.kept: list[Any] = []
        """Finished steps not yet added, as the fast path keeps them: each step's
        ``part`` (its fast struct: ``cost`` and the counts of ``tokens`` and its
        ``cache`` each ``None`` or a 64-bit number, any of the structs ``None``).
        Added by :meth:`settle` (called once :data:`BATCH` are kept), or before
        anything reads or adds the totals."""

    def add_tokens(
        self,
        given: int | None,
        output: int | None,
        reasoning: int | None,
        read: int | None,
        write: int | None,
    ) -> None:
        """A finished step's token counts (``None`` where it gives none), added after
        the steps kept."""
        if self.kept:
            self.settle()
        usage = self._usage
        for key, count in (
            ("inputTokens", given),
            ("outputTokens", output),
            ("reasoningTokens", reasoning),
            ("cacheReadTokens", read),
            ("cacheWriteTokens", write),
        ):
            if count is not None:
                usage[key] = usage.get(key, 0) + count

    def add_cost(self, cost: float) -> None:
        """A finished step's cost, added after the steps kept."""
        if self.kept:
            self.settle()
        self._cost = (self._cost or 0.0) + cost

    @property
    def usage(self) -> JSONObject:
        """The tokens so far (the dict itself: copy it to keep it)."""
        if self.kept:
            self.settle()
        return self._usage

    @property
    def cost(self) -> float | None:
        """The cost so far, ``None`` if no step gave one."""
        if self.kept:
            self.settle()
        return self._cost

    def __eq__(self, other: object) -> bool:
        """The same totals, whatever was kept to be added."""
        if not isinstance(other, RunTotals):
            return NotImplemented
        return self.usage == other.usage and self.cost == other.cost

    __hash__ = None  # type: ignore[assignment]

    def settle(self) -> None:
        """The steps kept, added: their counts as one step after another would add
        them (a key first comes where its first count does), their costs in order."""
        kept = self.kept
        if not kept:
            return
        usage = self._usage
        if len(usage) == len(_KEYS):
            # Every key is in the usage already: where a count comes no longer matters
            # (ints add up the same in any order), so each is summed in a local. A step
            # with no tokens, cache or cost, or a count that is None, raises: then
            # nothing was added yet, and the steps are added one by one.
            given = output = reasoning = read = write = 0
            cost = self._cost or 0.0
            try:
                for step in kept:
                    tokens = step.tokens
                    given += tokens.input
                    output += tokens.output
                    reasoning += tokens.reasoning
                    cache = tokens.cache
                    read += cache.read
                    write += cache.write
                    # float + float, or + an int (converted as float() converts it),
                    # in order: what (total or 0.0) + float(cost) gives step by step
                    # (the total is never -0.0, so "or 0.0" changes only a None).
                    cost += step.cost
            except (AttributeError, TypeError):
                pass
            else:
                kept.clear()
                usage["inputTokens"] += given
                usage["outputTokens"] += output
                usage["reasoningTokens"] += reasoning
                usage["cacheReadTokens"] += read
                usage["cacheWriteTokens"] += write
                self._cost = cost
                return
        for step in kept:
            tokens = step.tokens
            if tokens is not None:
                _add_tokens(usage, tokens)
            if step.cost is not None:
                self._cost = (self._cost or 0.0) + float(step.cost)
        kept.clear()


def _add_tokens(usage: JSONObject, tokens: Any) -> None:
    """One step's ``tokens`` added to ``usage``, keys in the usage's order."""
    count = tokens.input
    if count is not None:
        usage["inputTokens"] = usage.get("inputTokens", 0) + count
    count = tokens.output
    if count is not None:
        usage["outputTokens"] = usage.get("outputTokens", 0) + count
    count = tokens.reasoning
    if count is not None:
        usage["reasoningTokens"] = usage.get("reasoningTokens", 0) + count
    cache = tokens.cache
    if cache is not None:
        count = cache.read
        if count is not None:
            usage["cacheReadTokens"] = usage.get("cacheReadTokens", 0) + count
        count = cache.write
        if count is not None:
            usage["cacheWriteTokens"] = usage.get("cacheWriteTokens", 0) + count
