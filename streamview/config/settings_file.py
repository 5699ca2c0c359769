"""Where the settings file is: looked up by every run (``--max-line``'s default), which
reads the file (:mod:`streamview.config.settings`) only when there is one."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def settings_path() -> Path:
    """``~/.config/streamview/settings.toml`` on Linux (``$XDG_CONFIG_HOME`` honoured)."""
    found = _linux_config_dir()
    if found is None:
        from platformdirs import user_config_dir

        found = user_config_dir("streamview")
    return Path(found) / "settings.toml"


def _linux_config_dir() -> str | None:
    """``platformdirs.user_config_dir("streamview")`` on Linux in its usual case (an
    absolute ``$XDG_CONFIG_HOME``, else an absolute ``$HOME``), else ``None``.

    Every command reads the settings (``--max-line``): importing ``platformdirs`` (it
    imports ``tempfile``, ``random``, ``hashlib``) cost ~6 ms of a ``--json`` run that
    takes ~40 ms more than the bare orjson loop (issue 30.8). Any other case asks
    ``platformdirs`` (``tests/config/test_settings_path.py`` holds the two the same).
    """
    if sys.platform != "linux" or "ANDROID_DATA" in os.environ:
        return None
    xdg = os.environ.get("XDG_CONFIG_HOME", "")
    if xdg.startswith("/"):
        return os.path.join(xdg, "streamview")
    home = os.environ.get("HOME", "")
    if home.startswith("/"):
        return os.path.join(os.path.expanduser("~/.config"), "streamview")
    return None
