"""Content for synthetic runs: :class:`FakeProject`, a small believable Python package
whose files are read, grepped and edited, and the words its code is made of."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

from synth_payloads_files import ls_tree
from synth_wire import JSON

VERBS = (
    "load",
    "parse",
    "flush",
    "schedule",
    "retry",
    "compute",
    "render",
    "resolve",
    "merge",
    "validate",
    "normalize",
    "acquire",
    "release",
    "drain",
    "encode",
    "decode",
    "emit",
    "collect",
    "refresh",
    "split",
    "apply",
    "dispatch",
    "lookup",
)


IRREGULAR = {"split": "split", "emit": "emitted", "lookup": "looked up", "setup": "set up"}


def past_participle(verb: str) -> str:
    """``load`` -> ``loaded``, ``parse`` -> ``parsed``, ``retry`` -> ``retried``,
    ``lookup`` -> ``looked up``: English, not ``verb + "ed"``."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ied"
    return verb + "ed"


NOUNS = (
    "job",
    "queue",
    "backoff",
    "token",
    "window",
    "batch",
    "lease",
    "worker",
    "bucket",
    "deadline",
    "payload",
    "record",
    "cursor",
    "snapshot",
    "config",
    "session",
    "handler",
    "offset",
    "checkpoint",
    "jitter",
    "span",
    "ledger",
)
TYPES = (
    "int",
    "float",
    "str",
    "bytes",
    "Job",
    "Lease",
    "Batch",
    "Sequence[Job]",
    "Mapping[str, str]",
    "datetime",
    "timedelta",
    "Path",
)
MODULES = (
    "scheduler",
    "backoff",
    "queue",
    "lease",
    "worker",
    "clock",
    "config",
    "storage",
    "retry",
    "metrics",
    "cli",
    "http",
    "codec",
    "ratelimit",
    "events",
    "pool",
    "router",
    "auth",
    "cache",
    "tracing",
    "timeouts",
    "shutdown",
    "sinks",
    "heartbeat",
    "registry",
    "dedupe",
    "windows",
    "leases_sql",
    "webhooks",
    "admin",
)

_FUNC_TEMPLATES = (
    '''def {name}({arg}: {typ}, *, timeout: float = {num}.0) -> {ret}:
    """{Doc} the {noun} within ``timeout`` seconds.

    Args:
        {arg}: The {noun} to work on.
        timeout: Seconds before giving up.

    Returns:
        The {noun2} that was produced.
    """
    deadline = clock.monotonic() + timeout
    while clock.monotonic() < deadline:
        result = _{name}_once({arg})
        if result is not None:
            return result
        clock.sleep(min(0.05 * {num}, deadline - clock.monotonic()))
    raise TimeoutError(f"{name} timed out after {{timeout:.1f}}s")
''',
    '''def {name}({arg}: {typ}) -> {ret}:
    """{Doc} one {noun} and return the matching {noun2}."""
    if not {arg}:
        raise ValueError("{arg} must not be empty")
    key = _key_for({arg})
    with _LOCK:
        cached = _CACHE.get(key)
        if cached is not None:
            return cached
        value = _CACHE[key] = _build_{noun2}({arg}, limit={num})
    log.debug("{name}: %s -> %r", key, value)
    return value
''',
    '''async def {name}({arg}: {typ}, retries: int = {num}) -> {ret}:
    """{Doc} the {noun}, retrying with exponential backoff."""
    delay = BASE_DELAY
    for attempt in range(1, retries + 1):
        try:
            return await _client.{name}({arg})
        except TransientError as exc:
            log.warning("attempt %d/%d failed: %s", attempt, retries, exc)
            await asyncio.sleep(delay + random.uniform(0, delay / 2))
            delay = min(delay * 2, MAX_DELAY)
    raise RetryExhausted({arg})
''',
)

_CLASS_TEMPLATE = '''@dataclass(frozen=True)
class {Cls}:
    """A {noun} tracked by the {mod} module."""

    {field1}: {typ}
    {field2}: int = {num}
    created_at: float = field(default_factory=clock.time)

    def expired(self, now: float | None = None) -> bool:
        """Return True once the {noun} is older than ``{field2}`` seconds."""
        current = clock.time() if now is None else now
        return current - self.created_at > self.{field2}
'''


