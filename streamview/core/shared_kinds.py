"""The tool kinds every agent's calls are mapped to in ``--events`` and ``--json``.

Apart from :mod:`streamview.core.normalized`'s event structs (~0.8 ms to make), which
``--json`` does not use: its summary names each call's kind in these words (issue 30.8).
"""

from __future__ import annotations

from typing import Literal

SharedKind = Literal[
    "read",
    "write",
    "edit",
    "delete",
    "shell",
    "grep",
    "glob",
    "list",
    "web-fetch",
    "web-search",
    "subagent",
    "todo",
    "mcp",
    "other",
]
"""The tool kinds every agent's calls are mapped to (``other``: none of these)."""

OTHER: SharedKind = "other"
"""The shared kind of a tool none of :data:`SHARED_KINDS` names."""
SHARED_KINDS: dict[str, SharedKind] = {
    "read": "read",
    "write": "write",
    "edit": "edit",
    "delete": "delete",
    "shell": "shell",
    "grep": "grep",
    "glob": "glob",
    "ls": "list",
    "webFetch": "web-fetch",
    "webSearch": "web-search",
    "task": "subagent",
    "updateTodos": "todo",
    "mcp": "mcp",
}
"""streamview's tool kinds (what every dialect maps its tools to) in the shared words."""


def shared_kind(name: str) -> SharedKind:
    """The shared kind of a tool streamview calls ``name`` (``ls`` is ``list``)."""
    return SHARED_KINDS.get(name, OTHER)
