"""Qwen Code, Amp, Droid, Kimi CLI and pi as a person sees them: each tool kind's detail.

One showcase stream per dialect (:data:`SHOWCASE_B`, read by
``test_agent_snapshots.test_every_dialect_has_a_showcase`` too). The detail snapshots
open each call the way a person does: Tab to the table, ↓ to the call, Enter.
Regenerate with ``--snapshot-update`` and look at the pictures first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.core.reader import fold

from .showcase import FIXTURES, Snap, detail_cases, snap_detail, snap_run

SHOWCASE_B: dict[str, Path] = {
    agent: FIXTURES / agent / "success-tools.jsonl"
    for agent in ("qwen", "amp", "droid", "kimi", "pi")
}
"""The stream each agent's snapshots show (see each folder's SOURCES.md)."""


def test_every_showcase_is_read_as_its_own_agent() -> None:
    """Detection, not ``--agent``: the header would name the wrong agent otherwise."""
    for agent, path in SHOWCASE_B.items():
        assert fold([path.read_bytes()]).sessions[-1].agent == agent


@pytest.mark.parametrize("agent", list(SHOWCASE_B))
def test_agent_run(snap_compare: Snap, agent: str) -> None:
    """Header naming the agent and model, the answer, the calls with statuses, the outcome."""
    assert snap_run(snap_compare, SHOWCASE_B[agent])


@pytest.mark.parametrize(("agent", "index"), detail_cases(SHOWCASE_B))
def test_agent_call_detail(snap_compare: Snap, agent: str, index: int) -> None:
    """One call of each kind, opened from the table with Tab, ↓ and Enter."""
    assert snap_detail(snap_compare, SHOWCASE_B[agent], index)
