"""Build ``screenshots/phoenix-trace.png``: a run's trace in Arize Phoenix's UI.

Run from the repository root, with Phoenix installed (``.ci/run`` makes
``.venv-phoenix``; or ``STREAMVIEW_PHOENIX=path/to/phoenix``), Playwright and Debian's
``/usr/bin/chromium``::

    python screenshots/make_phoenix_screenshot.py

A Phoenix of its own starts on a free port with its data in a temporary folder; the
bundled ``recordings/success-multi-tool.ndjson`` is sent with ``streamview export
--otlp --otlp-content``, its trace opened in headless Chromium and photographed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RECORDING = REPO / "recordings" / "success-multi-tool.ndjson"
OUT = REPO / "screenshots" / "phoenix-trace.png"
PROJECT = "streamview"

sys.path.insert(0, str(REPO))
from tests.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.otlp.phoenix_server import phoenix_program, running_phoenix  # noqa: E402


def main() -> int:
    """Start Phoenix, send the run, photograph its trace."""
    from playwright.sync_api import sync_playwright

    program = phoenix_program()
    if program is None:
        sys.stderr.write("Phoenix is not installed (.ci/run makes .venv-phoenix)\n")
        return 2
    with tempfile.TemporaryDirectory() as folder, running_phoenix(program, Path(folder)) as phx:
        env = {**os.environ, "OTEL_EXPORTER_OTLP_ENDPOINT": phx.url}
        env["OTEL_RESOURCE_ATTRIBUTES"] = f"openinference.project.name={PROJECT}"
        command = [sys.executable, "-m", "streamview", "export", "--otlp", "--otlp-content"]
        subprocess.run([*command, str(RECORDING)], check=True, cwd=REPO, env=env)
        spans = phx.wait_for_spans(PROJECT, 11)
        trace = next(s for s in spans if s["parent_id"] is None)["context"]["trace_id"]
        (project,) = [p for p in phx.get("/v1/projects")["data"] if p["name"] == PROJECT]
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
            )
            page = browser.new_page(viewport={"width": 1400, "height": 800})
            page.goto(f"{phx.url}/projects/{project['id']}/traces/{trace}")
            page.get_by_text("execute_tool updateTodos").last.wait_for(timeout=60_000)
            page.get_by_text("Reading `tests/test_backoff.py`").first.wait_for(timeout=60_000)
            page.wait_for_load_state("networkidle")
            page.screenshot(path=str(OUT))
            browser.close()
    sys.stderr.write(f"wrote {OUT}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
