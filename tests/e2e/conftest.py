"""Fixtures of the tmux end-to-end tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .terminal import Tmux


@pytest.fixture
def tmux() -> Iterator[Tmux]:
    """A private 100x30 tmux server, killed after the test."""
    server = Tmux()
    try:
        yield server
    finally:
        server.kill()
