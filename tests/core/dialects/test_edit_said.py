"""Droid's and Kimi CLI's fast path count an edit's ``+a -r`` from its replacements
instead of building the diff, and end the call as the built payload does (issue 30.8).
"""

from __future__ import annotations

from typing import Any

import streamview.core.dialects.droid_tools as droid_tools
import streamview.core.dialects.kimi_tools as kimi_tools
from streamview.core.model import ToolCall
from streamview.core.tools import Said


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def _droid(name: str, parameters: dict[str, Any]) -> tuple[Any, Any]:
    args = droid_tools.args_of(name, parameters)
    said = droid_tools.success_said(name, args, "File edited")
    return said, droid_tools.success_payload(name, args, "File edited")


def _kimi(arguments: dict[str, Any]) -> tuple[Any, Any]:
    args = kimi_tools.args_of("StrReplaceFile", arguments)
    note = "File successfully edited."
    _, said = kimi_tools.outcome_of("edit", args, note, "", lean=True)
    _, built = kimi_tools.outcome_of("edit", args, note, "")
    return said, built


def test_an_edit_counted_ends_the_call_as_its_payload_does() -> None:
    counted = [
        _droid("Edit", {"file_path": "/w/a.py", "old_str": "a = 1", "new_str": "a = 2\nb = 3"}),
        _droid("MultiEdit", {"file_path": "/w/a.py", "edits": [{"old_str": "p", "new_str": "q"}]}),
        _kimi({"path": "/w/a.py", "edit": {"old": "x", "new": "y\nz"}}),
        _kimi({"path": "/w/a.py", "edit": [{"old": "m", "new": "n"}, {"old": "o\np", "new": "r"}]}),
    ]
    for said, built in counted:
        assert isinstance(said, Said)
        assert said.summary is not None and said.summary.startswith("+")
        assert not isinstance(built, Said)
        for call_kind in ("edit", "task"):  # a call of another kind builds the payload
            assert _ended(call_kind, said) == _ended(call_kind, built)
        assert said.build() == built


def test_an_edit_whose_lines_are_shared_or_missing_is_built() -> None:
    """difflib's hunks, and an edit with no replacement, are not counted."""
    shared = {"file_path": "/w/a.py", "old_str": "x\ny", "new_str": "x\nz"}
    assert not isinstance(_droid("Edit", shared)[0], Said)
    assert not isinstance(_droid("Edit", {"file_path": "/w/a.py"})[0], Said)
    assert not isinstance(_kimi({"path": "/w/a.py", "edit": {"old": "x\ny", "new": "x"}})[0], Said)
    patch = {"input": "*** Update File: a.py\n-a\n+b"}
    assert (
        droid_tools.success_said("ApplyPatch", droid_tools.args_of("ApplyPatch", patch), "ok")
        is None
    )
