"""The shared summaries the fold counts once a result (issue 30.8): a grep's matches,
an edit's replacements and Kimi's note-and-output split, with their edge cases."""

from __future__ import annotations

import random

import pytest

from streamview.core.dialects import amp_tools, droid_tools, tool_shapes
from streamview.core.dialects.kimi import split_texts
from streamview.core.model import ToolCall

GREPS = [
    ("", "no matches"),
    ("src/a.py:3:def parse", "1 match in 1 file"),
    ("src/a.py:3:x\r\nsrc/b.py:4:y\r\n", "2 matches in 2 files"),
    ("a.py:1:x\na.py:2:y\nb.py:10:z\n", "3 matches in 2 files"),
    ("ü.py:7:ä\n", "1 match in 1 file"),
    ("Found 2 files\nsrc/a.py\nsrc/b.py", "2 files"),
    ("No files found\n", "no matches"),
    ("line 0: is when\nline 1: an: list\n", "no matches"),
    (":3:x\nsrc/a.py\n", "1 file"),
    ("src/a.py\nb.py:2:x\n", "1 match in 1 file"),
    ("a.py: 12 :x", "1 match in 1 file"),
    ("a.py:x:1:y\n", "no matches"),
    ("line 0: is when\nline 1: an list\n", "no matches"),
    ("line 0: a\nsrc/a.py\n", "1 file"),
    ("line 0: a\nsrc/a.py", "1 file"),
    ("line 0: a\nsrc/a.py:3:x", "1 match in 1 file"),
    ("line 0: a\r\nline 1: b", "no matches"),
]


@pytest.mark.parametrize(("text", "summary"), GREPS)
def test_a_grep_is_summarised_as_its_lines_say(text: str, summary: str) -> None:
    """Matches in files, else names, else none: CRLF, no last newline, a header, a
    colon at the start, a word between the colons and non-ASCII text included."""
    said = tool_shapes.success_said("grep", {}, text)
    assert said is not None
    assert said.summary == summary
    assert tool_shapes._grep_said(text) == summary


def test_a_grep_summary_is_the_built_payloads_on_random_lines() -> None:
    """The counted summary and the payload's (its files and matches, or names) agree on
    lines made of the pieces whose order decides them."""
    rng = random.Random(308)
    pieces = ["a.py", ":", "12", " ", "x", "\n", "\r\n", ".", "/", "Found ", "é", "٣", "\u2028"]
    pieces += ["line 1: x\n"] * 4
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(14)))
        if "File: " in text:
            continue
        payload = tool_shapes._grep_payload(text)
        results = payload["workspaceResults"]
        matches = sum(len(result.get("matches", ())) for result in results)
        if matches:
            expected = f"{tool_shapes.plural(matches, 'match')} in "
            expected += tool_shapes.plural(len(results), "file")
        else:
            expected = tool_shapes.plural(len(results), "file") if results else "no matches"
        assert tool_shapes._grep_said(text) == expected, repr(text)


def test_one_colon_a_line_is_told_from_the_lines() -> None:
    """The grep summary's shortcut (:func:`~.tool_shapes.one_colon_a_line`) says yes
    only where each line :func:`str.splitlines` cuts has one colon, and on a text of
    ASCII and ``\\n`` breaks says yes wherever that holds."""
    rng = random.Random(3008)
    pieces = ["line 1", ":", " x", "\n", "\n", "a.py", "\r\n", "\x0b", "é", "\u2028"]
    told = 0
    for _ in range(4000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(10)))
        lines = text.splitlines()
        each_one = bool(lines) and all(line.count(":") == 1 for line in lines)
        plain = text.isascii() and not any(mark in text for mark in "\r\x0b")
        said = tool_shapes.one_colon_a_line(text)
        assert said == each_one if plain else not said or each_one, repr(text)
        told += said
    assert told > 50  # the shortcut was taken, not only declined


