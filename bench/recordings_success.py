"""The demo recordings that end in success: a multi-tool GPT-5 run, a run with partial
output and thinking, and a long random run with a compaction silence."""

from __future__ import annotations

import random

import synth  # bench/ is a folder of scripts, not a package
from recordings_calls import COMPOSER, GPT, hit, new_run, shell, think
from recordings_tidepool import (
    BACKOFF_AFTER,
    BACKOFF_BEFORE,
    CWD,
    PYTEST_FLAKY,
    TEST_AFTER,
    TEST_BEFORE,
    p,
    pytest_suite,
)


def success_multi_tool() -> list[bytes]:
    """A GPT-5 run without partial output: todos, parallel reads, grep, tests, edits."""
    lines: list[bytes] = []
    run = new_run(11, lines, 1789652113408, model="GPT-5", call_id_style="openai")
    rng = run.rng
    run.init()
    run.user(
        "tests/test_backoff.py::test_delays_never_decrease fails intermittently on CI "
        "(roughly 1 run in 10). Find the root cause and fix it properly: no retries, no "
        "sleeps, no xfail. Run the tests when you are done."
    )
    run.wait(2140)
    think(
        run,
        "**Planning the investigation**\n\nThe test asserts that the delays never decrease, "
        "and it only fails sometimes, so randomness is involved. I should read the test and "
        "the backoff module together, then look for every caller of `random` in the package.",
        GPT,
    )
    m0 = run.model_call()
    run.say(
        "I'll set up a short plan, then read the test and the backoff module.", model_call_id=m0
    )
    plan = [
        ("1", "Reproduce the flaky failure", "in_progress"),
        ("2", "Find the root cause in Backoff", "pending"),
        ("3", "Fix it and make the test deterministic", "pending"),
        ("4", "Run the whole suite", "pending"),
    ]
    items = synth.todos(plan)
    run.tool(
        "updateTodosToolCall",
        synth.update_todos_args(items, merge=False),
        synth.update_todos_success(items),
        model_call_id=m0,
        duration_ms=21,
    )
    run.wait(1180)
    m1 = run.model_call()
    run.say(
        "Reading `tests/test_backoff.py` and `src/tidepool/backoff.py` in parallel.",
        model_call_id=m1,
    )
    a = run.start_tool(
        "readToolCall", synth.read_args(p("tests/test_backoff.py")), model_call_id=m1
    )
    run.wait(96)
    b = run.start_tool(
        "readToolCall", synth.read_args(p("src/tidepool/backoff.py")), model_call_id=m1
    )
    # The second read finishes first: completions arrive in any order.
    run.finish_tool(
        b, synth.read_success(p("src/tidepool/backoff.py"), BACKOFF_BEFORE), duration_ms=142
    )
    run.finish_tool(a, synth.read_success(p("tests/test_backoff.py"), TEST_BEFORE), duration_ms=301)
    run.wait(1630)
    think(
        run,
        "With cap=2.0 the fifth raw delay is 1.6 and the sixth is capped at 2.0, but jitter "
        "is added after the cap, so the fifth can reach 2.4 while the sixth can be as low as "
        "2.0. That happens about one time in ten, which matches CI. The jitter also comes "
        "from the global random module, so test order changes the sequence.",
        GPT,
    )
    m2 = run.model_call()
    run.say("Checking who else draws from the global `random` module.", model_call_id=m2)
    pattern = r"random\.(uniform|random|choice)"
    hits = [
        ("src/tidepool/backoff.py", hit(BACKOFF_BEFORE, "random.uniform")),
        (
            "src/tidepool/scheduler.py",
            [
                (57, "        # spread the first run of each job over the interval", True),
                (58, "        offset = random.uniform(0, job.interval)", False),
            ],
        ),
    ]
    run.tool(
        "grepToolCall",
        synth.grep_args(pattern, CWD, glob="*.py"),
        synth.grep_success(pattern, CWD, hits),
        model_call_id=m2,
        duration_ms=187,
    )
    run.wait(1420)
    m3 = run.model_call()
    run.say("Reproducing it by repeating the test 40 times.", model_call_id=m3)
    shell(
        run,
        m3,
        "uv run pytest tests/test_backoff.py --count 40 -x -p no:randomly",
        "Repeat the backoff tests to reproduce the flaky failure",
        stdout=PYTEST_FLAKY,
        exit_code=1,
        duration=3890,
        timeout=120000,
    )
    run.wait(1710)
    think(
        run,
        "Reproduced at repetition 10. The fix: clamp after adding jitter and let callers "
        "pass a random.Random so the test can be seeded.",
        GPT,
    )
    m4 = run.model_call()
    run.say(
        "Reproduced: the fifth delay (2.39) is larger than the sixth (2.07). Jitter is added "
        "*after* the cap, so once the delay is capped it can dip below the previous one. "
        "I'll cap after adding jitter and accept an optional `rng`.",
        model_call_id=m4,
    )
    run.tool(
        "editToolCall",
        synth.edit_args(p("src/tidepool/backoff.py"), BACKOFF_AFTER),
        synth.edit_success(p("src/tidepool/backoff.py"), BACKOFF_BEFORE, BACKOFF_AFTER),
        model_call_id=m4,
        duration_ms=412,
    )
    run.wait(1350)
    m5 = run.model_call()
    run.say(
        "Now seeding the test and checking 200 seeds instead of one random draw.", model_call_id=m5
    )
    run.tool(
        "editToolCall",
        synth.edit_args(p("tests/test_backoff.py"), TEST_AFTER),
        synth.edit_success(p("tests/test_backoff.py"), TEST_BEFORE, TEST_AFTER),
        model_call_id=m5,
        duration_ms=356,
    )
    plan = [(i, c, "in_progress" if i == "4" else "completed") for i, c, _ in plan]
    items = synth.todos(plan)
    run.wait(640)
    m6 = run.model_call()
    run.tool(
        "updateTodosToolCall",
        synth.update_todos_args(items, merge=True),
        synth.update_todos_success(items),
        model_call_id=m6,
        duration_ms=18,
    )
    run.wait(980)
    m7 = run.model_call()
    run.say("Running the whole suite.", model_call_id=m7)
    shell(
        run,
        m7,
        "uv run pytest",
        "Run the full test suite",
        stdout=pytest_suite(6.84),
        duration=7420,
        timeout=300000,
    )
    run.wait(820)
    items = synth.todos((i, c, "completed") for i, c, _ in plan)
    m8 = run.model_call()
    run.tool(
        "updateTodosToolCall",
        synth.update_todos_args(items, merge=True),
        synth.update_todos_success(items),
        model_call_id=m8,
        duration_ms=16,
    )
    run.wait(1900)
    think(run, "All 355 tests pass. Summarise the cause and the fix.", GPT)
    run.say(
        "## Root cause\n\n"
        "`Backoff.delay` capped the raw delay **before** adding jitter:\n\n"
        "```python\n"
        "raw = min(self.cap, self.base * 2 ** (attempt - 1))\n"
        "return raw + random.uniform(0, raw * self.jitter)\n"
        "```\n\n"
        "With `cap=2.0` the fifth delay can reach `1.6 * 1.5 = 2.4` while the capped sixth "
        "can be as low as `2.0`, so the sequence decreased in about 10% of runs. The jitter "
        "came from the global `random` module, so the outcome also depended on test order.\n\n"
        "## Fix\n\n"
        "- `src/tidepool/backoff.py`: clamp **after** adding jitter, and accept an optional "
        "`rng: random.Random` (defaults to the module-level generator, so callers are "
        "unchanged).\n"
        "- `tests/test_backoff.py`: the test now checks 200 fixed seeds and also asserts "
        "that no delay exceeds the cap.\n\n"
        "## Verification\n\n"
        "| command | result |\n|---|---|\n"
        "| `pytest tests/test_backoff.py --count 40` (before) | failed at repetition 10 |\n"
        "| `uv run pytest` (after) | 355 passed in 6.84s |\n\n"
        "Note: `scheduler.py` also uses the global `random` for start offsets; it is not "
        "involved in this failure, but it could take the same `rng` parameter later.",
        model_call_id=None,
    )
    run.result()
    del rng
    return lines


