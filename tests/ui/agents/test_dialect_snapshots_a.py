"""opencode, Copilot CLI, Goose and Cline runs as a person sees them: the main screen,
and each tool kind's detail.

The detail snapshots open each call the way a person does: Tab to the table, ↓ to the
call, Enter. Regenerate with ``--snapshot-update`` and look at the pictures first.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from streamview.core.reader import fold
from streamview.sources import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, settle_sections

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"

SHOWCASE_A: dict[str, Path] = {
    "opencode": FIXTURES / "opencode" / "success-tools.jsonl",
    "kilo": FIXTURES / "kilo" / "success-tools.jsonl",
    "copilot": FIXTURES / "copilot" / "success-tools.jsonl",
    "goose": FIXTURES / "goose" / "success-tools.jsonl",
    "cline": FIXTURES / "cline" / "success-tools.jsonl",
}
"""The stream each agent's snapshots show (see each folder's SOURCES.md). Kilo's is
opencode's stream: it has no pictures of its own."""
PICTURED = [agent for agent in SHOWCASE_A if agent != "kilo"]

Snap = Callable[..., bool]


def first_call_of_each_kind(path: Path) -> list[tuple[str, int]]:
    """``(kind, index in the table)`` of the first call of each kind in ``path``."""
    session = fold([path.read_bytes()]).sessions[-1]
    seen: dict[str, int] = {}
    for call in session.tool_calls:
        seen.setdefault(call.kind, call.index)
    return sorted(seen.items(), key=lambda item: item[1])


def detail_cases() -> list[Any]:
    return [
        pytest.param(agent, index, id=f"{agent}-{kind}")
        for agent in PICTURED
        for kind, index in first_call_of_each_kind(SHOWCASE_A[agent])
    ]


def test_every_showcase_is_read_as_its_own_agent() -> None:
    """Detection, not ``--agent``: the header would name the wrong agent otherwise."""
    for agent in PICTURED:
        assert fold([SHOWCASE_A[agent].read_bytes()]).sessions[-1].agent == agent, agent


@pytest.mark.parametrize("agent", PICTURED)
def test_agent_run(snap_compare: Snap, agent: str) -> None:
    """Header naming the agent and model, the answer, the calls with statuses, the outcome."""
    app = StreamviewApp(FileSource(SHOWCASE_A[agent]), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 34), run_before=run_before)


@pytest.mark.parametrize(("agent", "index"), detail_cases())
def test_agent_call_detail(snap_compare: Snap, agent: str, index: int) -> None:
    """One call of each kind, opened from the table with Tab, ↓ and Enter."""
    app = StreamviewApp(FileSource(SHOWCASE_A[agent]), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("tab", "home", *["down"] * index, "enter")
        await settle_sections(app, pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(110, 32), run_before=run_before)
