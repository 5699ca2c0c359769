"""Build hostile and oversized streams: NDJSON bytes for tests and for the bench.

Everything here writes the Cursor stream format of ``docs``/``STREAM_FORMAT.md`` with
a hostile string placed in every field a front end might show.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

SESSION = "5e55-1d"
T0 = 1_789_650_000_000


def dumps(record: dict[str, Any]) -> bytes:
    """One NDJSON line; strings with lone surrogates are written as JSON escapes."""
    try:
        return orjson.dumps(record) + b"\n"
    except TypeError:
        import json

        return json.dumps(record, ensure_ascii=True).encode() + b"\n"


def text_message(kind: str, text: str, **extra: Any) -> dict[str, Any]:
    """A ``user`` or ``assistant`` record."""
    return {
        "type": kind,
        "message": {"role": kind, "content": [{"type": "text", "text": text}]},
        "session_id": SESSION,
        **extra,
    }


def tool_record(
    subtype: str, call_id: str, key: str, args: dict[str, Any], result: Any = None
) -> dict[str, Any]:
    """A ``tool_call`` record."""
    body: dict[str, Any] = {"args": args}
    if result is not None:
        body["result"] = result
    return {
        "type": "tool_call",
        "subtype": subtype,
        "call_id": call_id,
        "tool_call": {key: body},
        "model_call_id": "m1",
        "session_id": SESSION,
        "timestamp_ms": T0 + 10,
    }


def hostile_records(payload: str, session: str = SESSION) -> list[dict[str, Any]]:
    """A whole run with ``payload`` in every string a viewer may show."""
    shell_args = {
        "command": f"echo {payload}",
        "workingDirectory": f"/tmp/{payload}",
        "description": payload,
    }
    shell_output = f"{payload}\r\nok\r\n{payload}\n"
    records: list[dict[str, Any]] = [
        {
            "type": "system",
            "subtype": "init",
            "apiKeySource": payload,
            "cwd": f"/work/{payload}",
            "session_id": session,
            "model": f"Model {payload}",
            "permissionMode": payload,
        },
        text_message("user", f"prompt {payload} end"),
        {
            "type": "thinking",
            "subtype": "delta",
            "text": f"think {payload}\n",
            "session_id": session,
            "timestamp_ms": T0,
        },
        {"type": "thinking", "subtype": "completed", "session_id": session, "timestamp_ms": T0},
        text_message("assistant", f"delta {payload}\n", timestamp_ms=T0 + 1),
        text_message("assistant", f"more {payload}\n", timestamp_ms=T0 + 2),
        text_message(
            "assistant", f"delta {payload}\nmore {payload}\n", model_call_id="m1", timestamp_ms=T0
        ),
        tool_record("started", f"call_{payload}\nfc_1", "shellToolCall", shell_args),
        tool_record(
            "completed",
            f"call_{payload}\nfc_1",
            "shellToolCall",
            shell_args,
            {
                "success": {
                    "exitCode": 0,
                    "stdout": shell_output,
                    "stderr": payload,
                    "interleavedOutput": shell_output,
                    "executionTime": 12,
                }
            },
        ),
        tool_record("started", "call_read", "readToolCall", {"path": f"/src/{payload}.py"}),
        tool_record(
            "completed",
            "call_read",
            "readToolCall",
            {"path": f"/src/{payload}.py"},
            {"success": {"content": f"# {payload}\n", "totalLines": 1}},
        ),
        tool_record(
            "completed",
            "call_err",
            "editToolCall",
            {"path": payload},
            {"error": {"message": f"cannot edit {payload}"}},
        ),
        tool_record(
            "completed",
            "call_rej",
            "shellToolCall",
            {"command": payload},
            {"rejected": {"reason": f"denied {payload}"}},
        ),
        tool_record(
            "completed",
            "call_new",
            f"{payload}ToolCall",
            {"x": payload},
            {payload: {"y": payload}},
        ),
        {
            "type": "interaction_query",
            "subtype": "response",
            "query_type": payload,
            "response": {"id": 1, "q": {"result": {"rejected": {"reason": payload}}}},
            "session_id": session,
        },
        {
            "type": "connection",
            "subtype": payload,
            "attempt": 1,
            "endpoint_url": f"https://{payload}",
            "session_id": session,
        },
        {"type": f"mystery {payload}", "subtype": payload, "value": payload, "session_id": session},
        {"type": "system", "subtype": f"notice {payload}", "session_id": session},
        text_message("assistant", f"final {payload} answer"),
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 1234,
            "result": f"final {payload} answer",
            "request_id": payload,
            "session_id": session,
        },
    ]
    for record in records:
        record["session_id"] = session
    return records


def hostile_stream(payload: str, session: str = SESSION) -> bytes:
    """:func:`hostile_records` as bytes, plus malformed lines carrying ``payload`` raw."""
    lines = [dumps(record) for record in hostile_records(payload, session)]
    raw = payload.encode("utf-8", "surrogatepass")
    malformed = [
        b"not json " + raw + b"\n",
        b'{"type": "assistant", "message": ' + raw + b"\n",
        b"\xff\xfe" + raw + b"\n",
        b"[" + orjson.dumps(payload.encode("utf-8", "replace").decode()) + b"]\n",
    ]
    return b"".join(lines[:3] + malformed[:2] + lines[3:10] + malformed[2:] + lines[10:])


# -- Scale ------------------------------------------------------------------------------


def write_lines(path: Path, lines: Iterator[bytes]) -> int:
    """Write ``lines`` to ``path``; return how many were written."""
    count = 0
    with path.open("wb") as out:
        for line in lines:
            out.write(line)
            count += 1
    return count


def _head(session: str = SESSION) -> Iterator[bytes]:
    yield dumps(
        {
            "type": "system",
            "subtype": "init",
            "session_id": session,
            "model": "GPT-5",
            "cwd": "/w",
            "apiKeySource": "env",
            "permissionMode": "default",
        }
    )
    yield dumps(text_message("user", "go", session_id=session))


def _tail(session: str = SESSION) -> Iterator[bytes]:
    yield dumps(text_message("assistant", "done", session_id=session))
    yield dumps(
        {
            "type": "result",
            "subtype": "success",
            "is_error": False,
            "duration_ms": 5,
            "result": "done",
            "session_id": session,
        }
    )


def huge_line_stream(size: int) -> Iterator[bytes]:
    """A run whose one shell result line is ``size`` bytes of output on a single line."""
    yield from _head()
    args = {"command": "cat big"}
    yield dumps(tool_record("started", "c1", "shellToolCall", args))
    output = ("x" * 1000 + "\x1b[31m") * (size // 1005)
    result = {"success": {"exitCode": 0, "interleavedOutput": output}}
    yield dumps(tool_record("completed", "c1", "shellToolCall", args, result))
    yield from _tail()


def million_line_output_stream(lines: int) -> Iterator[bytes]:
    """A run with one shell result of ``lines`` short lines of output."""
    yield from _head()
    args = {"command": "seq"}
    yield dumps(tool_record("started", "c1", "shellToolCall", args))
    output = "".join(f"line {n} \x1b[32mok\x1b[0m\r\n" for n in range(lines))
    result = {"success": {"exitCode": 0, "interleavedOutput": output}}
    yield dumps(tool_record("completed", "c1", "shellToolCall", args, result))
    yield from _tail()


def big_answer_stream(size: int, deltas: int = 1000) -> Iterator[bytes]:
    """A run whose answer is ``size`` characters of Markdown, in ``deltas`` token deltas."""
    yield from _head()
    paragraph = "Some **bold** text, `code`, and a [link](https://example.com).\n\n"
    text = (paragraph * (size // len(paragraph) + 1))[:size]
    step = max(1, len(text) // deltas)
    for n, start in enumerate(range(0, len(text), step)):
        yield dumps(text_message("assistant", text[start : start + step], timestamp_ms=T0 + n))
    yield dumps(text_message("assistant", text))
    yield from _tail()


def many_calls_stream(calls: int, seed: int = 0) -> Iterator[bytes]:
    """A run with ``calls`` tool calls, completed out of order in small parallel groups."""
    rng = random.Random(seed)
    yield from _head()
    pending: list[str] = []
    for n in range(calls):
        call_id = f"call_{n}\nfc_{n}"
        yield dumps(tool_record("started", call_id, "readToolCall", {"path": f"/src/f{n}.py"}))
        pending.append(call_id)
        if len(pending) >= rng.randint(1, 4):
            rng.shuffle(pending)
            for done in pending:
                result = {"success": {"content": "x\n", "totalLines": 1}}
                yield dumps(tool_record("completed", done, "readToolCall", {"path": "p"}, result))
            pending.clear()
    for done in pending:
        yield dumps(tool_record("completed", done, "readToolCall", {"path": "p"}, {"success": {}}))
    yield from _tail()


def many_sessions_stream(sessions: int) -> Iterator[bytes]:
    """``sessions`` whole runs back to back in one file, as an appended log holds them."""
    for n in range(sessions):
        session = f"session-{n}"
        yield from _head(session)
        args = {"command": f"echo {n}"}
        yield dumps(
            {**tool_record("started", f"c{n}", "shellToolCall", args), "session_id": session}
        )
        result = {"success": {"exitCode": n % 2, "interleavedOutput": f"{n}\n"}}
        yield dumps(
            {
                **tool_record("completed", f"c{n}", "shellToolCall", args, result),
                "session_id": session,
            }
        )
        yield from _tail(session)


def pathological_markdown() -> dict[str, str]:
    """Markdown that hangs or explodes naive renderers, by name."""
    return {
        "nested-lists": "- " * 10_000 + "deep\n",
        "nested-ordered-lists": "1. " * 10_000 + "deep\n",
        "nested-lists-indented": "".join("  " * n + "- item\n" for n in range(1_000)),
        "nested-quote-lists": "> - " * 5_000 + "deep\n",
        "nested-quotes": ">" * 10_000 + " deep\n",
        "nested-quotes-lines": "".join(">" * n + " q\n" for n in range(1, 2_000)),
        "five-mb-line": "word " * 1_000_000,
        "big-table": "| a | b | c |\n|---|---|---|\n"
        + "".join(f"| {n} | `{n}` | **{n}** |\n" for n in range(2_000)),
        "unclosed-fence": "```python\n" + "x = 1\n" * 20_000,
        "nested-emphasis": "*" * 50_000 + "x" + "*" * 50_000,
        "many-links": "[a](https://evil.example/a) " * 20_000,
        "html-and-images": '<img src="https://evil.example/x.png"> ![x](https://evil.example/y.png)\n'
        * 2_000,
        "deep-brackets": "[" * 30_000 + "x" + "]" * 30_000,
    }


def markdown_stream(markdown: str, session: str = SESSION, deltas: int = 5) -> bytes:
    """A run whose answer is ``markdown``, streamed as ``deltas`` deltas then flushed."""
    lines = list(_head(session))
    step = max(1, len(markdown) // deltas)
    for n, start in enumerate(range(0, len(markdown), step)):
        delta = text_message(
            "assistant", markdown[start : start + step], timestamp_ms=T0 + n, session_id=session
        )
        lines.append(dumps(delta))
    lines.append(dumps(text_message("assistant", markdown, session_id=session)))
    lines.extend(_tail(session))
    return b"".join(lines)


def huge_odd_lines_stream(size: int) -> Iterator[bytes]:
    """A run holding a ``size``-byte line that is not JSON and an unknown record as big."""
    yield from _head()
    yield b"not json \x1b]0;PWNED\x07 " + b"y" * size + b"\n"
    yield dumps({"type": "brand_new_record", "blob": "z\x1b[2J" * (size // 5)})
    yield from _tail()
