"""The person's own directories (settings, recorded runs), made only under a home that exists.

``platformdirs`` puts them under ``~/.config`` and ``~/.local/state`` unless
``$XDG_CONFIG_HOME`` / ``$XDG_STATE_HOME`` say otherwise. A service account's home is
often ``/nonexistent`` (or a home that was never made): ``mkdir -p`` there, as root,
created ``/nonexistent/.local/state/...``, a home for an account meant to have none.
streamview never creates a home directory: it says so and goes on without saving
(a run is shown but not recorded, settings are not kept). A temporary directory
instead would only hide the loss: ``streamview runs`` would never find those files.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path


def missing_home(directory: Path) -> Path | None:
    """The person's home directory when ``directory`` is under it and it does not exist."""
    home = Path(os.path.expanduser("~"))
    if not home.is_absolute() or home.is_dir():
        return None
    try:
        directory.absolute().relative_to(home)
    except ValueError:
        return None
    return home


def make_user_directory(directory: Path, variable: str, mode: int = 0o777) -> None:
    """``mkdir -p directory``, unless that would create the person's home directory.

    Args:
        directory: The directory to make.
        variable: The environment variable that would put it elsewhere, for the message
            (``XDG_STATE_HOME``).
        mode: Permissions of the directories made.

    Raises:
        FileNotFoundError: It is under a home directory that does not exist; the
            message says so and names ``variable``.
        OSError: It cannot be made.
    """
    home = missing_home(directory)
    if home is not None:
        raise FileNotFoundError(
            errno.ENOENT,
            f"home directory {home} does not exist (not made; set {variable} to save elsewhere)",
        )
    directory.mkdir(mode=mode, parents=True, exist_ok=True)
