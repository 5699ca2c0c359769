"""The world of the demo recordings: the ``tidepool`` workspace, the files the agent
reads and edits (``Backoff`` with its flaky jitter, its tests, the retry helper) and the
terminal output of its test runs, as a pty delivers it."""

from __future__ import annotations

CWD = "/home/dev/src/tidepool"

E = "\x1b["
B, R, G, Y, C, X = f"{E}1m", f"{E}31m", f"{E}32m", f"{E}33m", f"{E}36m", f"{E}0m"


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


def p(rel: str) -> str:
    """Absolute path in the workspace."""
    return f"{CWD}/{rel}"
