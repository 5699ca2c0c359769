"""Kimi CLI's tool results and assistant messages read straight from their bytes, for
the fold's fast path.

A Kimi run is ``tool`` messages (a ``<system>`` note, then the tool's output) and the
``assistant`` messages that call them (an answer and a call, most of them).
:meth:`KimiTranslator.fast_line <streamview.core.dialects.kimi.KimiTranslator.fast_line>`
decodes such a line into :class:`ToolLine` or :class:`AssistantLine`, which hold only
the fields :meth:`~.kimi.KimiTranslator.fast` reads (``msgspec`` skips the rest in C and
checks the types on the way), and takes it apart as ``fast`` does from the decoded
dict. A field of another type (a content that is a number, a part that is no object, an
id that is a number, arguments that are not a string) or a ``type`` field declines the
line, which is then decoded in full.
"""

from __future__ import annotations

import msgspec

from streamview.core.fast_path import Int64, hot_decoder


class Part(msgspec.Struct, gc=False):
    """A content part: only a ``text`` one is read."""

    type: str | None = None
    text: str | None = None


class ToolLine(msgspec.Struct, gc=False):
    """A ``tool`` message's fields the fast path reads; the rest is skipped."""

    role: str | None = None
    type: msgspec.Raw = msgspec.Raw()
    tool_call_id: str | None = None
    content: str | list[Part] | None = None
    streamview_recv_ms: Int64 | None = None


decode_tool = hot_decoder(ToolLine)
TOOL_START = b'{"role":"tool"'
"""How ``kimi --output-format stream-json`` starts a tool message's line (pydantic
writes ``role`` first)."""


def texts_of(content: str | list[Part] | None) -> list[str]:
    """The texts of a typed message's text parts (a bare string is one), as
    :func:`~.kimi.split_note` reads them from the dict."""
    if isinstance(content, str):
        return [content]
    return [part.text for part in content or () if part.type == "text" and part.text is not None]


class Function(msgspec.Struct, gc=False):
    """A call's ``function``: its tool's name and its arguments as a JSON string."""

    name: str | None = None
    arguments: str | None = None


class Call(msgspec.Struct, gc=False):
    """One of an assistant message's ``tool_calls``."""

    id: str | None = None
    function: Function | None = None


class AssistantLine(msgspec.Struct, gc=False):
    """An ``assistant`` message's fields the fast path reads; the rest is skipped."""

    role: str | None = None
    type: msgspec.Raw = msgspec.Raw()
    content: str | list[Part] | None = None
    tool_calls: list[Call] | None = None
    streamview_recv_ms: Int64 | None = None


decode_assistant = hot_decoder(AssistantLine)
ASSISTANT_START = b'{"role":"assistant"'
"""How Kimi starts an assistant message's line (``role`` first, as for a tool's)."""


def text_of(content: str | list[Part] | None) -> str | None:
    """A typed assistant message's text, as :meth:`~.kimi.KimiTranslator.fast` reads it
    from the dict: ``None`` if a part is not text (a thought: the long way)."""
    if not content:
        return ""
    if isinstance(content, str):
        return content
    if len(content) == 1:  # one text part: most answers
        part = content[0]
        return part.text if part.type == "text" else None
    texts = []
    for part in content:
        text = part.text
        if part.type != "text" or text is None:
            return None
        texts.append(text)
    return "".join(texts)
