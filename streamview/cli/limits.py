"""The line limit (``--max-line``, the ``max_line`` setting): how long one line may be.

See :mod:`streamview.core.framing`: a longer line keeps its first bytes and its size,
and reading goes on at the next newline.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

from streamview.core.framing import parse_size, set_line_limit


def apply_line_limit(flag: str | None, warn: Callable[[str], None] | None = None) -> str | None:
    """Set the process's line limit from ``--max-line``, else from the settings file.

    Args:
        flag: The ``--max-line`` value, if given.
        warn: Told, in one line, why the settings file was ignored (the front ends
            without a viewer, whose toast would say it).

    Returns:
        Why the value cannot be used (a usage error for the flag), else ``None``. A bad
        setting is ignored: the default stays.
    """
    if flag is not None:
        try:
            set_line_limit(parse_size(flag))
        except ValueError:
            return f"--max-line: not a size: {flag!r} (e.g. 64M, 512k, 1G)"
        return None
    from streamview.config.settings_file import settings_path

    path = settings_path()
    try:
        os.stat(path)
    except FileNotFoundError:  # most runs: no settings, the default (Settings.load's)
        return None  # and no Settings made (its dataclass: ~1.5 ms of start-up, 30.8)
    except OSError:
        pass  # Settings.load says what is wrong with it
    from streamview.config.settings import Settings

    settings, problem = Settings.load(path)
    if problem is not None and warn is not None:
        warn(problem)
    if settings.max_line:
        with contextlib.suppress(ValueError):
            set_line_limit(parse_size(settings.max_line))
    return None
