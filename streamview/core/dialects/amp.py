"""Amp's ``amp -x "..." --stream-json`` (Sourcegraph's Amp CLI).

Amp prints Claude Code's records ("Claude Code-compatible", ampcode.com/news/
streaming-json): ``system/init`` (``cwd``, ``session_id``, ``tools``, ``mcp_servers``;
no ``model``, no ``permissionMode``), ``user`` and ``assistant`` messages with
``tool_use``/``tool_result`` blocks (and ``thinking`` with ``--stream-json-thinking``),
and a ``result`` (``subtype``, ``duration_ms``, ``is_error``, ``num_turns``,
``result``; an error one says ``error`` as a string). Read by
:class:`~streamview.core.dialects.claude_like.ClaudeLikeTranslator` (its hot lines
from their bytes, :mod:`~streamview.core.dialects.amp_fast`), with Amp's tools
(:mod:`streamview.core.dialects.amp_tools`). The session id is Amp's thread id,
``T-`` and a UUID: what tells an Amp stream from Claude Code's, whatever its first
record. The ``result`` carries no usage: the assistant messages' usage is summed.
"""

from __future__ import annotations

from streamview.core.dialects.amp_fast import AmpTranslator
from streamview.core.dialects.amp_tools import OWN_NAMES, TOOLS
from streamview.core.dialects.base import Dialect
from streamview.core.events import JSONObject

NAME = "amp"
_THREAD_PREFIX = "T-"
_TYPES = frozenset({"system", "user", "assistant", "result"})


def translator() -> AmpTranslator:
    """A fresh translator for one Amp stream (its hot lines read from their bytes:
    :mod:`~streamview.core.dialects.amp_fast`)."""
    return AmpTranslator(NAME, TOOLS)


def _uses_own_tool(record: JSONObject) -> bool:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return any(
        isinstance(block, dict)
        and block.get("type") == "tool_use"
        and block.get("name") in OWN_NAMES
        for block in (content if isinstance(content, list) else [])
    )


def detect(record: JSONObject) -> bool:
    """A Claude-like record whose ``session_id`` is an Amp thread id (``T-…``), or an
    ``assistant`` message using a tool only Amp has."""
    kind = record.get("type")
    if kind not in _TYPES:
        return False
    sid = record.get("session_id")
    if isinstance(sid, str) and sid.startswith(_THREAD_PREFIX) and len(sid) > 10:
        return True
    return kind == "assistant" and _uses_own_tool(record)


DIALECT = Dialect(name=NAME, label="Amp", detect=detect, translator=translator)
