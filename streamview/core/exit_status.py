"""The exit status every front end returns: how the run ended, for scripts and CI."""

from __future__ import annotations

from streamview.core.state import SUCCESS, StreamState

EXIT_SUCCESS = 0
"""The (last) run succeeded."""
EXIT_RUN_FAILED = 1
"""The run ended with an error, or without a result."""
EXIT_USAGE = 2
"""Bad arguments, or an input that cannot be read."""
EXIT_SOFTWARE = 70
"""``EX_SOFTWARE`` (``sysexits.h``): streamview itself failed (an unhandled exception)."""


def exit_code_for(state: StreamState) -> int:
    """0 when the last session succeeded, 1 otherwise."""
    session = state.current
    return (
        EXIT_SUCCESS
        if session is not None and session.outcome.status == SUCCESS
        else EXIT_RUN_FAILED
    )