def capitalise(word: str) -> str:
    return word[:1].upper() + word[1:]


@dataclass
class SourceFile:
    """One file of the fake project."""

    rel: str
    """Path relative to the workspace."""
    text: str
    """Contents."""


class FakeProject:
    """A believable Python package (``tidepool``) whose files feed tool results."""

    def __init__(
        self, rng: random.Random, cwd: str = "/home/dev/src/tidepool", n_modules: int = 24
    ) -> None:
        """Generate the project.

        Args:
            rng: Source of randomness.
            cwd: Workspace directory.
            n_modules: How many source modules to invent.
        """
        self.rng = rng
        self.cwd = cwd
        self.files: list[SourceFile] = []
        for i in range(n_modules):
            mod = MODULES[i % len(MODULES)] + ("" if i < len(MODULES) else f"_v{i // len(MODULES)}")
            self.files.append(SourceFile(f"src/tidepool/{mod}.py", self.module(mod)))
            if i % 2 == 0:
                self.files.append(SourceFile(f"tests/test_{mod}.py", self.test_module(mod)))
        self.n_original = len(self.files)

    def add(self, new: SourceFile, *, limit: int = 64) -> None:
        """Add or replace a file, keeping the project to at most ``limit`` files."""
        self.files = [f for f in self.files if f.rel != new.rel]
        if len(self.files) >= limit:
            del self.files[self.rng.randrange(self.n_original, len(self.files))]
        self.files.append(new)

    def abs(self, rel: str) -> str:
        """Absolute path of a workspace-relative path."""
        return f"{self.cwd}/{rel}"

    def func_name(self) -> str:
        """A plausible function name."""
        return f"{self.rng.choice(VERBS)}_{self.rng.choice(NOUNS)}"

    def function(self, name: str | None = None) -> str:
        """Source of one function."""
        r = self.rng
        noun = r.choice(NOUNS)
        name = name or f"{r.choice(VERBS)}_{noun}"
        return r.choice(_FUNC_TEMPLATES).format(
            name=name,
            arg=noun,
            typ=r.choice(TYPES),
            ret=r.choice(TYPES),
            num=r.randint(2, 30),
            Doc=capitalise(r.choice(VERBS)),
            noun=noun,
            noun2=r.choice(NOUNS),
        )

    def module(self, mod: str, n_funcs: int | None = None) -> str:
        """Source of one module (roughly 2-8 KB)."""
        r = self.rng
        header = (
            f'"""{capitalise(mod)} helpers for tidepool: '
            f'{r.choice(NOUNS)}s and {r.choice(NOUNS)}s."""\n\n'
            "from __future__ import annotations\n\nimport asyncio\nimport logging\n"
            "import random\nimport threading\nfrom collections.abc import Mapping, Sequence\n"
            "from dataclasses import dataclass, field\n\nfrom tidepool import clock\n"
            "from tidepool.errors import RetryExhausted, TransientError\n\n"
            f"log = logging.getLogger(__name__)\n\nBASE_DELAY = 0.{r.randint(1, 9)}\n"
            f"MAX_DELAY = {r.randint(5, 60)}.0\n_LOCK = threading.Lock()\n"
            "_CACHE: dict[str, object] = {}\n"
        )
        parts = [header]
        noun = r.choice(NOUNS)
        parts.append(
            _CLASS_TEMPLATE.format(
                Cls=capitalise(noun) + capitalise(r.choice(NOUNS)),
                noun=noun,
                mod=mod,
                field1=r.choice(NOUNS) + "_id",
                typ=r.choice(TYPES),
                field2="ttl",
                num=r.randint(5, 600),
            )
        )
        for _ in range(n_funcs or r.randint(3, 9)):
            parts.append(self.function())
        return "\n\n".join(parts)

    def test_module(self, mod: str) -> str:
        """Source of one pytest module."""
        r = self.rng
        out = [
            f'"""Tests for tidepool.{mod}."""\n\nimport pytest\n\n'
            f"from tidepool import {mod}\nfrom tidepool.testing import FakeClock\n\n"
            'pytestmark = pytest.mark.usefixtures("fake_clock")\n'
        ]
        for _ in range(r.randint(4, 10)):
            fn = self.func_name()
            out.append(
                f"def test_{fn}_{r.choice(NOUNS)}(fake_clock: FakeClock) -> None:\n"
                f"    result = {mod}.{fn}({r.randint(1, 99)}, timeout={r.randint(1, 5)}.0)\n"
                f"    fake_clock.advance({r.randint(1, 30)})\n"
                f"    assert result is not None\n"
                f"    assert fake_clock.sleeps <= {r.randint(3, 12)}\n"
            )
        return "\n\n".join(out)

    def pick(self, prefix: str = "") -> SourceFile:
        """A random file whose relative path starts with ``prefix``."""
        pool = [f for f in self.files if f.rel.startswith(prefix)] or self.files
        return self.rng.choice(pool)

    def edited(self, before: str) -> str:
        """A small, plausible modification of ``before``."""
        r = self.rng
        lines = before.split("\n")
        for _ in range(r.randint(1, 3)):
            i = r.randrange(len(lines))
            choice = r.random()
            if choice < 0.4:
                lines.insert(
                    i,
                    "    "
                    + r.choice(
                        (
                            "now = clock.monotonic()",
                            "if deadline <= now:\n        return None",
                            f'log.debug("{r.choice(VERBS)} %s", {r.choice(NOUNS)})',
                            f"# {r.choice(NOUNS)} may be shared between workers; copy it first",
                            "jitter = rng.uniform(0, delay / 2)",
                        )
                    ),
                )
            elif choice < 0.7 and lines[i].strip():
                lines[i] = lines[i].replace("clock.", "self._clock.", 1).replace("0.05", "0.01")
                lines[i] += "  # noqa: B008" if lines[i].rstrip().endswith(")") else ""
            else:
                del lines[i]
        return "\n".join(lines)

    def grep_pattern(self) -> str:
        """A search term that occurs in the project: a defined name or a common call."""
        r = self.rng
        if r.random() < 0.3:
            return r.choice(
                (
                    "clock.monotonic",
                    "BASE_DELAY",
                    "random.uniform",
                    "TransientError",
                    "_CACHE",
                    "log.warning",
                )
            )
        names = re.findall(r"^(?:async )?def (\w+)", self.pick().text, re.M)
        return r.choice(names) if names else "clock.sleep"

    def grep_hits(
        self, pattern: str, *, context: int = 1, limit: int = 40
    ) -> list[tuple[str, list[tuple[int, str, bool]]]]:
        """Real substring matches of ``pattern`` in the project, with context lines.

        Args:
            pattern: A literal string.
            context: Context lines on each side of a match.
            limit: Most matched lines in all.

        Returns:
            ``(relative path, [(line number, text, is_context_line), ...])`` per file.
        """
        hits = []
        found = 0
        for f in self.files:
            if pattern not in f.text or found >= limit:
                continue
            lines = f.text.split("\n")
            matched = [i for i, line in enumerate(lines) if pattern in line][: limit - found]
            found += len(matched)
            keep = sorted(
                {
                    j
                    for i in matched
                    for j in range(max(0, i - context), min(len(lines), i + context + 1))
                }
            )
            hit_set = set(matched)
            hits.append((f.rel, [(j + 1, lines[j], j not in hit_set) for j in keep]))
        return hits

    def tree(self) -> JSON:
        """The ``directoryTreeRoot`` of the workspace."""
        src = [f.rel.rsplit("/", 1)[1] for f in self.files if f.rel.startswith("src/")]
        tests = [f.rel.rsplit("/", 1)[1] for f in self.files if f.rel.startswith("tests/")]
        pkg = ls_tree(self.abs("src/tidepool"), ["__init__.py", "errors.py", "testing.py", *src])
        return ls_tree(
            self.cwd,
            ["README.md", "pyproject.toml", "uv.lock", ".gitignore"],
            [
                ls_tree(self.abs("src"), [], [pkg]),
                ls_tree(self.abs("tests"), ["conftest.py", *tests]),
            ],
        )