def partial_output_thinking() -> list[bytes]:
    """Composer with ``--stream-partial-output``: thinking, token deltas, recaps, flush."""
    lines: list[bytes] = []
    run = new_run(
        22, lines, 1789653380118, model="Composer 2.5 Fast", partial=True, token_gap_ms=(0, 9)
    )
    run.init()
    run.user(
        "What does `Backoff.delay` do for attempt 0, and what is the largest delay it can "
        "return? Show a short example."
    )
    run.wait(1930)
    think(
        run,
        "Checking how `Backoff.delay` validates `attempt` and where the cap is applied. "
        "I'll read the module first.",
        COMPOSER,
    )
    m0 = run.model_call()
    run.say(
        "I'll read `src/tidepool/backoff.py` to see how `delay` validates its input.\n",
        model_call_id=m0,
        max_words=3,
    )
    run.tool(
        "readToolCall",
        synth.read_args(p("src/tidepool/backoff.py")),
        synth.read_success(p("src/tidepool/backoff.py"), BACKOFF_AFTER),
        model_call_id=m0,
        duration_ms=611,
    )
    run.wait(1540)
    think(
        run,
        "`delay` raises ValueError for attempt < 1. The cap is applied after jitter, so the "
        "largest value is `cap`.\n\nThe tests should confirm the error message; a quick grep "
        "will show it.",
        COMPOSER,
    )
    m1 = run.model_call()
    run.say("Checking the tests for the exact error message.\n", model_call_id=m1, max_words=3)
    hits = [("tests/test_backoff.py", hit(TEST_AFTER, "attempt must be", context=1))]
    run.tool(
        "grepToolCall",
        synth.grep_args("attempt must be", p("tests")),
        synth.grep_success("attempt must be", p("tests"), hits),
        model_call_id=m1,
        duration_ms=233,
    )
    run.wait(1270)
    think(run, "Both confirmed. Write the answer with an example session.", COMPOSER)
    run.say(
        "**Attempt 0 is rejected.** `delay` counts retries from 1 and raises before computing "
        "anything:\n\n"
        "```python\n"
        ">>> from tidepool.backoff import Backoff\n"
        ">>> Backoff().delay(0)\n"
        "Traceback (most recent call last):\n"
        "  ...\n"
        "ValueError: attempt must be >= 1, got 0\n"
        ">>> Backoff(base=0.1, cap=2.0).delay(6, random.Random(1))\n"
        "2.0\n"
        "```\n\n"
        "**The largest delay is `cap`.** Jitter (up to `jitter * raw`) is added first and "
        "the result is clamped, so:\n\n"
        "- attempts 1-5 with the defaults give `0.1`, `0.2`, `0.4`, `0.8`, `1.6` plus jitter;\n"
        "- from then on every delay is exactly `cap` (30 s by default).\n\n"
        "`tests/test_backoff.py::test_attempt_zero_is_rejected` pins the error message.",
        model_call_id=None,
        max_words=2,
    )
    run.result()
    return lines


def long_run() -> list[bytes]:
    """A few thousand events over several minutes, with a 30 s compaction silence."""
    lines: list[bytes] = []
    rng = random.Random(55)
    run = synth.Run(
        rng,
        lines.append,
        start_ms=1789658800245,
        cwd=CWD,
        model="Composer 2.5 Fast",
        partial=True,
        token_gap_ms=(2, 45),
    )
    project = synth.FakeProject(rng, cwd=CWD, n_modules=10)
    session = synth.RandomSession(
        run,
        project,
        payload_kb=(0.3, 2.5),
        compaction_chance=0.0,
        compaction_ms=(28_200, 28_600),
        compactions_at=[2100],
        reconnect_chance=0.0,
        think_sentences=(1, 4),
        code_chance=0.2,
    )
    session.play(4200)
    return lines
