"""A call whose arguments the viewer's fold let go (issue 27.5,
:mod:`streamview.core.args_store`) still shows, finds, exports and opens them: each
reader reads them back from the file's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

import streamview.core.args_store as args_store
from streamview.core.call_records import load_records
from streamview.core.html_export import to_html
from streamview.core.linestore import FileLineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.state import StreamState
from streamview.core.timeline import fold_indexed
from streamview.ui.calls.search import ARGUMENTS, CallHit, find_in_calls
from streamview.ui.details.handoff import open_command
from streamview.ui.details.views import args_section, result_sections

from .helpers import text_of

SID = "5e1d2c3b-0000-4000-8000-000000000027"
WORD = "quokka"
"""Only in the Write call's arguments: not in its target, summary or result."""


def _call(number: int, name: str, args: dict[str, Any], result: str) -> list[dict[str, Any]]:
    """A Claude Code tool call's two records."""
    tool_id = f"toolu_{number}"
    use = {"type": "tool_use", "id": tool_id, "name": name, "input": args}
    back = {"type": "tool_result", "tool_use_id": tool_id, "content": result}
    common = {"parent_tool_use_id": None, "session_id": SID}
    return [
        {"type": "assistant", "message": {"id": f"m{number}", "role": "assistant",
                                          "content": [use]}, "uuid": f"a{number}", **common},
        {"type": "user", "message": {"role": "user", "content": [back]},
         "uuid": f"u{number}", **common},
    ]  # fmt: skip


@pytest.fixture
def released(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[StreamState, FileLineStore]:
    """A session of a Read (at line 12 of a file that is there) and a Write, folded as
    the viewer folds a file, its finished calls' arguments let go."""
    source = tmp_path / "parse.py"
    source.write_text("x = 1\n" * 20)
    records = [
        {"type": "system", "subtype": "init", "cwd": str(tmp_path), "session_id": SID,
         "tools": ["Read", "Write"], "model": "claude-sonnet-4-5"},
        *_call(1, "Read", {"file_path": str(source), "offset": 12, "limit": 5}, "12\tx = 1"),
        *_call(2, "Write", {"file_path": str(tmp_path / "notes.md"),
                            "content": f"a {WORD} was here\n"}, "File created successfully"),
        {"type": "result", "subtype": "success", "is_error": False, "result": "done",
         "session_id": SID},
    ]  # fmt: skip
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(orjson.dumps(record) + b"\n" for record in records))
    monkeypatch.setattr(args_store, "SWEEP_EVERY", 1)  # a file this small is let go too
    store = FileLineStore(path)
    state, _timeline = fold_indexed([path.read_bytes()], store)
    calls = state.sessions[0].tool_calls
    assert [call.kind for call in calls] == ["read", "write"]
    assert all(args_store.args_in_lines(call) and not call.args for call in calls)
    return state, store


def test_a_released_calls_arguments_are_shown_found_exported_and_opened(
    released: tuple[StreamState, FileLineStore],
) -> None:
    """Its details list its arguments, a search for a word only they hold finds it, the
    Markdown and HTML exports hold them, and ``o`` opens the file at the line they say."""
    state, store = released
    session = state.sessions[0]
    read, write = session.tool_calls
    records = load_records(write, store)  # what the details screen shows
    details = [args_section(write.kind, records.args, records.description)]
    details += result_sections(write.kind, records.args, records.outcome, records.payload)
    assert "notes.md" in text_of(details[:1]) and WORD in text_of(details)
    assert find_in_calls(session, store, WORD) == [CallHit(write.index, ARGUMENTS)]
    assert WORD in to_markdown(state, store=store)
    assert WORD in to_html(state, title="run", store=store)
    command, note = open_command(read, session.cwd, store=store, environ={"EDITOR": "vi"})
    assert command is not None, note
    assert "+12" in command and read.target in command
