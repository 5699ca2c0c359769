"""Gemini's debug-mode shell display, read by ``str.find``: what the regexes it
replaced found, on any text made of the pieces those regexes look for."""

from __future__ import annotations

import re

import msgspec
from hypothesis import example, given, settings
from hypothesis import strategies as st

from streamview.core.dialects import gemini_tools
from streamview.core.model import ToolCall

SHELL_PARTS = re.compile(r"^Output: (?P<out>.*?)\nError: (?P<err>.*?)\nExit Code: ", re.S | re.M)
EXIT_CODE = re.compile(r"^Exit Code: (-?\d+)\s*$", re.MULTILINE)

PIECES = st.sampled_from(
    [
        "Output: ",
        "Error: ",
        "Exit Code: ",
        "\nOutput: ",
        "\nError: ",
        "\nExit Code: ",
        "\n",
        "\r",
        " ",
        "\t",
        "\x1c",
        "\u2003",
        "-",
        "0",
        "7",
        "42",
        "\u0663",
        "x",
        "(none)",
        "(empty)",
        "Signal: (none)",
    ]
)
TEXTS = st.lists(PIECES, max_size=24).map("".join)


@settings(max_examples=500, deadline=None)
@given(TEXTS)
@example("Command: ls\nOutput: a\nb\nError: (none)\nExit Code: 0\nSignal: (none)")
@example("Output: a\nError: \nExit Code: -3 \nExit Code: 4")
@example("Output: \nError: e\nExit Code: x\nExit Code: 5\n\n")
@example("xOutput: a\nError: b\nExit Code: 1")
def test_shell_parts_and_exit_code_find_what_the_regexes_found(text: str) -> None:
    parts = SHELL_PARTS.search(text)
    expected = (parts["out"], parts["err"]) if parts else None
    assert gemini_tools.shell_parts(text) == expected
    code = EXIT_CODE.search(text)
    assert gemini_tools.exit_code(text) == (int(code.group(1)) if code else None)


@settings(max_examples=500, deadline=None)
@given(TEXTS)
@example("Command: ls\nOutput: a\nb\nError: (none)\nExit Code: 0\nSignal: (none)")
@example("Exit Code: 3\nOutput: a\nError: b\nExit Code: 4")
@example("Output: (empty)\nError: boom\nExit Code: 2")
@example("Output: (empty)\nError: (none)\nExit Code: 0")
@example("Command exited with code: 7 ")
@example("  \n")
@example("")
def test_a_shell_said_is_what_its_payload_says(text: str) -> None:
    """The fast path's count of a command's result (``success_said``) leaves the call as
    the built payload does; ``exit_code`` told where the first mark is finds the same."""
    mark = text.find("\nExit Code: ")
    assert gemini_tools.exit_code(text, mark) == gemini_tools.exit_code(text)
    payload = gemini_tools.success_payload("shell", {}, text)
    said = gemini_tools.success_said("shell", {}, text)
    assert said is not None
    by_said, by_payload = ToolCall(0, "c", "shell"), ToolCall(0, "c", "shell")
    by_said.complete("success", said)
    by_payload.complete("success", payload)
    assert msgspec.structs.asdict(by_said) == msgspec.structs.asdict(by_payload)
    assert said.build() == payload
