"""The HTML page begins with the run's summary: its tables hold the recording's own
facts, and a hostile stream's text in them is shown, never run."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.core.helpers import completed, init, result, started, stream

from .page_check import check_page, export

RECORDING = Path(__file__).resolve().parents[2] / "recordings" / "success-multi-tool.ndjson"


def _section(html: str) -> str:
    main = html.index("<main>")
    found = re.search(r'<section class="summary">(.*?)</section>', html[main:], re.S)
    assert found is not None
    assert html.index('<section class="summary">') < html.index('<section class="session">')
    return found.group(1)


def _cells(section: str, heading: str) -> list[list[str]]:
    table = section.split(heading, 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    return [
        [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in rows
    ]


def test_the_page_begins_with_the_summary_of_the_recording() -> None:
    """Before the first session: the headline, each edited file with its +/- lines and
    each command with its exit code, as the recording's JSON has them."""
    edits, commands = [], []
    for line in RECORDING.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        call = record.get("tool_call", {})
        if record.get("subtype") != "completed":
            continue
        if "editToolCall" in call:
            done = call["editToolCall"]["result"]["success"]
            edits.append([f"+{done['linesAdded']}", f"-{done['linesRemoved']}"])
        if "shellToolCall" in call:
            body = call["shellToolCall"]
            code = next(iter(body["result"].values()))["exitCode"]
            commands.append([f"exit {code}", body["args"]["command"]])
    _state, html = export(RECORDING.read_bytes(), agent="cursor")
    check_page(html)
    section = _section(html)
    assert "<h2>Summary</h2>" in section and "success in " in section
    assert [row[1:] for row in _cells(section, "Files changed")] == edits
    assert [
        [row[0].split(" ", 1)[1], row[1]] for row in _cells(section, "Commands run")
    ] == commands


def test_hostile_text_in_the_summary_is_shown_not_run() -> None:
    """A command and a file name holding tags: escaped in the summary's tables."""
    attack = "<script>alert(1)</script><img src=x onerror=alert(2)>"
    shell = {"command": f"echo {attack}"}
    edit = {"path": f"/w/{attack}.py"}
    data = stream(
        init(cwd="/w"),
        started("c1", "shell", shell),
        completed("c1", "shell", {"failure": {"exitCode": 3, "stdout": attack}}, shell),
        started("c2", "edit", edit),
        completed("c2", "edit", {"success": {"linesAdded": 1, "linesRemoved": 0}}, edit),
        result("done"),
    )
    _state, html = export(data, agent="cursor")
    page = check_page(html)
    section = _section(html)
    assert "<script>" not in section and "&lt;script&gt;alert(1)" in section
    assert any(f"echo {attack}" in text for text in page.text)
    assert "exit 3" in section
