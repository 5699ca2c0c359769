"""An opencode run's totals are what adding its steps one after another gives, whether
the fast path kept the steps to add them a batch at a time or not: the same counts,
the usage's keys in the order they first came, the same cost to the last bit."""

from __future__ import annotations

import random
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core.dialects.opencode import OpenCodeTranslator
from streamview.core.dialects.opencode_fast import Cache, StepPart, Tokens
from streamview.core.dialects.opencode_totals import BATCH, RunTotals
from streamview.core.events import RunResult

COUNTS = st.none() | st.integers(-(2**63), 2**63 - 1) | st.integers(0, 5_000)
COSTS = (
    st.none()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.integers(-(2**63), 2**63 - 1)
    | st.sampled_from([0.0, -0.0, 0.001, 0.1, 1e-300])
)
CACHES = st.none() | st.builds(Cache, read=COUNTS, write=COUNTS)
TOKENS = st.none() | st.builds(Tokens, input=COUNTS, output=COUNTS, reasoning=COUNTS, cache=CACHES)
FULL = st.builds(
    Tokens,
    input=st.integers(0, 10**9),
    output=st.integers(0, 10**9),
    reasoning=st.integers(0, 10**9),
    cache=st.builds(Cache, read=st.integers(0, 10**12), write=st.integers(0, 10**9)),
)
STEPS = st.builds(StepPart, cost=COSTS, tokens=TOKENS | FULL | FULL)
OPERATIONS = st.lists(
    st.tuples(st.just("step"), STEPS)
    | st.tuples(st.just("tokens"), st.tuples(COUNTS, COUNTS, COUNTS, COUNTS, COUNTS))
    | st.tuples(st.just("cost"), st.floats(allow_nan=False, allow_infinity=False))
    | st.tuples(st.just("settle"), st.none())
    | st.tuples(st.just("read"), st.none()),
    max_size=80,
)


class OneByOne:
    """The totals as the translator added them before batches: a step at a time."""

    def __init__(self) -> None:
        self.usage: dict[str, Any] = {}
        self.cost: float | None = None

    def tokens(self, *counts: int | None) -> None:
        for key, count in zip(
            (
                "inputTokens",
                "outputTokens",
                "reasoningTokens",
                "cacheReadTokens",
                "cacheWriteTokens",
            ),
            counts,
            strict=True,
        ):
            if count is not None:
                self.usage[key] = self.usage.get(key, 0) + count

    def step(self, part: StepPart) -> None:
        tokens = part.tokens
        if tokens is not None:
            cache = tokens.cache
            read, write = (None, None) if cache is None else (cache.read, cache.write)
            self.tokens(tokens.input, tokens.output, tokens.reasoning, read, write)
        if part.cost is not None:
            self.add_cost(float(part.cost))

    def add_cost(self, cost: float) -> None:
        self.cost = (self.cost or 0.0) + cost


def _same(totals: RunTotals, expected: OneByOne) -> None:
    assert list(totals.usage.items()) == list(expected.usage.items())
    assert repr(totals.cost) == repr(expected.cost)  # -0.0 and 0.0 told apart


@settings(max_examples=400, deadline=None)
@given(OPERATIONS)
def test_steps_kept_and_added_later_total_as_added_one_by_one(operations: list[Any]) -> None:
    """Steps kept (with counts missing, a cache or tokens missing, integer and float
    costs), counts and costs added the general way between them, and the totals read
    or settled anywhere: the same totals as a step added at a time."""
    totals, expected = RunTotals(), OneByOne()
    for operation, value in operations:
        if operation == "step":
            totals.kept.append(value)
            expected.step(value)
        elif operation == "tokens":
            totals.add_tokens(*value)
            expected.tokens(*value)
        elif operation == "cost":
            totals.add_cost(value)
            expected.add_cost(value)
        elif operation == "settle":
            totals.settle()
        else:
            _same(totals, expected)
    _same(totals, expected)


