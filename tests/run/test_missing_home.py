"""A home directory that does not exist is never made (issue 26.9e): ``HOME=/nonexistent``
(a service account's) made ``/nonexistent/.local/state/...`` as root. The run is
shown and not recorded, settings are not kept, and each says why on one line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from streamview.config.settings import Settings, settings_path

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def homeless_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}
    env.update(HOME=str(home), PYTHONPATH=str(REPO))
    return env


def test_run_without_a_home_shows_the_run_records_nothing_and_says_why(tmp_path: Path) -> None:
    home = tmp_path / "nonexistent"
    done = subprocess.run(
        [sys.executable, "-m", "streamview", "run", "--print", "--", "cat", str(CLAUDE)],
        capture_output=True,
        env=homeless_env(home),
        cwd=tmp_path,
        timeout=30,
    )
    assert not home.exists()
    assert done.returncode == 0, done.stderr
    assert b"== success" in done.stdout
    stderr = done.stderr.decode()
    assert f"home directory {home} does not exist (not made; set XDG_STATE_HOME" in stderr
    assert "Traceback" not in stderr
    folder = tmp_path / "state"
    env = {**homeless_env(home), "XDG_STATE_HOME": str(folder)}  # the way out it names
    command = [sys.executable, "-m", "streamview", "run", "--print", "--", "cat", str(CLAUDE)]
    done = subprocess.run(command, capture_output=True, env=env, cwd=tmp_path, timeout=30)
    assert done.returncode == 0 and list((folder / "streamview" / "runs").glob("*.ndjson"))
    assert not home.exists()


def test_settings_without_a_home_are_not_saved_and_say_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "nonexistent"
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    monkeypatch.setenv("HOME", str(home))
    path = settings_path()
    assert path.is_relative_to(home)
    problem = Settings(theme="textual-light").save()
    assert problem is not None and not home.exists()
    assert f"home directory {home} does not exist (not made; set XDG_CONFIG_HOME" in problem
    assert Settings.load() == (Settings(), None)
