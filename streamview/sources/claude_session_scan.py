"""The few fields of a Claude Code session's line that its tree and its subagents'
links need, decoded without the rest.

A session runs to hundreds of MB, most of it tool results and file contents. Decoding
every line whole (``orjson``) to find its ``uuid`` took longer than folding the file
(1.45 s against 2.4 s for 105 MB); :mod:`msgspec` decodes only the fields named here and
skips the rest. A line these shapes do not fit is decoded whole instead.
"""

from __future__ import annotations

import struct
from array import array
from bisect import bisect_left, bisect_right
from typing import Any

import msgspec
import orjson

from streamview.core.dialects.claude_session_lines import CHAIN, TASK_TOOLS


class _Block(msgspec.Struct):
    type: str | None = None
    text: str | None = None
    id: str | None = None
    name: str | None = None
    input: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)
    tool_use_id: str | None = None


class _Message(msgspec.Struct):
    content: str | list[_Block] | None = None


class _Data(msgspec.Struct):
    type: str | None = None
    agentId: str | None = None


class _Line(msgspec.Struct):
    """A session line's fields, by Claude Code's own names."""

    type: str | None = None
    uuid: str | None = None
    parentUuid: str | None = None
    isSidechain: bool | None = None
    isMeta: bool | None = None
    sessionId: str | None = None
    timestamp: str | None = None
    message: _Message | None = None
    toolUseResult: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)
    data: _Data | None = None
    parentToolUseID: str | None = None


_DECODER = msgspec.json.Decoder(_Line)
_KEYS = ("type", "uuid", "isSidechain", "isMeta", "sessionId", "timestamp", "parentToolUseID")


def _block(block: _Block) -> dict[str, Any]:
    out: dict[str, Any] = {"type": block.type}
    for key in ("text", "id", "name", "tool_use_id"):
        value = getattr(block, key)
        if value is not None:
            out[key] = value
    if block.input and block.name in TASK_TOOLS:
        out["input"] = orjson.loads(bytes(block.input))
    return out


def scan_line(line: bytes) -> Any:
    """The line as a dict of the fields :mod:`.claude_session_files` reads (the rest
    left out), or ``None`` when it is no JSON object."""
    try:
        found = _DECODER.decode(line)
    except msgspec.ValidationError:
        try:
            whole = orjson.loads(line)
        except orjson.JSONDecodeError:
            return None
        return whole if isinstance(whole, dict) else None
    except msgspec.DecodeError:
        return None
    record: dict[str, Any] = {key: getattr(found, key) for key in _KEYS}
    record["parentUuid"] = found.parentUuid
    message = found.message
    if message is not None:
        content = message.content
        blocks = [_block(b) for b in content] if isinstance(content, list) else content
        record["message"] = {"content": blocks}
    said = bytes(found.toolUseResult)
    if b'"agentId"' in said:  # a subagent's result: the rest of it is not wanted
        record["toolUseResult"] = orjson.loads(said)
    if found.data is not None:
        record["data"] = {"type": found.data.type, "agentId": found.data.agentId}
    return record


class _TreeBlock(msgspec.Struct):
    type: str | None = None


class _TreeMessage(msgspec.Struct):
    content: str | list[_TreeBlock] | None = None


class _TreeLine(msgspec.Struct):
    """What a line's place in the conversation's tree needs."""

    type: str | None = None
    uuid: str | None = None
    parentUuid: str | None = None
    isSidechain: bool | None = None
    isMeta: bool | None = None
    message: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)


_TREE = msgspec.json.Decoder(_TreeLine)
_TREE_MESSAGE = msgspec.json.Decoder(_TreeMessage)
_HASH = struct.Struct("<q")
TreePlace = tuple[str, str | None, bool]
"""A conversation line's ``uuid``, its ``parentUuid``, and whether it holds words that
may be the person's (what can start another branch)."""


def tree_place(line: bytes | memoryview) -> TreePlace | None:
    """Where a line sits in the session's tree; ``None`` for a line outside it (about
    the session, a subagent's inline line, no JSON object)."""
    try:
        found = _TREE.decode(line)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if found.type not in CHAIN or found.uuid is None or found.isSidechain:
        return None
    words = False
    if found.type == "user" and not found.isMeta and found.message:
        try:
            content = _TREE_MESSAGE.decode(found.message).content
        except (msgspec.ValidationError, msgspec.DecodeError):
            content = None
        if isinstance(content, str):
            words = True
        elif isinstance(content, list):
            kinds = {block.type for block in content}
            words = "text" in kinds and "tool_result" not in kinds
    return found.uuid, found.parentUuid, words


class TreeIndex:
    """Every conversation line of a session read whole, in 12 bytes each: its line
    number and its ``uuid``'s hash, in file order. A 2 GB session has about 1.8 million
    such lines: a ``dict`` of their ``uuid`` strings took about 300 MB, this 21 MB.

    Finding a ``uuid`` (only for the person's words not hanging off the newest line,
    where a branch may start) searches the packed hashes backwards in C; two ``uuid``
    of one session sharing a 64-bit hash is not guarded against."""

    __slots__ = ("_hashes", "lines")

    def __init__(self) -> None:
        self._hashes = bytearray()
        self.lines = array("l")
        """The conversation lines' numbers, ascending."""

    def add(self, uuid: str, line: int) -> None:
        """A conversation line, in the file's order."""
        self._hashes += _HASH.pack(hash(uuid))
        self.lines.append(line)

    def line_of(self, uuid: str) -> int | None:
        """The line of ``uuid`` (its newest, should it come twice), if it was added."""
        wanted = _HASH.pack(hash(uuid))
        end = len(self._hashes)
        while True:
            at = self._hashes.rfind(wanted, 0, end)
            if at < 0:
                return None
            if at % _HASH.size == 0:
                return self.lines[at // _HASH.size]
            end = at + _HASH.size - 1  # a match across two hashes: look before it

    def between(self, after: int, before: int) -> list[int]:
        """The conversation lines after line ``after`` and before line ``before``."""
        return list(self.lines[bisect_right(self.lines, after) : bisect_left(self.lines, before)])
