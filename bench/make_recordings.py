"""Write the demo recordings in ``recordings/`` (run from anywhere; deterministic).

Usage::

    python bench/make_recordings.py            # rewrite every recording
    python bench/make_recordings.py --check    # fail if a file would change

Each recording is a stream-json file exactly as the Cursor agent CLI prints it, with
``"streamview_recv_ms"`` appended as the last key of every line (see
``recordings/README.md``). The scripted ones tell one believable story: the
``tidepool`` package has a flaky test, ``test_delays_never_decrease``, because
``Backoff.delay`` adds jitter after capping and draws it from the global ``random``
module; the agent reproduces it, fixes it and runs the suite.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))

import synth  # bench/ is a folder of scripts, not a package

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "recordings"
CWD = "/home/dev/src/tidepool"

E = "\x1b["
B, R, G, Y, C, X = f"{E}1m", f"{E}31m", f"{E}32m", f"{E}33m", f"{E}36m", f"{E}0m"

# --------------------------------------------------------------------------------------
# The project's files
# --------------------------------------------------------------------------------------

BACKOFF_BEFORE = '''"""Retry delays: exponential backoff with jitter."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff: ``base * 2 ** (attempt - 1)``, capped, plus jitter.

    Attributes:
        base: Delay before the first retry, in seconds.
        cap: Largest delay, in seconds.
        jitter: Fraction of the delay added at random (0 disables jitter).
    """

    base: float = 0.1
    cap: float = 30.0
    jitter: float = 0.5

    def delay(self, attempt: int) -> float:
        """Return the delay before retry number ``attempt`` (1-based)."""
        if attempt < 1:
            raise ValueError(f"attempt must be >= 1, got {attempt}")
        raw = min(self.cap, self.base * 2 ** (attempt - 1))
        return raw + random.uniform(0, raw * self.jitter)

    def delays(self, attempts: int) -> list[float]:
        """Return the delays before the first ``attempts`` retries."""
        return [self.delay(n) for n in range(1, attempts + 1)]
'''

BACKOFF_AFTER = '''"""Retry delays: exponential backoff with jitter."""

from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff: ``base * 2 ** (attempt - 1)``, capped, plus jitter.

    Attributes:
        base: Delay before the first retry, in seconds.
        cap: Largest delay, in seconds.
        jitter: Fraction of the delay added at random (0 disables jitter).
    """

    base: float = 0.1
    cap: float = 30.0
    jitter: float = 0.5

    def delay(self, attempt: int, rng: random.Random | None = None) -> float:
        """Return the delay before retry number ``attempt`` (1-based).

        Args:
            attempt: Retry number, starting at 1.
            rng: Source of jitter; the module-level generator when None.
        """
        if attempt < 1:
            raise ValueError(f"attempt must be >= 1, got {attempt}")
        raw = min(self.cap, self.base * 2 ** (attempt - 1))
        source = random if rng is None else rng
        # Cap after adding jitter, so a capped delay never dips below the one before.
        return min(self.cap, raw + source.uniform(0, raw * self.jitter))

    def delays(self, attempts: int, rng: random.Random | None = None) -> list[float]:
        """Return the delays before the first ``attempts`` retries."""
        return [self.delay(n, rng) for n in range(1, attempts + 1)]
'''

TEST_BEFORE = '''"""Tests for tidepool.backoff."""

import pytest

from tidepool.backoff import Backoff


def test_first_delay_is_base() -> None:
    assert Backoff(base=0.2, jitter=0).delay(1) == 0.2


def test_delay_doubles_until_cap() -> None:
    policy = Backoff(base=0.1, cap=1.0, jitter=0)
    assert policy.delays(6) == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]


def test_attempt_zero_is_rejected() -> None:
    with pytest.raises(ValueError, match="attempt must be >= 1"):
        Backoff().delay(0)


def test_jitter_stays_within_fraction() -> None:
    policy = Backoff(base=1.0, cap=8.0, jitter=0.25)
    for attempt in range(1, 5):
        raw = min(8.0, 2 ** (attempt - 1))
        assert raw <= policy.delay(attempt) <= raw * 1.25


