"""Exports that keep what matters: each call's arguments and result (diffs as diff
blocks, output as text blocks, capped with a note), the agent's headings under the
session's; x asks where to save, and in a browser hands the files over instead."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import orjson
import pytest

from streamview.core import export_calls
from streamview.core.export_calls import demote_headings, fenced
from streamview.core.linestore import LineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.export_dialog import ExportDialog
from streamview.ui.playback.feed import PlaybackFeed
from tests.html_export.page_check import check_page

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures" / "dialects"


def exported(path: Path) -> str:
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    for event in [*reader.feed(path.read_bytes()), *reader.finish()]:
        state.apply(event)
    state.finish()
    return to_markdown(state, title=path.name, store=store)


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        ("claude", "success-tools.jsonl"),
        ("gemini", "success-tools.jsonl"),
        ("codex", "success-tools.jsonl"),
        ("cursor", "read-and-answer.ndjson"),
    ],
)
def test_every_agents_calls_come_with_their_arguments_and_results(agent: str, name: str) -> None:
    text = exported(FIXTURES / agent / name)
    assert "<summary>Arguments</summary>" in text
    assert "<summary>Result" in text


def test_an_edit_is_a_diff_block_and_shell_output_a_text_block() -> None:
    text = exported(FIXTURES / "claude" / "success-tools.jsonl")
    # The headers are relative to the session's cwd (/work/app), as git writes them.
    assert "```diff\n--- a/src/parse.py\n+++ b/src/parse.py\n" in text
    assert "-        return None\n+        return []" in text
    assert "```text\n" in text and "FAILED tests/test_parse.py::test_empty" in text


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=check, timeout=30
    )


def diff_blocks(markdown: str) -> list[str]:
    """The ```diff blocks of an export, each as a patch file's text."""
    blocks, current = [], None
    for line in markdown.split("\n"):
        if current is None and line == "```diff":
            current = []
        elif current is not None and line == "```":
            blocks.append("\n".join(current) + "\n")
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def test_an_exported_diff_applies_in_a_checkout_of_the_project(tmp_path: Path) -> None:
    """The demo recording was made in /home/dev/src/tidepool; a checkout of the project
    at its state before the run (the files as the edits found them) lives elsewhere
    here, and `git apply --check` takes each exported diff there."""
    recording = REPO / "recordings" / "success-multi-tool.ndjson"
    repo = tmp_path / "tidepool"
    repo.mkdir()
    befores: dict[str, str] = {}
    for line in recording.read_bytes().splitlines():
        record = orjson.loads(line)
        if record.get("type") != "tool_call" or record.get("subtype") != "completed":
            continue
        for value in record["tool_call"].values():
            result = value.get("result") if isinstance(value, dict) else None
            success = result.get("success") if isinstance(result, dict) else None
            if not isinstance(success, dict):
                continue
            if "beforeFullFileContent" in success:
                befores.setdefault(success["path"], success["beforeFullFileContent"])
    assert len(befores) == 2
    for path, text in befores.items():
        local = repo / os.path.relpath(path, "/home/dev/src/tidepool")
        local.parent.mkdir(parents=True, exist_ok=True)
        local.write_text(text)
    git(repo, "init", "-q")
    out = tmp_path / "run.md"
    done = subprocess.run(
        [sys.executable, "-m", "streamview", "--export-markdown", str(out), str(recording)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    blocks = diff_blocks(out.read_text())
    assert len(blocks) == 2
    assert blocks[0].startswith("--- a/src/tidepool/backoff.py\n+++ b/src/tidepool/backoff.py\n")
    for number, block in enumerate(blocks):
        patch = tmp_path / f"{number}.diff"
        patch.write_text(block)
        check = git(repo, "apply", "--check", str(patch), check=False)
        assert check.returncode == 0, check.stderr
    # The headers as the agent wrote them (a//home/dev/...) do not apply here.
    raw = blocks[0].replace("a/src/", "a//home/dev/src/tidepool/src/", 1)
    raw = raw.replace("b/src/", "b//home/dev/src/tidepool/src/", 1)
    (tmp_path / "raw.diff").write_text(raw)
    assert git(repo, "apply", "--check", str(tmp_path / "raw.diff"), check=False).returncode != 0


def test_long_blocks_are_cut_with_a_note() -> None:
    lines = fenced("\n".join(f"line {n}" for n in range(export_calls.BLOCK_LINES + 5)))
    assert lines[-1] == "*… 5 more lines not exported here (the viewer's details show all)*"
    assert lines[-2] == "```" and len(lines) == export_calls.BLOCK_LINES + 3
    assert fenced("a\n```\nb")[0] == "````"  # a fence the text cannot close


def test_the_agents_headings_go_under_the_sessions() -> None:
    text = "# Plan\n\n```\n# not a heading\n```\n## Steps\n###### deep"
    assert demote_headings(text, 3) == (
        "#### Plan\n\n```\n# not a heading\n```\n##### Steps\n###### deep"
    )


async def test_x_asks_where_and_escape_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    source = FileSource(FIXTURES / "claude" / "success-tools.jsonl")
    app = StreamviewApp(source, feed=PlaybackFeed(source))
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.state.ended:
            await pilot.pause(0.05)
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ExportDialog)
        assert app.screen.default.parent == tmp_path
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)
        await pilot.press("x")
        await pilot.pause()
        field = app.screen.query_one("#export-path")
        field.value = str(tmp_path / "mine.md")  # type: ignore[attr-defined]
        await pilot.press("enter")
        for _ in range(100):
            if (tmp_path / "mine.svg").exists():
                break
            await pilot.pause(0.05)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.html", "mine.md", "mine.svg"]
    assert "<summary>Arguments</summary>" in (tmp_path / "mine.md").read_text()


async def test_in_a_browser_x_hands_the_files_to_it() -> None:
    source = FileSource(FIXTURES / "claude" / "success-tools.jsonl")
    app = StreamviewApp(source, feed=PlaybackFeed(source))
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.state.ended:
            await pilot.pause(0.05)
        with (
            patch.object(type(app), "is_web", new=True),
            patch.object(app, "deliver_text") as text,
            patch.object(app, "deliver_screenshot") as screenshot,
        ):
            await pilot.press("x")
            await pilot.pause()
        assert not isinstance(app.screen, ExportDialog)
        (markdown, page) = text.call_args_list
        assert "<summary>Arguments</summary>" in markdown.args[0].getvalue()
        assert markdown.kwargs["save_filename"].endswith(".md")
        assert page.kwargs["save_filename"].endswith(".html")
        assert len(check_page(page.args[0].getvalue()).details) == 8
        assert screenshot.call_args[0][0].endswith(".svg")
