"""``--export-markdown FILE --summary``: a CI job's summary, read through a CommonMark
parser: the outcome first, the tool calls with the failures first, each failure's
output folded, under 200 KB on a run of 10,000 calls with a note of what was cut."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from markdown_it.token import Token

import tests.core.helpers as h
from streamview.cli import main
from streamview.core.markdown_export import to_markdown
from streamview.core.reader import fold
from streamview.core.summary_markdown import CI_LIMIT, OUTPUT_LINES
from tests.hostile.corpus import ALL_TEXT
from tests.hostile.streams import hostile_stream

_SGR = re.compile(r"\x1b\[[0-9;]*m")
RECORDINGS = Path(__file__).resolve().parents[2] / "recordings"
CALLS = 10_000
FAIL_EVERY = 7
OUTPUT = 300
"""Lines of each failure's output: more than a summary shows."""


def _parse(text: str) -> list[Token]:
    return MarkdownIt("commonmark").enable("table").parse(text)


def _tables(tokens: list[Token]) -> list[list[list[str]]]:
    """Every table's body rows, each a list of its cells' inline text."""
    tables: list[list[list[str]]] = []
    row: list[str] | None = None
    for index, token in enumerate(tokens):
        if token.type == "table_open":
            tables.append([])
        elif token.type == "tr_open":
            row = []
        elif token.type == "td_open" and row is not None:
            row.append(tokens[index + 1].content)
        elif token.type == "tr_close" and row is not None:
            if row:
                tables[-1].append(row)
            row = None
    return tables


def _big_run() -> bytes:
    """``CALLS`` shell calls, every ``FAIL_EVERY``-th failing with ``OUTPUT`` lines."""
    lines = [h.init(), h.user("run everything")]
    for n in range(CALLS):
        args = {"command": f"check {n}"}
        if n % FAIL_EVERY == 0:
            out = "".join(f"failure {n} line {k}\n" for k in range(OUTPUT))
            result = {"failure": {"exitCode": 1, "stdout": out, "stderr": ""}}
        else:
            result = {"success": {"exitCode": 0, "stdout": "ok\n", "stderr": ""}}
        lines += [h.started(f"c{n}", "shell", args), h.completed(f"c{n}", "shell", result, args)]
    lines.append(h.result("done", is_error=True, subtype="error_during_execution"))
    return h.stream(*lines)


def _summary(tmp_path: Path, data: bytes, name: str = "run.ndjson", code: int = 0) -> str:
    """The summary the command writes; its exit code says how the run ended (1: failed)."""
    source = tmp_path / name
    source.write_bytes(data)
    out = tmp_path / "summary.md"
    assert main([str(source), "--export-markdown", str(out), "--summary"]) == code
    return out.read_text(encoding="utf-8")


def test_ci_summary_of_ten_thousand_calls_stays_small(tmp_path: Path) -> None:
    """Under the limit, failures first in the table, each shown failure folded with the
    tail of its output, and a link-free note counting what was cut."""
    text = _summary(tmp_path, _big_run(), code=1)
    size = len(text.encode("utf-8"))
    assert size < CI_LIMIT
    tokens = _parse(text)
    assert not [t for t in tokens if t.type == "link_open"]
    assert not any(c.type == "link_open" for t in tokens for c in t.children or [])
    headings = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert headings[0].endswith("run.ndjson") and headings[1] == "Summary"
    failures = len(range(0, CALLS, FAIL_EVERY))
    calls_table = _tables(tokens)[-1]
    listed = len(calls_table)
    assert 0 < listed < CALLS
    statuses = [row[3] for row in calls_table]
    failed_rows = min(listed, failures)
    assert all("failed" in s for s in statuses[:failed_rows])
    assert all("succeeded" in s for s in statuses[failed_rows:])
    assert [row[0] for row in calls_table[:3]] == [f"1.{n + 1}" for n in (0, 7, 14)]
    folded = [t.content for t in tokens if t.type == "html_block" and "<summary>" in t.content]
    assert 0 < len(folded) < failures  # 1,429 outputs of 300 lines cannot all fit
    fences = [t.content for t in tokens if t.type == "fence"]
    assert fences[0].splitlines() == [
        f"failure 0 line {k}" for k in range(OUTPUT - OUTPUT_LINES, OUTPUT)
    ]
    note = [t.content for t in tokens if t.type == "inline" and t.content.startswith("*Cut")]
    assert len(note) == 1
    assert f"{CALLS - listed:,} tool calls not in the table" in note[0]
    assert f"the output of {failures - len(folded):,} failures not shown" in note[0]
    assert "http" not in note[0]


