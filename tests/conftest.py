"""Settings every test directory shares."""

from __future__ import annotations

import signal


def pytest_configure() -> None:
    """Let the processes the tests start receive SIGINT, however pytest was launched.

    A shell without job control starts background commands (`bash .ci/run &`) with
    SIGINT ignored, and an ignored signal stays ignored in every child: the tests that
    interrupt streamview or a fake agent then wait forever. A handled signal is reset
    to its default in a child at exec, so handling it here undoes the inheritance.
    """
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
