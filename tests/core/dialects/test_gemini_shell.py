"""Gemini's debug-mode shell display, read by ``str.find``: what the regexes it
replaced found, on any text made of the pieces those regexes look for."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from streamview.core.dialects import gemini_tools

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


@settings(max_examples=2000, deadline=None)
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
