"""The byte checks of the pty test, on bytes made here: what they flag and what not."""

from __future__ import annotations

import base64

from .hostile_agents import marker, osc52_marker
from .pty_checks import KeyLog, problems

MARKS = [marker("kimi").encode(), osc52_marker("kimi"), b"evil.example"]


def osc52(text: str) -> bytes:
    return b"\x1b]52;c;" + base64.b64encode(text.encode()) + b"\x07"


def test_the_streams_own_clipboard_write_is_flagged() -> None:
    leaked = b"\x1b]52;c;" + osc52_marker("kimi") + b"\x07"
    found = problems(b"abc" + leaked, KeyLog(), MARKS, b"")
    assert any("carrying the stream's text" in problem for problem in found), found


def test_a_copy_of_cleaned_text_whose_base64_lines_up_with_the_marker_is_not() -> None:
    """The copy of a log line holding the marker (its escape shown as ␛): its base64
    holds the marker's base64 when the marker starts at a multiple of three."""
    text = f"abc{marker('kimi')} ␛]52;c;{osc52_marker('kimi').decode()}␇"
    write = osc52(text)
    assert osc52_marker("kimi") in write  # the coincidence the check must not trip on
    assert problems(write, KeyLog(), MARKS, b"") == []


def test_a_copy_that_carries_a_control_character_is_flagged() -> None:
    found = problems(osc52(f"{marker('kimi')}\x1b[201~rm -rf ~"), KeyLog(), MARKS, b"")
    assert any("control character" in problem for problem in found), found


def test_the_streams_link_and_dcs_are_flagged() -> None:
    output = b"\x1b]8;;https://evil.example/x\x07link\x1b]8;;\x07 \x1bPq" + MARKS[0] + b"\x1b\\"
    found = "\n".join(problems(output, KeyLog(), MARKS, b""))
    assert "carrying the stream's text" in found
    assert "DCS" in found
