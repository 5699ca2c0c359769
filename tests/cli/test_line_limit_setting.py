"""``--max-line``'s default from the settings file: read when there is one, said when it
cannot be read, and no settings module made when there is none (streamview.cli.limits)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from streamview.cli.limits import apply_line_limit
from streamview.config.settings_file import settings_path
from streamview.core import framing


@pytest.fixture(autouse=True)
def _config_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path))
    before = framing.line_limit()
    framing.set_line_limit(framing.DEFAULT_LINE_LIMIT)
    yield
    framing.set_line_limit(before)


def test_no_settings_file_leaves_the_default() -> None:
    told: list[str] = []
    assert apply_line_limit(None, told.append) is None
    assert framing.line_limit() == framing.DEFAULT_LINE_LIMIT
    assert told == []


def test_the_settings_files_max_line_is_the_limit() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('max_line = "2k"\n')
    assert apply_line_limit(None) is None
    assert framing.line_limit() == 2048


def test_the_flag_wins_over_the_settings() -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text('max_line = "2k"\n')
    assert apply_line_limit("3k") is None
    assert framing.line_limit() == 3072


@pytest.mark.parametrize("broken", ["a directory", "under a file"])
def test_a_settings_path_that_cannot_be_read_is_said(broken: str) -> None:
    path = settings_path()
    if broken == "a directory":
        path.mkdir(parents=True)
    else:  # its folder is a file: not "no file", an error to say
        path.parent.parent.mkdir(parents=True)
        path.parent.write_text("")
    told: list[str] = []
    assert apply_line_limit(None, told.append) is None
    assert len(told) == 1 and told[0].startswith(f"ignoring {path}")
    assert framing.line_limit() == framing.DEFAULT_LINE_LIMIT
