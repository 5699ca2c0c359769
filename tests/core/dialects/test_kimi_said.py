"""Kimi CLI's results summarised in one go (``kimi_tools.lean_said``, issue 30.8) say
what :func:`~streamview.core.dialects.kimi_tools.outcome_of` says of them, and end the
call as the built payload does."""

from __future__ import annotations

from typing import Any

import pytest

import streamview.core.dialects.kimi_tools as kimi_tools
import streamview.core.dialects.tool_shapes as tool_shapes
from streamview.core.model import ToolCall
from streamview.core.tools import Said

NOTE = "Command executed successfully."


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def _said(said: Any) -> Any:
    if isinstance(said, Said):
        return said.kind, said.status, said.summary, said.numbers, said.build()
    return said


EDITS = [
    {"path": "a", "edit": {"old": "x", "new": "y\nz"}},
    {"path": "a", "edit": {"old": "x\r\ny", "new": "z", "replace_all": True}},
    {"path": "a", "edit": {"old": "x\n", "new": "x"}},  # a line in both: the diff's
    {"path": "a", "edit": {"old": "", "new": "y"}},  # no old line
    {"path": "a", "edit": {"old": "x", "new": 3}},
    {"path": "a", "edit": {"new": "y"}},
    {"path": "a", "edit": {"old_str": "p", "new_str": "q\nr", "old": "x", "new": "y"}},
    {"path": "a", "edit": {"oldText": 1, "newText": "q", "old": "x", "new": "y"}},
    {"path": "a", "old": "p", "new": "q\nr", "edit": {"old": "x", "new": "y"}},
    {"path": "a", "edits": [{"old": "p", "new": "q\nr"}], "edit": {"old": "x", "new": "y"}},
    {"path": "a", "edit": [{"old": "m", "new": "n"}, {"old": "o\np", "new": "r"}]},
    {"path": "a", "edit": "x"},
    {"path": "a"},
]
"""Kimi's usual edit, and every shape its one-replacement count must leave to
``edit_said``: another old-text name in the edit or beside it, an ``edits`` list, a
list, a text of another type, none."""


@pytest.mark.parametrize("arguments", EDITS)
def test_an_edit_said_in_one_go_is_what_outcome_of_says(arguments: dict[str, Any]) -> None:
    args = kimi_tools.args_of("StrReplaceFile", arguments)
    _, lean = kimi_tools.outcome_of("edit", args, NOTE, "done", lean=True)
    said = kimi_tools.lean_said("edit", args, NOTE, "done")
    if said is None:
        assert not isinstance(lean, Said)
    else:
        assert _said(said) == _said(lean)
    _, built = kimi_tools.outcome_of("edit", args, NOTE, "done")
    assert _ended("edit", said if said is not None else lean) == _ended("edit", built)


def test_the_old_text_names_are_those_edit_pairs_knows() -> None:
    assert kimi_tools._OLD_KEYS == tool_shapes._OLD_KEYS


OUTPUTS = ["", " \n", "a\nb", "a\r\nb\n\n", "x\\ny \u2028 z\n", "line 0: a\nline 1: b\n"]
OUTPUTS += ["src/a.py:3:y\n", "File: a.py\nL3: y\n", "a.py\nb.py\n", "é:1:x"]


@pytest.mark.parametrize("kind", ["read", "grep", "shell", "edit", "write", "glob", "unknown"])
@pytest.mark.parametrize("note", [NOTE, "", "ERROR: failed", "ERROR: exit code: 2"])
def test_a_result_said_in_one_go_is_what_outcome_of_says(kind: str, note: str) -> None:
    args = kimi_tools.args_of("X", {"path": "a", "edit": {"old": "x", "new": "y"}})
    for output in OUTPUTS:
        said = kimi_tools.lean_said(kind, args, note, output)
        outcome, lean = kimi_tools.outcome_of(kind, args, note, output, lean=True)
        if said is None:
            assert not isinstance(lean, Said), output
        else:
            assert (outcome, _said(said)) == ("success", _said(lean)), output
