"""Qwen Code, Amp, Droid, Kimi CLI and pi as a person sees them: each tool kind's detail.

One showcase stream per dialect (:data:`SHOWCASE_B`, read by
``test_agent_snapshots.test_every_dialect_has_a_showcase`` too). The detail snapshots
open each call the way a person does: Tab to the table, ↓ to the call, Enter.
Regenerate with ``--snapshot-update`` and look at the pictures first.
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

SHOWCASE_B: dict[str, Path] = {
    agent: FIXTURES / agent / "success-tools.jsonl"
    for agent in ("qwen", "amp", "droid", "kimi", "pi")
}
"""The stream each agent's snapshots show (see each folder's SOURCES.md)."""

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
        for agent, path in SHOWCASE_B.items()
        for kind, index in first_call_of_each_kind(path)
    ]


def test_every_showcase_is_read_as_its_own_agent() -> None:
    """Detection, not ``--agent``: the header would name the wrong agent otherwise."""
    for agent, path in SHOWCASE_B.items():
        assert fold([path.read_bytes()]).sessions[-1].agent == agent


@pytest.mark.parametrize("agent", list(SHOWCASE_B))
def test_agent_run(snap_compare: Snap, agent: str) -> None:
    """Header naming the agent and model, the answer, the calls with statuses, the outcome."""
    app = StreamviewApp(FileSource(SHOWCASE_B[agent]), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 34), run_before=run_before)


@pytest.mark.parametrize(("agent", "index"), detail_cases())
def test_agent_call_detail(snap_compare: Snap, agent: str, index: int) -> None:
    """One call of each kind, opened from the table with Tab, ↓ and Enter."""
    app = StreamviewApp(FileSource(SHOWCASE_B[agent]), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("tab", "home", *["down"] * index, "enter")
        await settle_sections(app, pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(110, 32), run_before=run_before)
