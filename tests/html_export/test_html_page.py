"""--export-html's page read back with an HTML parser: only our tags, whatever the stream
holds (hostile text in every field, every agent's fixtures), the detail islands intact."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from streamview.core.html_export import json_island
from streamview.core.html_export.markdown import render_markdown
from tests.hostile.corpus import ALL_TEXT
from tests.hostile.streams import hostile_stream

from .page_check import check_page, export, read_page

REPO = Path(__file__).resolve().parents[2]
DIALECTS = REPO / "tests" / "fixtures" / "dialects"
HTML_ATTACKS = (
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(2)>",
    "</script><script>alert(3)</script>",
    "<!-- <script> --> <![CDATA[ ]]>",
    '<a href="javascript:alert(4)">a</a> <iframe src="https://evil.example/f"></iframe>',
    "[click](javascript:alert(5)) [data](data:text/html,<b>x</b>) [v](vbscript:x)",
    "![pixel](https://evil.example/PWNED.png) ![local](file:///etc/passwd)",
    '<svg onload=alert(6)> <style>*{display:none}</style> <base href="https://evil.example/">',
    "\u2028\u2029 &amp; &lt;b&gt; \" ' `",
)
PAYLOAD = " ".join(HTML_ATTACKS) + ALL_TEXT


def test_hostile_stream_renders_no_tag_of_its_own() -> None:
    state, html = export(hostile_stream(PAYLOAD), agent="cursor")
    page = check_page(html)
    shown = "".join(page.text)
    # Shown as text, not dropped: the reader sees what the agent wrote.
    assert "<script>alert(1)</script>" in shown
    assert "<img src=x onerror=alert(2)>" in shown
    assert "\x1b" not in html and "\x07" not in html
    session = state.sessions[0]
    calls = [attrs for tag, attrs in page.tags if tag == "details" and "call" in str(attrs)]
    assert len(calls) == len(session.tool_calls) > 0
    islands = page.details
    assert len(islands) == len(calls)
    details = "\n".join(str(island) for island in islands)
    # The islands decode back to the text, "</script>" and all.
    assert "</script><script>alert(3)</script>" in details


def test_markdown_links_images_and_raw_html() -> None:
    rendered = render_markdown(
        "[ok](https://example.com/a) [bad](javascript:alert(1)) ![img](https://x.example/p.png)"
        " <b>raw</b> [m](mailto:a@b.c)"
    )
    page = read_page(rendered)
    links = [attrs for tag, attrs in page.tags if tag == "a"]
    assert [a["href"] for a in links] == [
        "https://example.com/a",
        "https://x.example/p.png",
        "mailto:a@b.c",
    ]
    assert all(a["rel"] == "noopener noreferrer" for a in links)
    assert {tag for tag, _ in page.tags} == {"p", "a"}
    assert "<b>raw</b>" in "".join(page.text)
    assert "image: img" in "".join(page.text)


def test_json_island_escapes_what_could_end_the_script() -> None:
    value = {"t": "</script><!--", "v": "a & b \u2028 \u2029 >"}
    island = json_island(value)
    for char in "<>&\u2028\u2029":
        assert char not in island
    import json

    assert json.loads(island) == value


FIXTURES = sorted(path for path in DIALECTS.glob("*/*") if path.suffix in (".jsonl", ".ndjson"))


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_agent_fixture_exports(path: Path) -> None:
    state, html = export(path.read_bytes(), agent=path.parent.name)
    page = check_page(html)
    calls = sum(len(session.tool_calls) for session in state.sessions)
    assert len(page.details) == calls
    for island in page.details:
        assert isinstance(island, list)
        assert all({"t", "k", "v"} <= set(section) for section in island)


def test_cli_writes_the_page(tmp_path: Path) -> None:
    out = tmp_path / "run.html"
    source = REPO / "recordings" / "success-multi-tool.ndjson"
    done = subprocess.run(
        [sys.executable, "-m", "streamview", str(source), "--export-html", str(out)],
        capture_output=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}".encode() in done.stderr
    page = check_page(out.read_text(encoding="utf-8"))
    assert len(page.details) == 10
    refused = subprocess.run(
        [sys.executable, "-m", "streamview", str(source), "--export-html", str(out), "--json"],
        capture_output=True,
        timeout=60,
        cwd=REPO,
    )
    assert refused.returncode != 0
    assert b"Traceback" not in refused.stderr
    assert b"read the whole input" in refused.stderr


def test_subagent_calls_nest_under_their_task_and_the_outcome_has_usage_and_cost() -> None:
    state, html = export((DIALECTS / "claude" / "subagent.jsonl").read_bytes(), agent="claude")
    check_page(html)
    task, grep = state.sessions[0].tool_calls
    assert grep.parent_call_id == task.call_id
    # The task's call, then its subagent's grep inside the nested list.
    task_at = html.index('<span class="kind">task</span>')
    sub_at = html.index('<div class="sub">')
    grep_at = html.index('<span class="kind">grep</span>')
    assert task_at < sub_at < grep_at
    assert "<dt>Cost</dt><dd>$0.0421</dd>" in html
    assert "<dt>Usage</dt><dd>input_tokens 16 · output_tokens 95</dd>" in html
    assert html.count('<details class="block thinking">') == 1