@pytest.mark.parametrize(
    ("args", "pairs"),
    [
        ({"path": "a", "edit": {"old": "a", "new": "b"}}, [("a", "b")]),
        (
            {
                "old_string": "x",
                "new_string": "y",
                "edits": [{"oldText": "1", "newText": "2"}, "junk", {"old": 3, "new": "n"}],
            },
            [("x", "y"), ("1", "2")],
        ),
        ({"edits": {"old_str": "p", "new_str": "q"}}, [("p", "q")]),
        ({"old": "a"}, []),
        ({"old": "a", "new": 1, "old_str": "c", "new_str": "d"}, [("c", "d")]),
        ({"path": "a", "content": "x"}, []),
        ({"edit": [{"old": "", "new": "z"}]}, [("", "z")]),
    ],
)
def test_an_edit_s_pairs_are_its_own_and_its_items(
    args: dict[str, object], pairs: list[tuple[str, str]]
) -> None:
    assert tool_shapes.edit_pairs(args) == pairs


@pytest.mark.parametrize(
    ("texts", "split"),
    [
        (
            ["<system>Command executed successfully.</system>", "out\n"],
            ("Command executed successfully.", "out\n"),
        ),
        (["<system>ERROR: no</system>", ""], ("ERROR: no", "")),
        (["<system>a</system>", "<system>b</system>"], ("a\nb", "")),
        (["out", "<system>a</system>"], ("a", "out")),
        (["a", "b"], ("", "ab")),
        (["<system>a</system>"], ("a", "")),
        ([], ("", "")),
        (["<system>a", "b</system>"], ("", "<system>ab</system>")),
    ],
)
def test_a_kimi_result_splits_into_its_note_and_output(
    texts: list[str], split: tuple[str, str]
) -> None:
    """Its ``<system>`` parts are the note, the rest its output; a pair (the usual
    shape, taken apart without lists) reads as any other count of parts does."""
    assert split_texts(texts) == split
    assert split_texts([*texts, ""]) == split  # three parts or more: the general loop


@pytest.mark.parametrize(
    ("text", "summary"),
    [
        ("", None),
        ("  \n", None),
        ("ok", "1 line"),
        ("ok\n", "1 line"),
        ("a\r\n\r\n", "1 line"),
        ("a\nb\n\n", "2 lines"),
        ("\n\nx", "3 lines"),
        ("é\u2028ü\n", "1 line"),
        ("a\rb", "1 line"),
    ],
)
def test_a_command_s_counted_summary_is_its_built_payloads(text: str, summary: str | None) -> None:
    """Kimi's command result, summarised from its text (:func:`~.tool_shapes.shell_said`),
    ends the call as the payload built from that text does: blank output says nothing,
    trailing newlines are not lines."""
    ended = []
    for payload in (tool_shapes.shell_said(text, dict), tool_shapes.shell_payload(text)):
        call = ToolCall(0, "c1", "shell")
        call.complete("success", payload)
        ended.append((call.status, call.summary, call.exit_code))
    assert ended[0] == ended[1] == ("succeeded", summary, None)


@pytest.mark.parametrize(
    "value",
    ["", "ok\n", "a\r\nb\r\n", '{"output": "a\\nb", "exitCode": 2}', {"out": "x"}, None],
)
def test_amp_and_droid_commands_end_as_their_built_payloads(value: object) -> None:
    """Amp's and Droid's command results, summarised on the fast path, end the call as
    their built payload does; Amp's JSON result (its exit code inside) is still built."""
    ends = []
    for said, built in (
        (
            amp_tools.success_said("shell", {}, value) if isinstance(value, str) else None,
            amp_tools.success_payload("shell", {}, value) if isinstance(value, str) else None,
        ),
        (
            droid_tools.success_said("Execute", {}, value),
            droid_tools.success_payload("Execute", {}, value),
        ),
    ):
        if built is None:
            continue
        ended = []
        for payload in (said or built, built):
            call = ToolCall(0, "c1", "shell")
            call.complete("success", payload)
            ended.append((call.status, call.summary, call.exit_code))
        assert ended[0] == ended[1]
        ends.append((said is not None, ended[0]))
    if value == '{"output": "a\\nb", "exitCode": 2}':
        assert ends[0] == (False, ("failed", "exit 2, 2 lines", 2))
    if value == "a\r\nb\r\n":
        assert ends == [(True, ("succeeded", "2 lines", None))] * 2
