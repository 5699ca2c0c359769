"""Codex's fast path reads the items most of a run is made of straight from their bytes
and declines every line it might read otherwise than the general path does.

``fast-lines.jsonl`` holds both kinds; ``test_fast_json.py`` checks that ``--json`` is
the same with and without the fast path, and this test that the fast path really
takes the lines it is meant to (else that check would prove nothing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from streamview.core.dialects.codex import CodexTranslator
from streamview.core.dialects.codex_tools import result_of
from streamview.core.model import ToolCall
from streamview.core.tools import Said, target_of

from .fast_taken import assert_fast_line_agrees, taken_lines

FIXTURE = (
    Path(__file__).resolve().parents[2] / "fixtures" / "dialects" / "codex" / "fast-lines.jsonl"
)

TAKEN = {2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 17, 24, 25, 26, 27, 28, 29, 30, 35, 39, 42, 43, 44}
"""A turn's start as Codex prints it (also after a fatal error, which it forgets),
commands (ran, declined, failed; non-ASCII, escaped, without an id; two summarised
alike), plain file changes, calls completed as another kind, reasoning and messages;
not an item of a phase other than started, updated or completed, nor a turn's start
with another field."""


def test_the_fast_path_takes_commands_changes_and_text_and_declines_the_unusual() -> None:
    assert taken_lines(CodexTranslator(), FIXTURE.read_bytes()) == TAKEN


def _plain(record: Any) -> Any:
    """A fast record as a call ends from it: what :meth:`ToolCall.complete` makes of its
    outcome and payload (``fast`` gives the payload, ``fast_line`` a :class:`Said` of
    it), the payload itself, and the arguments in their order."""
    if record is None or record[0] != "tool_call":
        return record
    fields = list(record[2])
    kind, args, outcome, payload = fields[3:7]
    if len(fields) == 13:  # the target handed over: what the fold would work out
        assert fields.pop() == target_of(kind, args)
    fields[4] = list(args.items())
    if outcome is not None:
        call = ToolCall(0, fields[2], kind)
        call.complete(outcome, payload)
        built = payload.build() if isinstance(payload, Said) else payload
        fields[6] = (call.status, call.summary, call.lines_added, call.exit_code, built)
    return (*record[:2], tuple(fields), *record[3:])


def test_a_line_taken_gives_what_fast_gives_and_leaves_the_same_translator() -> None:
    assert_fast_line_agrees(CodexTranslator(), CodexTranslator(), FIXTURE.read_bytes(), _plain)


_OUTPUTS = [
    "",
    "x",
    "x\n",
    "x\n\n",
    "x\r\n",
    "x\r\n\r\n",
    "x\n\r\n\n",
    "x\r",
    "x\r\r\n",
    "\nx",
    "\n\n\nx\n",
    "a\nb\nc",
    "a\n\nb\n",
    "a\r\nb\r\nc\r\n",
    "\n",
    "\r\n",
    " \n\t",
    "été\nçà\n",
    "a\\nb",
    "\u2028a\u2029b\n",
    "a\x0bb\x0cc\x1cd\n",
]
"""Command outputs whose lines are counted: trailing newlines of either kind, blank
ones, a backslash before an ``n``, line breaks ``splitlines`` knows and ``\\n`` counting
does not."""


@pytest.mark.parametrize("output", _OUTPUTS)
@pytest.mark.parametrize("code", [None, 0, 3])
def test_a_command_is_summarised_as_its_payload_would_be(output: str, code: int | None) -> None:
    item = {
        "id": "c1",
        "type": "command_execution",
        "command": "ls",
        "aggregated_output": output,
        "exit_code": code,
        "status": "completed",
    }
    line = orjson.dumps({"type": "item.completed", "item": item})
    said = CodexTranslator().fast_line(line, 1)
    assert said is not None
    fast, slow = ToolCall(0, "c1", "shell"), ToolCall(0, "c1", "shell")
    fast.complete(*said[2][5:7])
    slow.complete(*result_of("command_execution", item))
    assert (fast.status, fast.summary, fast.exit_code) == (
        slow.status,
        slow.summary,
        slow.exit_code,
    )
    assert said[2][6].build() == result_of("command_execution", item)[1]


def _command_lines(count: int) -> bytes:
    """``count`` commands, each started and completed: shell-wrapped and plain, with and
    without a working directory, a script that is blank, more than the script cache
    holds (so it is emptied and filled again between a start and its end)."""
    shapes = [
        "bash -lc 'ls {n}'",
        "rg --files {n}",
        '/bin/zsh -lc "cat f{n}"',
        "bash -lc '  '",
        "sh -c 'echo \"{n}\"'",
    ]
    records = []
    for n in range(count):
        command = shapes[n % len(shapes)].format(n=n)
        item: dict[str, Any] = {"id": f"c{n}", "type": "command_execution", "command": command}
        if n % 3 == 0:
            item["cwd"] = f"/work/{n}"
        records.append({"type": "item.started", "item": {**item, "status": "in_progress"}})
        done = {**item, "aggregated_output": "x\n" * (n % 4), "exit_code": n % 2}
        records.append({"type": "item.completed", "item": {**done, "status": "completed"}})
    return b"\n".join(orjson.dumps(record) for record in records)


def test_commands_past_the_script_cache_keep_their_arguments_and_target() -> None:
    data = _command_lines(700)
    assert_fast_line_agrees(CodexTranslator(), CodexTranslator(), data, _plain)
    assert len(taken_lines(CodexTranslator(), data)) == 1400


_CHANGES: list[tuple[list[Any], str, bool]] = [
    ([{"path": "/a.py", "kind": "update"}], "completed", True),
    ([{"path": "/a.py", "kind": "add"}], "completed", True),
    ([{"path": "/a.py", "kind": "delete"}], "in_progress", True),
    ([{"path": "/a.py"}], "completed", True),
    ([{"path": "", "kind": "update"}], "completed", True),
    ([{"path": "/a.py", "kind": None}], "completed", True),
    ([{"path": "/a.py", "kind": "rename"}], "completed", True),
    ([{"path": "/a.py", "kind": "  two words\nand a line"}], "completed", True),
    ([{"path": "/a.py", "kind": "update"}, {"path": "b", "kind": "add"}], "completed", True),
    ([{"path": "/a.py", "kind": "update", "diff": "@@\n+x"}], "completed", False),
    ([{"path": "/a.py", "kind": "update", "unified_diff": "+x"}], "completed", False),
    ([{"kind": "update"}], "completed", False),
    ([{"path": "/a.py", "kind": "update"}], "failed", False),
    ([], "completed", False),
]
"""File changes: one file of each kind (a kind of its own summarised by its first line),
an empty path (no target), two files; a diff of its own, no path, a failed patch and no file at all decline."""


@pytest.mark.parametrize(("changes", "status", "taken"), _CHANGES)
@pytest.mark.parametrize("phase", ["item.started", "item.completed"])
def test_a_file_change_is_read_as_the_dict_path_reads_it(
    changes: list[Any], status: str, taken: bool, phase: str
) -> None:
    item = {"id": "f1", "type": "file_change", "changes": changes, "status": status}
    data = orjson.dumps({"type": phase, "item": item})
    assert_fast_line_agrees(CodexTranslator(), CodexTranslator(), data, _plain)
    assert taken_lines(CodexTranslator(), data) == ({1} if taken else set())
