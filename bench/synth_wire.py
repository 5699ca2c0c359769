"""What every synthetic line shares: the JSON alias, the recording's arrival stamp
and ids shaped like the ones real Cursor runs print."""

from __future__ import annotations

import random
import string
import uuid
from collections.abc import Callable
from typing import Any, Literal

import orjson

JSON = dict[str, Any]
"""A JSON object as built here: a dict whose insertion order is the output order."""

LineSink = Callable[[bytes], object]
"""Receives each finished recording line, ``\\n`` included (``list.append``, ``file.write``)."""

CallIdStyle = Literal["openai", "tool"]
"""``openai``: ``call_<24>\\nfc_<50 hex>`` (GPT models); ``tool``: ``tool_<uuid>`` (Composer)."""

RECV_KEY = b"streamview_recv_ms"
"""The key a recording appends, last, to every JSON-object line."""

DEFAULT_ENDPOINT = "https://agentn.global.api5.cursor.sh"
"""Backend URL that real ``connection/reconnecting`` records name."""

_ALNUM = string.ascii_letters + string.digits
_B36 = string.ascii_lowercase + string.digits
_HEX = "0123456789abcdef"


def add_recv(line: bytes, recv_ms: int) -> bytes:
    """Append the recording's arrival time to one serialised JSON object.

    Args:
        line: A compact JSON object such as ``orjson.dumps`` returns (no newline).
        recv_ms: Epoch milliseconds at which the line arrived.

    Returns:
        The same object with ``"streamview_recv_ms":recv_ms`` inserted as its last
        key (``{}`` becomes ``{"streamview_recv_ms":N}``).
    """
    if line == b"{}":
        return b'{"streamview_recv_ms":%d}' % recv_ms
    return line[:-1] + b',"streamview_recv_ms":%d}' % recv_ms


def recording_line(record: JSON, recv_ms: int) -> bytes:
    """Serialise a record the way the CLI does and stamp it for a recording.

    Args:
        record: The stream-json record.
        recv_ms: Epoch milliseconds at which the line arrived.

    Returns:
        One recording line, terminated by ``\\n``.
    """
    return add_recv(orjson.dumps(record), recv_ms) + b"\n"


class IdFactory:
    """Deterministic ids shaped like the ones real runs print."""

    def __init__(self, rng: random.Random) -> None:
        """Create a factory.

        Args:
            rng: Source of randomness; the factory never uses global state.
        """
        self.rng = rng
        self._fc_prefix = "".join(rng.choice(_HEX) for _ in range(24))

    def uuid(self) -> str:
        """Return a random version-4 UUID string."""
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def tool_id(self) -> str:
        """Return a Composer-style id: ``tool_`` + a UUID whose last group has 11 digits."""
        return "tool_" + self.uuid()[:-1]

    def openai_call_id(self) -> str:
        """Return a GPT-style id ``call_<24 alnum>\\nfc_<50 hex>`` with a real newline."""
        head = "".join(self.rng.choice(_ALNUM) for _ in range(24))
        tail = self._fc_prefix + "".join(self.rng.choice(_HEX) for _ in range(26))
        return f"call_{head}\nfc_{tail}"

    def call_id(self, style: CallIdStyle) -> str:
        """Return a call id in the given style."""
        return self.openai_call_id() if style == "openai" else self.tool_id()

    def model_call_id(self, request_id: str, index: int) -> str:
        """Return ``<request_id>-<index>-<4 base36>``, the form real ``model_call_id``\\ s take."""
        suffix = "".join(self.rng.choice(_B36) for _ in range(4))
        return f"{request_id}-{index}-{suffix}"
