"""The README's Keys table is the help screen's keys, no more and no fewer.

The help is made from the bindings (``test_commands`` checks that every binding is in
it), so a key the README lists that the help does not is a key that does not exist,
and a key of the help the README never names is one a reader of the README cannot
find. Keys are compared as both write them (``↑``, ``pgup``, ``ctrl+c``, ``[``)."""

from __future__ import annotations

import re
from pathlib import Path

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.commands import viewer_help

REPO = Path(__file__).resolve().parents[3]
README = REPO / "README.md"
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
CODE = re.compile(r"`([^`]+)`")


def keys_section(text: str) -> str:
    """The README's ``## Keys`` section, up to the next heading of its level."""
    start = text.index("\n## Keys\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_rows(section: str) -> list[tuple[str, str]]:
    """``(keys cell, does cell)`` of each row of the section's table (not its head)."""
    rows = []
    for line in section.splitlines():
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        if cells[:2] != ["key", "does"]:
            rows.append((cells[0], " | ".join(cells[1:])))
    return rows


def keys_written(cell: str) -> set[str]:
    """Every key in a cell's code spans: ``↑ ↓ j k`` is four; `0` to `9` (en dash) ten."""
    keys: set[str] = set()
    for span in CODE.findall(cell):
        keys.update(span.split())
    if re.search(r"`0`\s*[\u2013-]\s*`9`", cell):
        keys.update(str(digit) for digit in range(10))
    return keys


def help_keys() -> set[str]:
    """Every key the help screen lists, as it writes them."""
    app = StreamviewApp(FileSource(RECORDING))
    keys: set[str] = set()
    for section in viewer_help(app):
        for written, _ in section.rows:
            if written == "0-9":
                keys.update(str(digit) for digit in range(10))
            else:
                keys.update(written.split())
    return keys


def test_the_readme_keys_table_lists_every_key_and_only_keys_that_exist() -> None:
    rows = table_rows(keys_section(README.read_text(encoding="utf-8")))
    assert len(rows) > 20, "the Keys table was not found"
    first_column = set().union(*(keys_written(keys) for keys, _ in rows))
    anywhere = first_column.union(*(keys_written(does) for _, does in rows))
    bound = help_keys()
    assert len(bound) > 40
    not_bound = sorted(first_column - bound)
    assert not not_bound, f"the README lists keys that are bound nowhere: {not_bound}"
    not_listed = sorted(bound - anywhere)
    assert not not_listed, f"keys the README's Keys table never names: {not_listed}"


def test_the_check_sees_a_key_missing_and_a_key_made_up() -> None:
    """The parsing the test relies on: a row's keys, a digit range, keys in the text."""
    section = (
        "\n## Keys\n\n| key | does |\n|---|---|\n"
        "| `home g`, `end G` | top / end |\n| `0`\u2013`9` | jump (`r` restarts) |\n"
        "\n## Next\n| `zz` | not in the section |\n"
    )
    rows = table_rows(keys_section(section))
    assert [keys_written(keys) for keys, _ in rows] == [
        {"home", "g", "end", "G"},
        {str(digit) for digit in range(10)},
    ]
    assert keys_written(rows[1][1]) == {"r"}
