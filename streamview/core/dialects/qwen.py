"""Qwen Code's ``qwen -p ... --output-format stream-json`` (QwenLM/qwen-code).

Claude Code's records (``packages/cli/src/nonInteractive/types.ts``, written by
``io/StreamJsonOutputAdapter.ts`` and ``io/BaseJsonOutputAdapter.ts``), read by
:class:`~streamview.core.dialects.claude_like.ClaudeLikeTranslator`, with Qwen's own:

- ``system/init`` says ``permission_mode`` (not ``permissionMode``),
  ``qwen_code_version``, ``agents``, ``skills``; no ``apiKeySource``.
- ``system/model_fallback``: the model changed for capacity (``data``: ``fromModel``,
  ``toModel``, ``statusCode``): a retry on another model, shown as a notice.
- ``stream_event`` (``--include-partial-messages``) also carries ``goal_state``,
  ``active_goal`` and ``tool_progress`` events: bookkeeping, like Claude Code's block
  edges.
- An error ``result`` has ``error.message`` and no ``result`` text; no
  ``total_cost_usd`` is ever printed; ``usage.input_tokens`` already counts the
  cached tokens (``cache_read_input_tokens`` is part of it).
- Tools are Gemini CLI's (:mod:`streamview.core.dialects.qwen_tools`).
"""

from __future__ import annotations

from streamview.core.dialects.base import Dialect
from streamview.core.dialects.claude_like import ClaudeLikeTranslator
from streamview.core.dialects.qwen_tools import OWN_NAMES, TOOLS
from streamview.core.events import AnyEvent, ConnectionNotice, JSONObject
from streamview.core.fields import as_int, as_str

NAME = "qwen"
_INIT_KEYS = frozenset({"permission_mode", "uuid"})
_OWN_STREAM_EVENTS = frozenset({"goal_state", "active_goal"})


def _own(record: JSONObject, line: int, sid: str | None, recv: int | None) -> list[AnyEvent] | None:
    """``system/model_fallback`` as a notice; other records stay unknown."""
    if record.get("type") != "system" or record.get("subtype") != "model_fallback":
        return None
    data = record.get("data")
    info: JSONObject = data if isinstance(data, dict) else {}
    before, after = as_str(info.get("fromModel")), as_str(info.get("toModel"))
    detail = f"{before or '?'} → {after or '?'}"
    status = as_int(info.get("statusCode"))
    return [
        ConnectionNotice(
            line,
            sid,
            None,
            recv,
            type="retry",
            subtype="model_fallback",
            attempt=as_int(info.get("fallbackIndex")),
            detail=f"{detail} (HTTP {status})" if status is not None else detail,
        )
    ]


def translator() -> ClaudeLikeTranslator:
    """A fresh translator for one Qwen Code stream."""
    return ClaudeLikeTranslator(NAME, TOOLS, own=_own, init_keys=_INIT_KEYS)


def _tool_names(record: JSONObject) -> set[str]:
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    return {
        block["name"]
        for block in (content if isinstance(content, list) else [])
        if isinstance(block, dict)
        and block.get("type") == "tool_use"
        and isinstance(block.get("name"), str)
    }


def detect(record: JSONObject) -> bool:
    """Qwen Code's ``system`` records (``qwen_code_version``, or ``permission_mode``
    spelt Qwen's way), an ``assistant`` using a tool only Qwen has, or a ``stream_event``
    only Qwen prints (``goal_state``, ``active_goal``)."""
    kind = record.get("type")
    if kind == "system":
        return "qwen_code_version" in record or (
            record.get("subtype") == "init"
            and "permission_mode" in record
            and "permissionMode" not in record
        )
    if kind == "assistant":
        return bool(_tool_names(record) & OWN_NAMES)
    if kind == "stream_event":
        event = record.get("event")
        return isinstance(event, dict) and event.get("type") in _OWN_STREAM_EVENTS
    return False


DIALECT = Dialect(name=NAME, label="Qwen Code", detect=detect, translator=translator)
