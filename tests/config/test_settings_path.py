"""The settings file's path, found without importing ``platformdirs`` where it can be."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from streamview.config.settings import settings_path

ENVIRONMENTS = [
    {"XDG_CONFIG_HOME": "/xdg/config", "HOME": "/home/someone"},
    {"XDG_CONFIG_HOME": "/xdg/config/", "HOME": "/home/someone"},
    {"XDG_CONFIG_HOME": "relative/config", "HOME": "/home/someone"},
    {"XDG_CONFIG_HOME": "", "HOME": "/home/someone"},
    {"XDG_CONFIG_HOME": " /xdg", "HOME": "/home/someone/"},
    {"HOME": "/"},
    {"HOME": "/home/someone"},
    {"HOME": "relative/home"},
    {},
]


@pytest.mark.parametrize("environment", ENVIRONMENTS, ids=repr)
def test_the_settings_path_is_platformdirs_own(
    environment: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("XDG_CONFIG_HOME", "HOME"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    expected = Path(platformdirs.user_config_dir("streamview")) / "settings.toml"
    assert settings_path() == expected


def test_reading_the_settings_imports_neither_platformdirs_nor_tomllib(tmp_path: Path) -> None:
    """Every command reads the settings: on Linux with no settings file, neither import
    is paid (issue 30.8: ~8 ms of a ``--json`` run's start)."""
    code = (
        "import sys\n"
        "from streamview.config.settings import Settings\n"
        "print(Settings.load()[1])\n"
        "print(sorted(m for m in ('platformdirs', 'tomllib') if m in sys.modules))\n"
    )
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    env["PATH"] = os.environ.get("PATH", "")
    env["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    expected_modules = "[]" if sys.platform == "linux" else "['platformdirs']"
    assert out.splitlines() == ["None", expected_modules]
