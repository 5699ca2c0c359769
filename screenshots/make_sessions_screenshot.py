"""Build ``screenshots/sessions.png``: ``streamview sessions`` with runs going on.

Run from the repository root::

    python screenshots/make_sessions_screenshot.py

A home directory is made in a temporary folder: Claude Code, Codex and Gemini CLI
sessions in each agent's own place, some going on (a command running, a question for
the person, a turn just finished, a model thinking, one gone quiet) and some older.
The list is driven headless (``App.run_test``) as ``streamview sessions`` shows it,
its screen saved as SVG and rendered to PNG with cairosvg. The durations shown are
the seconds between the files' records and the picture, so they are the same each
time give or take a second.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "screenshots" / "sessions.png"
SIZE = (140, 15)

sys.path.insert(0, str(REPO))
from streamview.runs.session_discovery import discover  # noqa: E402
from streamview.ui.sessions.list_app import SessionsApp  # noqa: E402
from tests.sessions.live_lines import (  # noqa: E402
    Claude,
    codex,
    codex_call,
    codex_done,
    codex_output,
    codex_start,
    gemini_header,
    gemini_prompt,
    gemini_reply,
    lines,
)


def write(path: Path, records: list[dict[str, Any]], mtime: float) -> None:
    """A session file, last changed at ``mtime``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(lines(*records))
    os.utime(path, (mtime, mtime))


def claude_session(home: Path, project: str, name: str) -> tuple[Claude, Path]:
    """A Claude Code session's writer and its file, for a project under ``~/work``."""
    claude = Claude(cwd=f"{home}/work/{project}")
    path = home / ".claude" / "projects" / f"-home-me-work-{project}" / f"{name}.jsonl"
    return claude, path


def build(home: Path, now: float) -> None:
    """The sessions of the picture, live and older ones."""
    claude, path = claude_session(home, "shop", "0b6c")
    write(
        path,
        [
            claude.prompt("Fix the cart total: it rounds each line, not the sum", now - 60),
            claude.call("Read", {"file_path": f"{home}/work/shop/src/cart.ts"}, now - 50),
            claude.call("Bash", {"command": "npm test -- cart"}, now - 12),
        ],
        now - 12,
    )
    claude, path = claude_session(home, "site", "4d2e")
    write(
        path,
        [
            claude.prompt("Move the blog from Jekyll to Astro", now - 300),
            claude.call("Glob", {"pattern": "_posts/*.md"}, now - 9),
        ],
        now - 9,
    )
    claude, path = claude_session(home, "infra", "9a7c")
    write(path, [claude.prompt("Why does the nightly backup job time out?", now - 4)], now - 4)
    rollout = home / ".codex" / "sessions" / "2026" / "11" / "28"
    write(
        rollout / "rollout-2026-11-28T09-12-00-019b.jsonl",
        [
            *codex_start(now - 200, "Add a /health endpoint with a test", f"{home}/work/api"),
            codex_call("call_1", ["cargo", "test", "health"], now - 41),
        ],
        now - 41 + 0.5,
    )
    write(
        rollout / "rollout-2026-11-28T08-40-00-01c2.jsonl",
        [
            *codex_start(now - 900, "Bump the MSRV to 1.85 and fix the lints", f"{home}/work/cli"),
            codex_call("call_1", ["cargo", "clippy"], now - 80),
            codex_output("call_1", now - 75),
            codex("event_msg", {"type": "agent_message", "message": "Clippy is clean."}, now - 75),
        ],
        now - 75,
    )
    chats = home / ".gemini" / "tmp" / "ab12" / "chats"
    write(
        chats / "session-2026-11-28T09-00-5b8f.jsonl",
        [
            gemini_header(now - 120),
            gemini_prompt("Explain how the docs site is built and deployed", now - 120),
        ],
        now - 2,
    )
    older = [
        ("shop", "71aa", "Add a coupon field to the checkout form", 3 * 3600),
        ("api", "5c03", "Rate-limit the login route", 26 * 3600),
        ("site", "e9b1", "Make the dark theme follow the system", 4 * 86400),
    ]
    for project, name, prompt, age in older:
        claude, path = claude_session(home, project, name)
        records = [claude.prompt(prompt, now - age), claude.turn_end(now - age + 90)]
        write(path, records, now - age + 90)
    write(
        rollout / "rollout-2026-11-27T16-05-00-00aa.jsonl",
        [
            *codex_start(now - 70000, "Split the settings module in two", f"{home}/work/cli"),
            codex_done(now - 69000),
        ],
        now - 69000,
    )


def news(home: Path, now: float) -> None:
    """While the list is open: the site's run asks the person, the docs' run answers."""
    claude, path = claude_session(home, "site", "4d2e")
    claude.count = 2  # after the prompt and the glob written by :func:`build`
    claude.last = "u2"
    ask = claude.call("AskUserQuestion", {"questions": [{"question": "Keep URLs?"}]}, now)
    with path.open("ab") as file:
        file.write(lines(ask))
    chats = home / ".gemini" / "tmp" / "ab12" / "chats"
    with (chats / "session-2026-11-28T09-00-5b8f.jsonl").open("ab") as file:
        file.write(lines(gemini_reply("mkdocs builds it in CI; Pages serves it.", now)))


async def shoot(home: Path) -> Path:
    """The list on ``home``: every live run says what it is doing, then two of them
    need the person (marked) while it is open."""
    env = {"HOME": str(home)}
    app = SessionsApp(lambda: discover(env=env, live_seconds=120), refresh_seconds=None, bell=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(200):
            await pilot.pause(0.05)
            live = [entry for entry in app.shown if entry.live]
            if len(live) == 6 and all(app.tracker.state(entry.path) for entry in live):
                break
        news(home, time.time())
        for _ in range(200):
            await pilot.pause(0.05)
            if len(app.attention) == 2:
                break
        await pilot.pause(0.1)
        svg = Path(app.save_screenshot(filename="sessions.svg", path=str(home)))
    return svg


def main() -> int:
    """Build the home, photograph the list, write the PNG."""
    import cairosvg

    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder) / "home"
        os.environ["HOME"] = str(home)  # projects shown under ~, as on a real machine
        build(home, time.time())
        svg = asyncio.run(shoot(home))
        cairosvg.svg2png(url=str(svg), write_to=str(OUT))
    print(f"wrote {OUT.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
