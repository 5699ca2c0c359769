"""Recognition skips a dialect whose ``detect`` cannot accept a record's ``type``
(:data:`streamview.core.dialects.ASKED_FOR`) without changing what any record is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson

from streamview.core import dialects
from streamview.core.dialects import (
    amp,
    claude_records,
    claude_session_lines,
    droid,
    opencode,
    qwen,
)

ROOT = Path(__file__).resolve().parents[3]


RETYPES = ("not-a-listed-type", "not.listed", "item.listed", "message", "reasoning", 3, None)
"""Types each record is also tried with: unlisted, of a listed form, Droid's text-held
types, and types that are no string."""


def _every_record() -> list[dict[str, object]]:
    records = []
    for path in [
        *sorted((ROOT / "tests/fixtures/dialects").rglob("*.jsonl")),
        *sorted((ROOT / "tests/fixtures/dialects").rglob("*.ndjson")),
        *sorted((ROOT / "recordings").glob("*.ndjson")),
    ]:
        for line in path.read_bytes().splitlines():
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                continue
            if isinstance(record, dict):
                records.append(record)
    return records


def _asking_every_dialect(record: dict[str, object]) -> dialects.Dialect | None:
    for dialect in dialects.every_dialect():
        try:
            if dialect.detect(record):
                return dialect
        except Exception:
            continue
    return None


def test_the_types_are_the_dialects_own_lists() -> None:
    asked = dialects.ASKED_FOR
    assert asked["claude-session"] == claude_session_lines.ABOUT | claude_session_lines.CHAIN
    assert asked["claude"] == {"system", "stream_event", "assistant", "user"} | set(
        claude_records._TOP
    )
    assert asked["amp"] == amp._TYPES
    assert asked["droid"] | {"message", "reasoning"} == {"system"} | droid._OWN_TYPES
    assert asked["opencode"] == asked["kilo"] == opencode._TYPES
    assert asked["cline"] == {"task_started", "say", "ask"}  # cline.detect's own three


def test_every_fixture_record_is_recognised_as_when_every_dialect_is_asked() -> None:
    records = _every_record()
    assert len(records) > 1000
    # Each listed dialect's records, and each record retyped to a type outside every
    # list, a type that is no string, or none at all.
    retyped = [
        {**record, "type": other} for record in records[::7] for other in (*RETYPES, ["message"])
    ]
    for record in [*records, *retyped]:
        assert dialects.recognise(record) is _asking_every_dialect(record), record


def test_recognising_a_gemini_stream_imports_no_earlier_dialect(tmp_path: Path) -> None:
    stream = tmp_path / "gemini.ndjson"
    stream.write_bytes(
        b'{"type":"init","timestamp":"2026-11-20T10:00:00.000Z","session_id":"s","model":"m"}\n'
    )
    code = (
        "import sys\n"
        "from streamview.core.reader import fold\n"
        f"print(fold([open({str(stream)!r}, 'rb').read()]).sessions[0].agent)\n"
        "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules"
        " if m.startswith('streamview.core.dialects.') and m.rsplit('.', 1)[1] in"
        " ('claude', 'codex', 'amp', 'qwen', 'droid', 'claude_session', 'codex_session')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == ["gemini", "[]"]


def test_amp_is_asked_only_of_an_assistant_or_a_thread_id() -> None:
    # Amp's detect takes its other types only with a thread id of more than 10 characters.
    for kind in ("system", "user", "result", "assistant"):
        for sid in ("T-019e0000-0000", "T-01234567", "T-012345678", "t-0123456789", "x", 3):
            for record in (
                {"type": kind, "subtype": "init", "session_id": sid},
                {"type": kind, "session_id": sid, "permissionMode": "default"},
                {"type": kind, "subtype": "init", "session_id": sid, "qwen_code_version": "1"},
            ):
                assert dialects.recognise(record) is _asking_every_dialect(record), record
        assert dialects.recognise({"type": kind}) is _asking_every_dialect({"type": kind})


def test_recognising_a_qwen_stream_imports_no_amp_module(tmp_path: Path) -> None:
    stream = tmp_path / "qwen.ndjson"
    stream.write_bytes(
        b'{"type":"system","subtype":"init","session_id":"q-1","model":"m",'
        b'"permission_mode":"yolo","qwen_code_version":"0.25.0"}\n'
    )
    code = (
        "import sys\n"
        "from streamview.core.reader import fold\n"
        f"print(fold([open({str(stream)!r}, 'rb').read()]).sessions[0].agent)\n"
        "print(sorted(m for m in sys.modules if m.startswith('streamview.core.dialects.amp')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == ["qwen", "[]"]


def test_recognising_a_kimi_or_pi_stream_imports_no_cline_module(tmp_path: Path) -> None:
    for agent, line in (
        ("kimi", b'{"role":"assistant","content":"hi"}\n'),
        ("pi", b'{"type":"session","version":3,"id":"p-1","cwd":"/w"}\n'),
    ):
        stream = tmp_path / f"{agent}.ndjson"
        stream.write_bytes(line)
        code = (
            "import sys\n"
            "from streamview.core.reader import fold\n"
            f"print(fold([open({str(stream)!r}, 'rb').read()]).sessions[0].agent)\n"
            "print(sorted(m for m in sys.modules"
            " if m.startswith('streamview.core.dialects.cline')))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        assert out.splitlines() == [agent, "[]"]


def test_the_qwen_stream_events_are_qwens_own() -> None:
    assert set(dialects.QWEN_STREAM_EVENTS) == qwen._OWN_STREAM_EVENTS


EDGES = [
    {"type": "system", "subtype": "init", "permission_mode": "yolo"},
    {"type": "system", "subtype": "init", "permission_mode": "yolo", "permissionMode": "x"},
    {"type": "system", "subtype": "model_fallback", "qwen_code_version": "1"},
    {"type": "system", "subtype": "init", "tools": ["Read"], "permissionMode": "default"},
    {"type": "system", "subtype": "init", "tools": ["Execute"]},
    {"type": "system", "subtype": "init", "tools": "Execute"},
    {"type": "system", "subtype": "init", "tools": {"Execute": 1}, "mcp_servers": []},
    {"type": "system", "subtype": "init", "reasoning_effort": "high"},
    {"type": "system", "subtype": "status", "reasoning_effort": "high"},
    {"type": "stream_event", "event": {"type": "goal_state"}},
    {"type": "stream_event", "event": {"type": "active_goal"}},
    {"type": "stream_event", "event": {"type": ["goal_state"]}},
    {"type": "stream_event", "event": {"type": {"a": 1}}},
    {"type": "stream_event", "event": "goal_state"},
    {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "read_file"}]}},
    {"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Read"}]}},
    {"type": "assistant", "message": {"content": [{"type": "text", "text": "hi"}]}},
    {"type": "assistant", "message": {"content": "read_file"}},
    {"type": "assistant", "message": ["read_file"]},
    {"role": "assistant", "content": "hi"},
    {"role": "tool", "tool_call_id": "c1"},
    {"type": None, "role": "assistant", "content": "hi"},
    {"type": "x", "category": "c", "source_kind": "s", "severity": "i", "title": "t"},
    {"category": "c", "source_kind": "s", "severity": "i", "title": "t"},
    {"type": "session", "version": 3, "id": "p-1"},
]


def test_the_cheap_checks_refuse_no_record_its_dialect_takes() -> None:
    for record in EDGES:
        assert dialects.recognise(record) is _asking_every_dialect(record), record


def test_recognising_a_claude_or_pi_stream_imports_no_other_dialect(tmp_path: Path) -> None:
    others = ("qwen", "qwen_tools", "droid", "droid_fast", "droid_tools", "kimi", "kimi_fast")
    for agent, line in (
        ("claude", b'{"type":"system","subtype":"init","session_id":"s","tools":["Read"]}\n'),
        ("claude", b'{"type":"stream_event","event":{"type":"message_start"},"session_id":"s"}\n'),
        ("pi", b'{"type":"session","version":3,"id":"p-1","cwd":"/w"}\n'),
    ):
        stream = tmp_path / f"{agent}.ndjson"
        stream.write_bytes(line)
        code = (
            "import sys\n"
            "from streamview.core.reader import fold\n"
            f"print(fold([open({str(stream)!r}, 'rb').read()]).sessions[0].agent)\n"
            "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules"
            " if m.startswith('streamview.core.dialects.')"
            f" and m.rsplit('.', 1)[1] in {others!r}))\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True
        ).stdout
        assert out.splitlines() == [agent, "[]"], line
