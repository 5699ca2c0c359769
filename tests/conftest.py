"""Settings every test directory shares."""

from __future__ import annotations

import gc
import os
import signal
import sys
import tempfile
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import Phase, settings

REPO = Path(__file__).resolve().parents[1]
_BESIDE = str(REPO.parent) + os.sep
_INSIDE = (
    str(REPO) + os.sep,
    *{str(Path(p).resolve()) + os.sep for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)},
    os.path.join(_BESIDE, "."),  # a clone in ~: ~/.cache, ~/.config are the tools' own
)
_TEMPORARY = os.path.join(tempfile.gettempdir(), "")
"""A clone in /tmp has the tests' temporary folders beside it (tmp_path's, mkdtemp's
whatever their prefix, the early Phoenix server's): the temporary folder is the tests'
own, except for ``../shared``, which is refused wherever the clone is."""
# The one sibling refused by name (the guard's own list: it builds the path to refuse it).
_SHARED = os.path.join(_BESIDE, "shared", "")


def outside_the_repository(path: object) -> bool:
    """Whether ``path`` lies beside the repository (``../shared`` and the like): under
    the folder that holds it, but not in it (nor in the Python running the tests, the
    temporary folder, or a hidden folder such as ``~/.cache``)."""
    if not isinstance(path, str | bytes | os.PathLike):
        return False
    name = os.path.abspath(os.fsdecode(path)) + os.sep
    if name.startswith(_SHARED):
        return True
    return (
        name.startswith(_BESIDE)
        and not name.startswith(_INSIDE)
        and not name.startswith(_TEMPORARY)
    )


def _refuse_reads_beside_the_repository(event: str, args: tuple[object, ...]) -> None:
    """The suite reads nothing outside the repository (a fresh clone has nothing beside
    it): opening a file beside it fails the test at once, naming the file."""
    if event == "open" and args and outside_the_repository(args[0]):
        raise RuntimeError(f"a test opened {args[0]!r}, outside the repository {REPO}")


sys.addaudithook(_refuse_reads_beside_the_repository)

# Hypothesis's explain phase traces every line of a failing example again, and each
# frame it reads is an audit event for the hook above: in CI a failure of
# test_packed_order took the 150 s timeout there and showed a timeout, not the example.
# The shrunk example is what a failure must show; the explanation is left out.
settings.register_profile("suite", phases=[phase for phase in Phase if phase != Phase.explain])
settings.load_profile("suite")

MUST_RUN_ENV = "STREAMVIEW_TOOLS_INSTALLED"
"""Set by ``.ci/run``, which installs tmux and vim first: a test skipped because a tool
"is not installed" then fails instead, so CI never passes with its terminal tests
quietly skipped."""


def pytest_configure(config: pytest.Config) -> None:
    """Let the processes the tests start receive SIGINT, however pytest was launched.

    A shell without job control starts background commands (`bash .ci/run &`) with
    SIGINT ignored, and an ignored signal stays ignored in every child: the tests that
    interrupt streamview or a fake agent then wait forever. A handled signal is reset
    to its default in a child at exec, so handling it here undoes the inheritance.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if not hasattr(config, "workerinput"):  # pytest's own process, not an xdist worker
        from tests.otlp.phoenix_server import start_early

        start_early(list(config.args), config.invocation_params.dir)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Stop the Phoenix server :func:`pytest_configure` started early, if it did."""
    if not hasattr(config, "workerinput"):
        from tests.otlp.phoenix_server import stop_early

        stop_early()


@pytest.fixture(autouse=True)
def private_settings(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """Every test (and every streamview it starts) gets a config directory of its own:
    the viewer saves its settings there, and one test's theme must not leak into another."""
    config = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    # ``streamview sessions`` keeps an index of what it read in the cache folder.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
    return config


@pytest.fixture(autouse=True)
def highlight_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Code blocks are coloured in the frame that first shows them: a screen compared
    with a snapshot must not depend on when a lexer thread finished. The tests of
    that deferral (tests/ui/test_highlight.py) turn it back on."""
    from streamview.ui.text import highlight

    monkeypatch.setattr(highlight, "DEFER", False)


@pytest.fixture(autouse=True)
def nothing_stays_frozen() -> Iterator[None]:
    """An app that folded a file froze the heap (streamview.ui.feed.gc): one test's
    objects must not stay out of the collector's reach for the rest of the run."""
    yield
    gc.unfreeze()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item) -> Generator[None, object, None]:
    """Under ``.ci/run`` (:data:`MUST_RUN_ENV`), a skip for a missing tool is a failure."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if (
        report.skipped
        and os.environ.get(MUST_RUN_ENV)
        and "is not installed" in str(report.longrepr)
    ):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid}: skipped under .ci/run, which installs its tools: {report.longrepr}"
        )


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's Chromium through Playwright, one per module (:mod:`tests.browser`)."""
    from tests.browser import launch_chromium

    yield from launch_chromium()
