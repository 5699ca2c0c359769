"""Hostile-input tests: register the ``slow`` marker (``-m "not slow"`` leaves them out)."""

from __future__ import annotations

import pytest


def pytest_configure(config: pytest.Config) -> None:
    """Markers used here."""
    config.addinivalue_line("markers", "slow: a scale test taking several seconds (run by default)")
