"""What every agent's snapshot tests share: the fixtures, one call of each kind, and how
a person opens the run and a call (Tab to the table, ↓ to the call, Enter)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from streamview.core.reader import fold
from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp

from ..conftest import FakeClock, settle, settle_sections

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"

Snap = Callable[..., bool]


def first_call_of_each_kind(path: Path) -> list[tuple[str, int]]:
    """``(kind, index in the table)`` of the first call of each kind in ``path``."""
    session = fold([path.read_bytes()]).sessions[-1]
    seen: dict[str, int] = {}
    for call in session.tool_calls:
        seen.setdefault(call.kind, call.index)
    return sorted(seen.items(), key=lambda item: item[1])


def detail_cases(showcase: dict[str, Path], agents: Iterable[str] | None = None) -> list[Any]:
    """One ``(agent, index)`` case per kind of call in each agent's showcase."""
    return [
        pytest.param(agent, index, id=f"{agent}-{kind}")
        for agent in (showcase if agents is None else agents)
        for kind, index in first_call_of_each_kind(showcase[agent])
    ]


def snap_run(snap_compare: Snap, path: Path) -> bool:
    """The main screen of the run in ``path``, once it has settled."""
    app = StreamviewApp(FileSource(path), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.pause()

    return snap_compare(app, terminal_size=(120, 34), run_before=run_before)


def snap_detail(snap_compare: Snap, path: Path, index: int) -> bool:
    """Call ``index`` of the run in ``path``, opened as a person does."""
    app = StreamviewApp(FileSource(path), clock=FakeClock())

    async def run_before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("tab", "home", *["down"] * index, "enter")
        await settle_sections(app, pilot)
        await pilot.pause()

    return snap_compare(app, terminal_size=(110, 32), run_before=run_before)
