"""The fake home every sessions test reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.sessions.home import build_home, fake_env


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """:func:`build_home` in ``tmp_path``, with the environment pointing at it."""
    files = build_home(tmp_path)
    for name, value in fake_env(tmp_path).items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    return files