def _recorded_failures(path: Path) -> list[tuple[str, list[str]]]:
    """Each failed shell call's command and output lines, read from the recording."""
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        body = record.get("tool_call", {}).get("shellToolCall", {})
        failure = body.get("result", {}).get("failure")
        if record.get("subtype") == "completed" and failure:
            output = failure.get("interleavedOutput") or failure.get("stdout")
            plain = _SGR.sub("", output).replace("\r\n", "\n")
            found.append((body["args"]["command"], plain.rstrip("\n").split("\n")))
    return found


def test_ci_summary_of_a_recording_folds_its_failure(tmp_path: Path) -> None:
    """The failing pytest run of the bundled recording: first in the calls table, its
    output's last lines in a fold, nothing cut."""
    name = "success-multi-tool.ndjson"
    path = RECORDINGS / name
    text = _summary(tmp_path, path.read_bytes(), name)
    tokens = _parse(text)
    failures = _recorded_failures(path)
    assert failures
    calls_table = _tables(tokens)[-1]
    for row, (command, _output) in zip(calls_table, failures, strict=False):
        assert command in row[2] and "failed" in row[3]
    fences = [t.content.rstrip("\n").split("\n") for t in tokens if t.type == "fence"]
    assert len(fences) == len(failures)
    for fence, (_command, output) in zip(fences, failures, strict=True):
        assert [line.rstrip() for line in fence] == [
            line.rstrip() for line in output[-OUTPUT_LINES:]
        ]
    assert "*Cut" not in text


def test_markdown_export_begins_with_the_summary() -> None:
    """The full export's first section is the summary: its files table has each edited
    file's +/- lines and its commands table each command's exit code, as recorded."""
    path = RECORDINGS / "success-multi-tool.ndjson"
    edits, commands = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        call = record.get("tool_call", {})
        if record.get("subtype") != "completed":
            continue
        if "editToolCall" in call:
            done = call["editToolCall"]["result"]["success"]
            edits.append([f"+{done['linesAdded']}", f"-{done['linesRemoved']}"])
        if "shellToolCall" in call:
            result = call["shellToolCall"]["result"]
            commands.append(f"exit {next(iter(result.values()))['exitCode']}")
    tokens = _parse(to_markdown(fold([path.read_bytes()])))
    sections = [tokens[i + 1].content for i, t in enumerate(tokens) if t.type == "heading_open"]
    assert sections[1] == "Summary" and sections[2].startswith("Session 1")
    files, ran = _tables(tokens)[:2]
    assert [row[1:] for row in files] == edits
    assert [row[1].split(" ", 1)[1] for row in ran] == commands


def test_ci_summary_of_a_hostile_stream_holds_only_our_html(tmp_path: Path) -> None:
    """Tags, links and control sequences in every field of the stream: the summary's
    only HTML is its own ``<details>``/``<summary>``, it makes no link, holds no escape."""
    attacks = "<script>alert(1)</script> <img src=x onerror=alert(2)> [x](https://evil.example)"
    text = _summary(tmp_path, hostile_stream(attacks + ALL_TEXT))
    assert "\x1b" not in text
    tokens = _parse(text)
    html = [t.content for t in tokens if t.type == "html_block"]
    html += [c.content for t in tokens for c in t.children or [] if c.type == "html_inline"]
    allowed = re.compile(r"^(<details><summary>[^<>]*</summary>|</details>)\s*$")
    assert html and all(allowed.match(piece) for piece in html), html
    assert not any(c.type == "link_open" for t in tokens for c in t.children or [])


def test_summary_goes_to_stdout_and_only_with_export_markdown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--export-markdown - --summary`` prints the summary (for ``>> $GITHUB_STEP_SUMMARY``);
    ``--summary`` alone is refused in one line, exit 2."""
    path = str(RECORDINGS / "denied-tools.ndjson")
    assert main([path, "--export-markdown", "-", "--summary"]) == 0
    out = capsys.readouterr()
    assert out.out.split("\n")[2] == "#### Summary" and "wrote" not in out.err
    assert main([path, "--summary"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--summary goes with --export-markdown" in err
