"""--export-html's page in a real browser (Debian's Chromium driven by Playwright), loaded
from ``file://`` with the network refused: a call opens to its coloured diff, the search
box filters, light and dark follow the reader, a hostile run runs nothing and loads
nothing, a run of 10,000 calls loads and opens a call, and one run per agent begins
with its summary and opens its calls."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

from streamview.core.run_summary import run_summary
from tests.agent_runs import demo_recordings, one_run_per_agent
from tests.hostile.streams import hostile_stream, many_calls_stream

from .page_check import export
from .test_html_page import PAYLOAD

REPO = Path(__file__).resolve().parents[2]
DEADLINE_MS = 60_000
"""How long a wait may take on a busy machine before the test gives up (not a timing assert)."""
EDIT = "details.call:has(.kind:text-is('edit'))"


def _screenshot_script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_html_screenshot", REPO / "screenshots" / "make_html_screenshot.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _write(tmp_path: Path, data: bytes, agent: str | None = None) -> Path:
    path = tmp_path / "run.html"
    path.write_text(export(data, agent=agent)[1], encoding="utf-8")
    return path


def test_a_call_opens_to_its_detail_and_search_filters(offline: Any, tmp_path: Path) -> None:
    path = tmp_path / "run.html"
    _screenshot_script().export(Path("recordings") / "success-multi-tool.ndjson", path)
    seen = offline(path)
    page = seen.page
    assert page.locator("h1").inner_text() == "recordings/success-multi-tool.ndjson"
    calls = page.locator("details.call")
    assert calls.count() == 10
    edit = page.locator(EDIT).first
    assert edit.locator(".detail").inner_html() == ""  # not laid out until opened
    edit.locator("summary").click()
    added = edit.locator("pre.diff span.add").first
    added.wait_for(timeout=DEADLINE_MS)
    assert added.inner_text().startswith("+    def delay(self, attempt: int, rng")
    assert edit.locator(".stitle").all_inner_texts()[:2] == ["FILE", "DIFF"]
    # A call's detail is searched too, before it is ever opened: the shell's output.
    page.fill("#find", "no:randomly")
    page.wait_for_function(
        "() => document.getElementById('found').textContent.startsWith('1 of')",
        timeout=DEADLINE_MS,
    )
    visible = page.locator("details.call:visible")
    assert visible.count() == 1
    assert visible.locator(".kind").inner_text() == "shell"
    page.fill("#find", "")
    page.wait_for_function(
        "() => document.getElementById('found').textContent === ''", timeout=DEADLINE_MS
    )
    assert page.locator("details.call:visible").count() == 10
    assert page.locator(".outcome").inner_text().split()[:2] == ["Outcome", "success"]
    assert seen.requests == [] and seen.dialogs == [] and seen.errors == []


def test_light_and_dark_follow_the_reader(offline: Any, tmp_path: Path) -> None:
    path = _write(tmp_path, (REPO / "recordings" / "denied-tools.ndjson").read_bytes())
    colour = "() => getComputedStyle(document.body).backgroundColor"
    light = offline(path, "light").page.evaluate(colour)
    dark = offline(path, "dark").page.evaluate(colour)
    assert light == "rgb(251, 251, 250)"
    assert dark == "rgb(13, 17, 23)"


def test_hostile_run_runs_nothing_and_loads_nothing(offline: Any, tmp_path: Path) -> None:
    path = _write(tmp_path, hostile_stream(PAYLOAD), agent="cursor")
    seen = offline(path)
    page = seen.page
    opened = page.evaluate(
        "() => { const calls = document.querySelectorAll('details.call');"
        " calls.forEach(c => { c.open = true; }); return calls.length; }"
    )
    assert opened >= 4
    page.wait_for_function(
        "() => [...document.querySelectorAll('details.call')].every(c => c.dataset.shown)",
        timeout=DEADLINE_MS,
    )
    for details in page.locator("details.thinking").all():
        details.evaluate("d => { d.open = true; }")
    page.fill("#find", "alert")
    page.wait_for_function(
        "() => document.getElementById('found').textContent !== ''", timeout=DEADLINE_MS
    )
    foreign = page.evaluate(
        "() => document.querySelectorAll("
        "'img, iframe, svg, object, embed, base, link, form, style:not(head style)').length"
    )
    assert foreign == 0
    scripts = page.evaluate("() => document.scripts.length")
    assert scripts == 2  # the details' JSON island (fewer than 64 calls) and the page's script
    body = page.locator("main").inner_text()
    assert "<script>alert(1)</script>" in body  # shown as text
    assert "</script><script>alert(3)</script>" in body  # from an island, opened
    # Links only where the run printed one, and none that runs script.
    hrefs = page.evaluate("() => [...document.links].map(a => a.href)")
    assert all(href.startswith(("https://", "http://", "mailto:")) for href in hrefs), hrefs
    assert seen.dialogs == []
    assert seen.requests == []


def test_ten_thousand_calls_load_and_open(offline: Any, tmp_path: Path) -> None:
    path = _write(tmp_path, b"".join(many_calls_stream(10_000)), agent="cursor")
    seen = offline(path)
    page = seen.page
    assert page.locator("details.call").count() == 10_000
    last = page.locator("details.call").last
    last.locator("summary").click()
    last.locator(".detail .section").first.wait_for(timeout=DEADLINE_MS)
    assert "call_9999" in last.inner_text()
    page.fill("#find", "call_9998\n")
    page.wait_for_function(
        "() => document.getElementById('found').textContent.startsWith('1 of')",
        timeout=DEADLINE_MS,
    )
    assert seen.requests == [] and seen.errors == []


def test_the_readme_picture_is_made_by_the_script(chromium: Any, tmp_path: Path) -> None:
    script = _screenshot_script()
    page = tmp_path / "run.html"
    script.export(script.RECORDING, page)
    out = tmp_path / "shot.png"
    script.shoot(chromium, page, out)
    assert out.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (REPO / "screenshots" / "html-export.png").read_bytes().startswith(b"\x89PNG")


def test_each_agents_page_opens_its_calls_and_begins_with_the_summary(
    chromium: Any, tmp_path: Path
) -> None:
    """One run per agent (19 dialects) and each demo recording, in one offline tab: the
    page's first section is the summary with the run's headline, a call per tool call,
    and the first call opens to its detail; nothing is fetched, nothing fails."""
    context = chromium.new_context(viewport={"width": 1100, "height": 900}, offline=True)
    fetched: list[str] = []
    errors: list[str] = []

    def refuse(route: Any) -> None:
        if route.request.url.startswith("file://"):
            route.continue_()  # a page from disk
            return
        fetched.append(route.request.url)
        route.abort()

    context.route("**/*", refuse)
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    try:
        for agent, fixture in one_run_per_agent() + demo_recordings():
            state, html = export(fixture.read_bytes(), agent=agent)
            path = tmp_path / f"{agent}-{fixture.stem}.html"
            path.write_text(html, encoding="utf-8")
            page.goto(path.as_uri())
            first = page.locator("main > section").first
            assert first.get_attribute("class") == "summary", agent
            headline = first.locator(".headline").inner_text()
            assert headline == run_summary(state).headline(), agent
            calls = sum(len(session.tool_calls) for session in state.sessions)
            assert page.locator("details.call").count() == calls, agent
            call = page.locator("details.call").first
            call.locator("summary").first.click()
            call.locator(".detail .section").first.wait_for(timeout=DEADLINE_MS)
        assert fetched == [] and errors == []
    finally:
        context.close()