def test_a_batch_of_full_steps_is_summed_and_one_with_a_gap_added_step_by_step() -> None:
    """Once every key is in the usage, a batch is summed column by column; a step
    without a cache, a count or a cost among them sends the whole batch the one-by-one
    way, and nothing is added twice."""
    rng = random.Random(7)
    full = [
        StepPart(
            cost=rng.choice([0.001, 3, 1e-9, 0.1]),
            tokens=Tokens(
                rng.randrange(10**6),
                rng.randrange(10**6),
                0,
                Cache(rng.randrange(2**40), rng.randrange(9)),
            ),
        )
        for _ in range(300)
    ]
    gaps = [
        StepPart(cost=None, tokens=full[0].tokens),
        StepPart(cost=0.5, tokens=None),
        StepPart(cost=0.5, tokens=Tokens(1, 2, 3, None)),
        StepPart(cost=0.5, tokens=Tokens(1, None, 3, Cache(4, 5))),
        StepPart(cost=0.5, tokens=Tokens(1, 2, 3, Cache(None, 5))),
    ]
    for gap in gaps:
        totals, expected = RunTotals(), OneByOne()
        for step in [*full[:100], gap, *full[100:]]:
            totals.kept.append(step)
            expected.step(step)
            if len(totals.kept) >= 64:
                totals.settle()
        _same(totals, expected)


def _step_finish(rng: random.Random, reason: str) -> bytes:
    """A ``step_finish`` line of random tokens: some counts null or missing, some
    steps without a cache or tokens, integer and float costs."""
    tokens: dict[str, Any] = {}
    for key in ("input", "output", "reasoning"):
        if rng.random() < 0.97:
            tokens[key] = (
                rng.choice([None, rng.randrange(10**7)])
                if rng.random() < 0.02
                else rng.randrange(10**7)
            )
    if rng.random() < 0.97:
        tokens["cache"] = {"read": rng.randrange(10**9), "write": rng.randrange(10**4)}
    part: dict[str, Any] = {"type": "step-finish", "reason": reason}
    if rng.random() < 0.98:
        part["tokens"] = tokens
    if rng.random() < 0.98:
        part["cost"] = rng.choice([rng.random() / 100, rng.randrange(3), 0.1, 1e-12])
    record = {"type": "step_finish", "timestamp": 1, "sessionID": "ses_t", "part": part}
    return orjson.dumps(record)


def _outcome(
    translator: OpenCodeTranslator, lines: list[bytes], fast: bool
) -> tuple[RunResult, int]:
    """The run's outcome, and how many lines ``fast_line`` took."""
    found = []
    taken = 0
    for number, line in enumerate(lines, 1):
        if fast and translator.fast_line(line, number) is not None:
            taken += 1
            continue
        found.extend(translator.translate(orjson.loads(line), number, None))
    results = [event for event in found if isinstance(event, RunResult)]
    assert len(results) == 1
    return results[0], taken


def test_a_run_read_the_fast_way_ends_with_the_totals_of_one_read_the_long_way() -> None:
    """Steps enough for several batches, then the step that ends the run: the same
    usage (its keys' order too) and cost as every line translated."""
    rng = random.Random(30)
    first = orjson.dumps(
        {"type": "step_start", "timestamp": 1, "sessionID": "ses_t", "part": {"type": "step-start"}}
    )
    steps = [_step_finish(rng, "tool-calls") for _ in range(BATCH * 2 + 77)]
    lines = [first, *steps, _step_finish(rng, "stop")]
    by_bytes, taken = _outcome(OpenCodeTranslator(), lines, fast=True)
    by_dict, _ = _outcome(OpenCodeTranslator(), lines, fast=False)
    assert taken > BATCH * 2
    assert by_bytes.usage is not None
    assert list(by_bytes.usage.items()) == list((by_dict.usage or {}).items())
    assert repr(by_bytes.total_cost_usd) == repr(by_dict.total_cost_usd)
    assert by_bytes == by_dict
