"""opencode's (and Kilo's) fast path reads a step's start, its text and a step that
called tools straight from their bytes, and declines every line it might read otherwise
than the general path does.

``fast-lines.jsonl`` (in ``opencode/`` and ``kilo/``) holds both kinds;
``test_fast_json.py`` checks that ``--json`` is the same with and without the fast
path, and this test that the fast path really takes the lines it is meant to.
"""

from __future__ import annotations

from pathlib import Path

from streamview.core.dialects.opencode import OpenCodeTranslator
from streamview.core.dialects.opencode_fast import success_said
from streamview.core.dialects.opencode_tools import success_payload
from streamview.core.model import ToolCall

from .fast_taken import taken_lines

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"

TAKEN = {2, 16, 17, 18, 19, 29, 32, 35}
"""Steps' starts, text (non-ASCII, escaped) and steps that called tools, in the run
already started; not the first record, a step after one that ended ``unknown``, a
step that ends the run, nor a record of another session; nor a ``tool_use``:
:meth:`fast` reads it from the dict (its reads, greps and commands summarised
without their payload)."""


def test_the_fast_path_takes_steps_and_text_and_declines_the_unusual() -> None:
    data = (FIXTURES / "opencode" / "fast-lines.jsonl").read_bytes()
    assert (FIXTURES / "kilo" / "fast-lines.jsonl").read_bytes() == data
    assert taken_lines(OpenCodeTranslator(), data) == TAKEN


CASES = [
    ("read", {"path": "/w/a.py"}, "", {}),
    ("read", {"path": "/w/a.py"}, "one\ntwo\n", None),
    ("grep", {"pattern": "x"}, "Found 1 match\n", {}),
    ("grep", {"pattern": "x"}, "a.py:\n  Line 3: x\n\n  Line 9: x\n", {}),
    ("shell", {"command": "make"}, "a\r\nb\r\n\r\n", {"exit": 2}),
    ("shell", {"command": "ls"}, " \n", {"exit": "0"}),
    ("shell", {"command": "ls"}, "", ["not", "an", "object"]),
]


def _ended(kind: str, payload: object) -> tuple[object, ...]:
    call = ToolCall(0, "c1", kind)
    call.complete("success", payload)
    return call.status, call.summary, call.lines_added, call.lines_removed, call.exit_code


def test_a_said_result_ends_the_call_as_its_payload_does() -> None:
    """Of its own kind, and of another (a call id used again: the payload is built)."""
    for kind, args, output, metadata in CASES:
        said = success_said(kind, args, output, metadata)
        assert said is not None
        built = success_payload(kind, args, output, metadata)
        for call_kind in (kind, "task"):
            assert _ended(call_kind, said) == _ended(call_kind, built), (kind, output)
    assert success_said("edit", {"path": "/w/a.py"}, "done", {}) is None
