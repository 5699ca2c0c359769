"""Content for synthetic runs: shell output (pytest with ANSI colours, git, ruff), the
model's thinking and answers, web pages and search results."""

from __future__ import annotations

import random
from collections.abc import Sequence

from synth_project import NOUNS, VERBS, FakeProject, capitalise

ESC = "\x1b["
GREEN, RED, YELLOW, BOLD, RESET = f"{ESC}32m", f"{ESC}31m", f"{ESC}33m", f"{ESC}1m", f"{ESC}0m"


def pytest_output(
    rng: random.Random,
    files: Sequence[str],
    *,
    failures: Sequence[tuple[str, str, str]] = (),
    root: str = "/home/dev/src/tidepool",
    seconds: float | None = None,
) -> str:
    """Coloured pytest output as a pty produces it (``\\r\\n`` line ends, ANSI colours).

    Args:
        rng: Source of randomness.
        files: Test files to show progress for.
        failures: ``(test file, test name, assertion message)`` for failed tests.
        root: ``rootdir`` line.
        seconds: Reported run time; drawn when None.

    Returns:
        The text.
    """
    counts = [rng.randint(4, 18) for _ in files]
    total = sum(counts)
    failed_files = {f for f, _, _ in failures}
    lines = [
        f"{BOLD}{'=' * 29} test session starts {'=' * 30}{RESET}",
        "platform linux -- Python 3.11.7, pytest-8.3.3, pluggy-1.5.0",
        f"rootdir: {root}",
        "configfile: pyproject.toml",
        "plugins: asyncio-0.24.0, timeout-2.3.1, xdist-3.6.1",
        f"collected {total} items",
        "",
    ]
    done = 0
    for f, n in zip(files, counts, strict=True):
        done += n
        marks = [GREEN + "." + RESET] * n
        if f in failed_files:
            marks[rng.randrange(n)] = RED + "F" + RESET
        colour = RED if f in failed_files else GREEN
        pct = f"[{100 * done // total:3d}%]"
        lines.append(f"{f} {''.join(marks)}{colour}{' ' * max(1, 60 - len(f) - n)}{pct}{RESET}")
    for f, name, message in failures:
        lines += [
            "",
            f"{RED}{BOLD}{'=' * 35} FAILURES {'=' * 35}{RESET}",
            f"{RED}{BOLD}{'_' * 20} {name} {'_' * 20}{RESET}",
            "",
            f"    def {name}(fake_clock: FakeClock) -> None:",
            "        policy = Backoff(base=0.1, cap=2.0, jitter=0.5)",
            "        delays = [policy.delay(attempt) for attempt in range(1, 6)]",
            f"{BOLD}{RED}>       assert delays == sorted(delays){RESET}",
            f"{BOLD}{RED}E       AssertionError: {message}{RESET}",
            "",
            f"{f}:{rng.randint(20, 200)}: AssertionError",
        ]
    secs = seconds if seconds is not None else rng.uniform(0.8, 9.0)
    if failures:
        lines.append(f"{BOLD}{'=' * 29} short test summary info {'=' * 29}{RESET}")
        for f, name, message in failures:
            lines.append(f"{RED}FAILED{RESET} {f}::{BOLD}{name}{RESET} - AssertionError: {message}")
        lines.append(
            f"{RED}========================= {RED}{BOLD}{len(failures)} failed{RESET}, "
            f"{GREEN}{total - len(failures)} passed{RESET}{RED} in {secs:.2f}s{RESET}"
            f"{RED} ========================={RESET}"
        )
    else:
        lines.append(
            f"{GREEN}============================== {GREEN}{BOLD}{total} passed{RESET}"
            f"{GREEN} in {secs:.2f}s{RESET}{GREEN} =============================={RESET}"
        )
    return "\r\n".join(lines) + "\r\n"


def git_status_output(paths: Sequence[str]) -> str:
    """``git status --short`` output."""
    return "".join(f" M {p}\n" for p in paths)


def ruff_output(rng: random.Random, files: Sequence[str]) -> tuple[int, str]:
    """``ruff check`` output and exit code."""
    if rng.random() < 0.6:
        return 0, "All checks passed!\n"
    rows = []
    for f in rng.sample(list(files), k=min(len(files), rng.randint(1, 4))):
        code, msg = rng.choice(
            (
                ("F401", "`typing.Any` imported but unused"),
                ("E501", "Line too long (104 > 100)"),
                ("B008", "Do not perform function call in argument defaults"),
                ("SIM108", "Use ternary operator instead of `if`-`else`-block"),
            )
        )
        rows.append(
            f"{BOLD}{f}{RESET}{ESC}36m:{RESET}{rng.randint(1, 300)}{ESC}36m:{RESET}"
            f"{rng.randint(1, 80)}{ESC}36m:{RESET} {BOLD}{RED}{code}{RESET} {msg}"
        )
    return 1, "\n".join(rows) + f"\nFound {len(rows)} errors.\n"


