"""What a run used, in the same words for every agent.

Each agent names its token counts its own way (``input_tokens`` for Claude Code,
``inputTokens`` for Codex and Gemini CLI); ``--events``' ``usage`` event and ``--json``'s
``outcome.usage`` say them in these names, with the agent's own object kept beside.
"""

from __future__ import annotations

from typing import Any

from streamview.core.fields import as_int

_USAGE_KEYS: dict[str, tuple[str, ...]] = {
    "input_tokens": ("inputTokens", "input_tokens"),
    "output_tokens": ("outputTokens", "output_tokens"),
    "cache_read_tokens": ("cacheReadTokens", "cache_read_input_tokens", "cached_input_tokens"),
    "cache_write_tokens": ("cacheWriteTokens", "cache_creation_input_tokens"),
    "reasoning_tokens": ("reasoningTokens", "reasoning_output_tokens"),
}
"""Each normalized token count and the usage keys it is read from: the names dialects
give usage (Cursor's), and the agents' own where a dialect keeps them raw."""

USAGE_NAMES: tuple[str, ...] = tuple(_USAGE_KEYS)
"""The normalized token counts, in order (``--events``' and ``--json``'s ``usage``)."""


def usage_count(usage: dict[str, Any] | None, name: str) -> int | None:
    """One token count of a usage object (``input_tokens``...), ``None`` if unknown."""
    if usage:
        for key in _USAGE_KEYS[name]:
            value = as_int(usage.get(key))
            if value is not None:
                return value
    return None


def normalized_usage(usage: dict[str, Any] | None) -> dict[str, int | None]:
    """Every normalized token count of a usage object, ``None`` where it does not say."""
    return {name: usage_count(usage, name) for name in USAGE_NAMES}