def test_delays_never_decrease() -> None:
    policy = Backoff(base=0.1, cap=2.0, jitter=0.5)
    delays = policy.delays(6)
    assert delays == sorted(delays)
'''

TEST_AFTER = TEST_BEFORE.replace(
    """def test_delays_never_decrease() -> None:
    policy = Backoff(base=0.1, cap=2.0, jitter=0.5)
    delays = policy.delays(6)
    assert delays == sorted(delays)
""",
    """@pytest.mark.parametrize("seed", range(200))
def test_delays_never_decrease(seed: int) -> None:
    policy = Backoff(base=0.1, cap=2.0, jitter=0.5)
    delays = policy.delays(6, random.Random(seed))
    assert delays == sorted(delays)
    assert max(delays) <= policy.cap
""",
).replace("import pytest\n", "import random\n\nimport pytest\n")

RETRY_PY = '''"""Retrying calls that fail with transient errors."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from tidepool.backoff import Backoff
from tidepool.errors import RetryExhausted, TransientError

T = TypeVar("T")
log = logging.getLogger(__name__)


def call_with_retries(fn: Callable[[], T], policy: Backoff, attempts: int = 5) -> T:
    """Call ``fn`` until it succeeds, sleeping ``policy.delay(n)`` between tries."""
    for attempt in range(1, attempts + 1):
        try:
            return fn()
        except TransientError as exc:
            if attempt == attempts:
                raise RetryExhausted(attempts) from exc
            delay = policy.delay(attempt)
            log.warning("attempt %d failed (%s); retrying in %.2fs", attempt, exc, delay)
            time.sleep(delay)
    raise AssertionError("unreachable")
'''


def crlf(text: str) -> str:
    """Terminal output as a pty delivers it."""
    return text.replace("\n", "\r\n")


def pytest_header(collected: int, plugins: str = "asyncio-0.24.0, timeout-2.3.1") -> str:
    """Coloured pytest session header."""
    return (
        f"{B}============================= test session starts =============================={X}\n"
        "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0\n"
        f"rootdir: {CWD}\nconfigfile: pyproject.toml\nplugins: {plugins}\n"
        f"collected {collected} items\n\n"
    )


def progress(files: list[tuple[str, str]], total: int, width: int = 80) -> str:
    """pytest's progress lines: coloured marks wrapped at ``width`` with percentages.

    Args:
        files: ``(test file, marks)`` where marks is a string of ``.`` and ``F``.
        total: Number of collected items.
        width: Terminal width.

    Returns:
        The lines, ``\n``-terminated.
    """
    out = ""
    done = 0
    for name, marks in files:
        prefix = name + " "
        while marks:
            room = width - len(prefix) - 7
            chunk, marks = marks[:room], marks[room:]
            done += len(chunk)
            colour = R if "F" in chunk else G
            painted = "".join(f"{R}F{X}" if m == "F" else f"{G}.{X}" for m in chunk)
            pad = " " * (width - len(prefix) - len(chunk) - 6)
            out += f"{prefix}{painted}{colour}{pad}[{100 * done // total:3d}%]{X}\n"
            prefix = ""
    return out


PYTEST_FLAKY = crlf(
    pytest_header(200, "asyncio-0.24.0, repeat-0.9.3, timeout-2.3.1")
    + progress([("tests/test_backoff.py", "." * 169 + "F")], 200)
    + "\n"
    f"{R}{B}=================================== FAILURES ==================================={X}\n"
    f"{R}{B}_______________________ test_delays_never_decrease[10-40] _______________________{X}\n"
    "\n"
    "    def test_delays_never_decrease() -> None:\n"
    "        policy = Backoff(base=0.1, cap=2.0, jitter=0.5)\n"
    "        delays = policy.delays(6)\n"
    f"{B}{R}>       assert delays == sorted(delays){X}\n"
    f"{B}{R}E       assert [0.1262..., 0.2291..., 0.4417..., 0.9731..., 2.3904..., 2.0731...] "
    f"== [0.1262..., 0.2291..., 0.4417..., 0.9731..., 2.0731..., 2.3904...]{X}\n"
    f"{B}{R}E         {X}\n"
    f"{B}{R}E         At index 4 diff: 2.390421966 != 2.073145871{X}\n"
    f"{B}{R}E         Use -v to get more diff{X}\n"
    "\n"
    f"{B}{R}tests/test_backoff.py{X}:32: AssertionError\n"
    f"{C}=========================== short test summary info ============================{X}\n"
    f"{R}FAILED{X} tests/test_backoff.py::{B}test_delays_never_decrease[10-40]{X} - "
    "assert [0.1262..., 0.2291..., 0.4417..., 0.9731..., 2.3904..., 2.0731...] == [0.12...\n"
    f"{R}!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!{X}\n"
    f"{R}========================= {R}{B}1 failed{X}, {G}169 passed{X}{R} in 0.52s{X}"
    f"{R} ========================={X}\n"
)

SUITE = (
    ("tests/test_backoff.py", 204),
    ("tests/test_cli.py", 11),
    ("tests/test_clock.py", 7),
    ("tests/test_config.py", 14),
    ("tests/test_lease.py", 18),
    ("tests/test_queue.py", 23),
    ("tests/test_retry.py", 12),
    ("tests/test_scheduler.py", 31),
    ("tests/test_storage.py", 16),
    ("tests/test_worker.py", 19),
)


def pytest_suite(seconds: float) -> str:
    """The whole suite passing, with the 200-seed backoff test."""
    total = sum(n for _, n in SUITE)
    out = pytest_header(total) + progress([(name, "." * n) for name, n in SUITE], total)
    out += (
        f"\n{G}============================= {G}{B}{total} passed{X}{G} in {seconds:.2f}s{X}"
        f"{G} =============================={X}\n"
    )
    return crlf(out)


# --------------------------------------------------------------------------------------
# Helpers on top of synth.Run
# --------------------------------------------------------------------------------------


def shell(
    run: synth.Run,
    mcid: str,
    command: str,
    description: str,
    *,
    stdout: str = "",
    stderr: str = "",
    exit_code: int = 0,
    duration: int,
    timeout: int = 30000,
) -> synth.ToolCall:
    """Emit a whole shell call (started, run, completed)."""
    call = start_shell(run, mcid, command, description, timeout=timeout)
    run.finish_tool(
        call,
        synth.shell_result(
            command,
            exit_code=exit_code,
            stdout=stdout,
            stderr=stderr,
            execution_time=duration - run.rng.randint(30, 160),
        ),
        duration_ms=duration,
    )
    return call


def start_shell(
    run: synth.Run, mcid: str, command: str, description: str, *, timeout: int = 30000
) -> synth.ToolCall:
    """Emit ``started`` for a shell call and return the open call."""
    call_id = run.ids.call_id(run.call_id_style)
    args = synth.shell_args(
        command,
        tool_call_id=call_id,
        conversation_id=run.session_id,
        request_id=run.request_id,
        description=description,
        timeout=timeout,
    )
    return run.start_tool(
        "shellToolCall", args, call_id=call_id, model_call_id=mcid, description=description
    )


GPT = (1, (3, 18))
"""GPT-style thinking: one word per delta, 3-18 ms apart (as in the 2026.01 captures)."""
COMPOSER = (4, (0, 2))
"""Composer-style thinking: a few words per delta, bursts within the same ms."""


def think(run: synth.Run, text: str, style: tuple[int, tuple[int, int]]) -> None:
    """Emit a thinking block paced like ``style`` (words per delta, gap range in ms)."""
    run.think(text, max_words=style[0], gap_ms=style[1])


def new_run(
    seed: int,
    lines: list[bytes],
    start_ms: int,
    *,
    model: str,
    call_id_style: synth.CallIdStyle = "tool",
    partial: bool = False,
    token_gap_ms: tuple[int, int] = (0, 30),
) -> synth.Run:
    """A Run in the tidepool workspace writing into ``lines``."""
    return synth.Run(
        random.Random(seed),
        lines.append,
        start_ms=start_ms,
        cwd=CWD,
        model=model,
        partial=partial,
        call_id_style=call_id_style,
        token_gap_ms=token_gap_ms,
    )


def hit(text: str, needle: str, context: int = 0) -> list[tuple[int, str, bool]]:
    """Grep ``needle`` in ``text``: ``(line number, line, is_context_line)`` rows."""
    lines = text.split("\n")
    found = [i for i, line in enumerate(lines) if needle in line]
    keep = sorted({j for i in found for j in range(i - context, i + context + 1)})
    return [(j + 1, lines[j], j not in found) for j in keep if 0 <= j < len(lines)]


def p(rel: str) -> str:
    """Absolute path in the workspace."""
    return f"{CWD}/{rel}"


# --------------------------------------------------------------------------------------
# Recordings
# --------------------------------------------------------------------------------------


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


def failure_no_result() -> list[bytes]:
    """GPT-5 Mini loses its backend while the test suite runs; no ``result`` line."""
    lines: list[bytes] = []
    run = new_run(33, lines, 1789655021772, model="GPT-5 Mini", call_id_style="openai")
    run.init()
    run.user("Run the full test suite with coverage and tell me which modules are below 80%.")
    run.wait(2480)
    think(
        run,
        "I need to run pytest with coverage over the package, then read the report and list "
        "the modules under 80 percent.",
        GPT,
    )
    m0 = run.model_call()
    run.say("Checking how coverage is configured first.", model_call_id=m0)
    pyproject = (
        '[tool.coverage.run]\nsource = ["tidepool"]\nbranch = true\n\n'
        "[tool.coverage.report]\nshow_missing = true\nskip_covered = true\n"
    )
    run.tool(
        "readToolCall",
        synth.read_args(p("pyproject.toml"), offset=41, limit=8),
        synth.read_success(p("pyproject.toml"), pyproject, start_line=41),
        model_call_id=m0,
        duration_ms=188,
    )
    run.wait(1610)
    m1 = run.model_call()
    run.say("Running the suite with coverage; this takes a little while.", model_call_id=m1)
    start_shell(
        run,
        m1,
        "uv run pytest --cov=tidepool --cov-report=term-missing",
        "Run the test suite with coverage",
        timeout=600000,
    )
    # The backend drops while the command runs; the CLI retries, then gives up.
    run.wait(14230)
    run.reconnect(3, resume=False)
    return lines


FAILURE_STDERR = (
    f"{E}31mError:{E}39m lost connection to the Cursor backend and could not reconnect "
    "after 3 attempts\n"
    f"  {E}2mConnectError: [unavailable] read ECONNRESET "
    f"({synth.DEFAULT_ENDPOINT}){E}22m\n"
)


def denied_tools() -> list[bytes]:
    """Denials: web fetch via interaction_query, shell with empty reason, web search
    completed with no started, a question skipped; ends in ``result/success``."""
    lines: list[bytes] = []
    run = new_run(44, lines, 1789656402907, model="GPT-5 Mini", call_id_style="openai")
    run.init()
    run.user(
        "Does the tenacity library recommend full jitter or equal jitter? Compare with our "
        "Backoff class. Reply with DONE at the end."
    )
    run.wait(1870)
    think(run, "I should fetch the tenacity docs page about wait strategies.", GPT)
    m0 = run.model_call()
    run.say("Fetching the tenacity documentation.", model_call_id=m0)
    url = "https://tenacity.readthedocs.io/en/latest/api.html"
    call_id = run.ids.call_id("openai")
    args = synth.web_fetch_args(url, call_id)
    call = run.start_tool("webFetchToolCall", args, call_id=call_id, model_call_id=m0)
    run.ask(
        "webFetchRequestQuery", {"args": args, "skipApproval": False}, synth.rejected(), delay_ms=1
    )
    run.finish_tool(call, synth.rejected(), duration_ms=241, include_args=False)
    run.wait(1330)
    m1 = run.model_call()
    run.say("Web fetch was blocked; trying curl instead.", model_call_id=m1)
    command = f"curl -sL {url} | grep -i -A3 'wait_random_exponential'"
    call = start_shell(run, m1, command, "Fetch tenacity docs and find the jitter strategy")
    run.finish_tool(call, synth.shell_rejected(command, CWD), duration_ms=1099, include_args=False)
    run.wait(2210)
    think(run, "Both blocked. A web search might still work.", GPT)
    m2 = run.model_call()
    call_id = run.ids.call_id("openai")
    args = synth.web_search_args("tenacity wait_random_exponential full jitter", call_id)
    call = run.start_tool("webSearchToolCall", args, call_id=call_id, model_call_id=m2, emit=False)
    run.ask("webSearchRequestQuery", {"args": args}, synth.rejected())
    run.finish_tool(call, synth.rejected(), duration_ms=59, include_args=False)
    run.wait(1760)
    m3 = run.model_call()
    call_id = run.ids.call_id("openai")
    q_args = synth.ask_question_args(
        "Network access is blocked",
        [
            {
                "id": "source",
                "prompt": "Answer from memory of the tenacity docs, or stop here?",
                "options": [
                    {"id": "memory", "label": "Answer from memory"},
                    {"id": "stop", "label": "Stop"},
                ],
                "allowMultiple": False,
            }
        ],
    )
    run.ask(
        "askQuestionInteractionQuery",
        {"args": q_args, "toolCallId": call_id},
        {"result": synth.rejected(synth.ASK_SKIPPED)},
    )
    run.wait(140)
    call = run.start_tool("askQuestionToolCall", q_args, call_id=call_id, model_call_id=m3)
    run.finish_tool(call, synth.rejected(synth.ASK_SKIPPED), duration_ms=201)
    run.wait(1480)
    m4 = run.model_call()
    run.say("I'll compare with our implementation from the code.", model_call_id=m4)
    run.tool(
        "readToolCall",
        synth.read_args(p("src/tidepool/backoff.py")),
        synth.read_success(p("src/tidepool/backoff.py"), BACKOFF_AFTER),
        model_call_id=m4,
        duration_ms=164,
    )
    run.wait(2050)
    think(run, "Answer from knowledge and the code; mention that network tools were denied.", GPT)
    run.say(
        "I could not reach the docs: the web fetch, `curl` and the web search were all "
        "denied, so this is from memory of tenacity's API.\n\n"
        "- tenacity's `wait_random_exponential` implements **full jitter**: the wait is "
        "drawn uniformly from `[0, min(max, multiplier * 2 ** n)]`.\n"
        "- Our `Backoff` uses an *additive* jitter: `raw + uniform(0, raw * jitter)`, then "
        "clamps to `cap`. It never waits less than `raw`, so retries spread out less than "
        "with full jitter.\n\n"
        "DONE",
        model_call_id=None,
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


RECORDINGS: dict[str, Callable[[], list[bytes]]] = {
    "success-multi-tool.ndjson": success_multi_tool,
    "partial-output-thinking.ndjson": partial_output_thinking,
    "failure-no-result.ndjson": failure_no_result,
    "denied-tools.ndjson": denied_tools,
    "long-run.ndjson": long_run,
}
"""File name to builder."""

EXTRA_FILES = {"failure-no-result.stderr.txt": FAILURE_STDERR}
"""Non-recording files written beside them."""


def render() -> dict[str, bytes]:
    """Build every file's bytes."""
    out = {name: b"".join(build()) for name, build in RECORDINGS.items()}
    out.update({name: text.encode() for name, text in EXTRA_FILES.items()})
    return out


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only verify the files are current")
    parser.add_argument("--out", type=Path, default=OUT, help="folder (default: recordings/)")
    args = parser.parse_args(argv)
    stale = []
    for name, data in render().items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_bytes() != data:
                stale.append(name)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        lines = data.count(b"\n")
        print(f"{path}: {lines} lines, {len(data) / 1024:.0f} KB", file=sys.stderr)
    if stale:
        print("out of date: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