_THINK_OPENERS = (
    "Looking at {file} to see how {func} handles the {noun}.",
    "The failure suggests {func} reads the real clock instead of the injected one.",
    "I should check where {noun} is created before changing {func}.",
    "Running the focused test first will confirm whether the {noun} ordering is the problem.",
    "The diff looks right; next I need to run the suite again.",
    "{func} is called from {n} places, so changing its signature needs care.",
    "The {noun} cache is shared across workers, which explains the intermittent failure.",
    "Let me search for other uses of `{func}` before editing.",
)
_THINK_MORE = (
    " If the jitter is drawn from the global `random` module the test depends on ordering.",
    " A FakeClock fixture already exists in `tidepool.testing`, so I can reuse it.",
    " The retry loop sleeps `{n}` times at most, which matches the assertion.",
    "\n\nPlan: read the module, patch the seed handling, then rerun the tests.",
    " The timeout is {n}s, well above what the test needs.",
    " I'll keep the public API unchanged and only thread the clock through.",
)
_SAY_PRE = (
    "Let me look at `{file}` first.",
    "I'll search the codebase for `{func}` to find every caller.",
    "Running the focused tests to reproduce the failure.",
    "Now I'll update `{func}` so it takes the clock as a parameter.",
    "Checking the test output again after the change.",
    "Reading `{file}` and its tests side by side.",
    "I'll fetch the upstream docs for the retry policy to be sure about the semantics.",
)
_SAY_FINAL_BITS = (
    "The intermittent failure in `{test}` came from `{func}` drawing jitter from the global "
    "`random` module, so any test that ran before it changed the sequence.",
    "I threaded an explicit `rng: random.Random` through `{func}` and made the fixture seed it.",
    "`{file}` now uses the injected clock everywhere; no code path calls `time.monotonic()` "
    "directly any more.",
    "All {n} tests pass locally, including the previously flaky one run 50 times in a row.",
    "The public API is unchanged: callers that do not pass `rng` get a module-level "
    "`random.Random()` as before.",
)


def _fill(rng: random.Random, template: str, project: FakeProject) -> str:
    f = project.pick()
    return template.format(
        file=f.rel,
        func=project.func_name(),
        noun=rng.choice(NOUNS),
        n=rng.randint(2, 40),
        test=f"test_{project.func_name()}",
    )


def thinking_text(rng: random.Random, project: FakeProject, sentences: int) -> str:
    """A thinking block of roughly ``sentences`` sentences."""
    parts = [_fill(rng, rng.choice(_THINK_OPENERS), project)]
    for _ in range(sentences - 1):
        parts.append(_fill(rng, rng.choice(_THINK_MORE + _THINK_OPENERS), project))
    return " ".join(parts).replace("  ", " ")


def pre_tool_text(rng: random.Random, project: FakeProject, *, code_chance: float = 0.0) -> str:
    """A segment said before a tool call: one sentence, sometimes with a code block.

    Args:
        rng: Source of randomness.
        project: Where names come from.
        code_chance: Probability of adding a short explanation and a Python block.

    Returns:
        The text.
    """
    text = _fill(rng, rng.choice(_SAY_PRE), project)
    if rng.random() < code_chance:
        lines = project.function().rstrip("\n").split("\n")
        snippet = "\n".join(lines[: rng.randint(4, len(lines))])
        text += (
            f"\n\nThe relevant part is **`{project.func_name()}`**:\n\n"
            f"```python\n{snippet}\n```\n\n"
            "- it reads the module-level clock\n- and the jitter is not seeded\n"
        )
    return text + ("\n" if rng.random() < 0.5 else "")


def final_answer(rng: random.Random, project: FakeProject, paragraphs: int = 3) -> str:
    """A Markdown final answer: headings, bullets, a code block and a small table."""
    f1, f2 = project.pick("src/"), project.pick("tests/")
    code = project.function().rstrip("\n")
    bits = [_fill(rng, b, project) for b in rng.sample(_SAY_FINAL_BITS, k=min(paragraphs, 5))]
    return (
        "## Summary\n\n" + bits[0] + "\n\n### Changes\n\n"
        f"- `{f1.rel}`: {bits[1] if len(bits) > 1 else 'tidied the retry loop.'}\n"
        f"- `{f2.rel}`: seeded the fixture and added a regression test.\n\n"
        f"```python\n{code}\n```\n\n"
        "### Verification\n\n| check | result |\n|---|---|\n"
        f"| `pytest -q` | {rng.randint(80, 300)} passed |\n| `ruff check` | clean |\n"
        f"| `mypy --strict` | no issues in {rng.randint(20, 60)} files |\n\n"
        + " ".join(bits[2:])
        + "\n"
    )


def web_markdown(rng: random.Random, size: int) -> str:
    """Markdown of a fetched documentation page, about ``size`` bytes."""
    head = (
        "# Retrying with backoff\n\nExponential backoff spaces retries out so that a "
        "struggling service can recover. Adding **jitter** avoids synchronised retry "
        "storms.\n\n"
    )
    out = [head]
    n = len(head)
    i = 1
    while n < size:
        para = (
            f"## {i}. {capitalise(rng.choice(VERBS))} the {rng.choice(NOUNS)}\n\n"
            f"Use `{rng.choice(VERBS)}_{rng.choice(NOUNS)}()` when the {rng.choice(NOUNS)} "
            f"may be shared. The delay for attempt *n* is `min(cap, base * 2 ** n)` plus a "
            f"random amount in `[0, delay / 2)`.\n\n```python\n"
            f"delay = min(cap, base * 2 ** attempt)\ndelay += rng.uniform(0, delay / 2)\n"
            f"```\n\n"
        )
        out.append(para)
        n += len(para)
        i += 1
    return "".join(out)


def search_refs(rng: random.Random, term: str, n: int, chunk: int) -> list[tuple[str, str, str]]:
    """Web search references ``(title, url, chunk)`` about ``term``."""
    sites = (
        "docs.python.org",
        "stackoverflow.com",
        "aws.amazon.com",
        "github.com",
        "pytest.org",
        "realpython.com",
    )
    refs = []
    for i in range(n):
        site = rng.choice(sites)
        text = (f"{term.capitalize()}: " + web_markdown(rng, chunk))[:chunk]
        refs.append(
            (
                f"{capitalise(term)} - result {i + 1}",
                f"https://{site}/{term.replace(' ', '-')}-{i}",
                text,
            )
        )
    return refs
