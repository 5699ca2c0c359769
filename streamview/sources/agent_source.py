"""Whether a viewer's source runs an agent, asked without importing the runner."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

from streamview.sources.base import Source

if TYPE_CHECKING:
    from streamview.sources.process import ProcessSource


def agent_of(source: Source) -> ProcessSource | None:
    """``source`` if it runs an agent (``streamview run``), else ``None``.

    Asked without importing :mod:`streamview.sources.process`: if nothing has imported it, no
    agent runs, and the viewer of a file opens without its imports (issue 21.12).
    """
    module = sys.modules.get("streamview.sources.process")
    if module is not None and isinstance(source, module.ProcessSource):
        return cast("ProcessSource", source)
    return None
