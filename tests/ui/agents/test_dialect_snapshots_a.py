"""opencode, Copilot CLI, Goose and Cline runs as a person sees them: the main screen,
and each tool kind's detail.

The detail snapshots open each call the way a person does: Tab to the table, ↓ to the
call, Enter. Regenerate with ``--snapshot-update`` and look at the pictures first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.core.reader import fold

from .showcase import FIXTURES, Snap, detail_cases, snap_detail, snap_run

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


def test_every_showcase_is_read_as_its_own_agent() -> None:
    """Detection, not ``--agent``: the header would name the wrong agent otherwise."""
    for agent in PICTURED:
        assert fold([SHOWCASE_A[agent].read_bytes()]).sessions[-1].agent == agent, agent


@pytest.mark.parametrize("agent", PICTURED)
def test_agent_run(snap_compare: Snap, agent: str) -> None:
    """Header naming the agent and model, the answer, the calls with statuses, the outcome."""
    assert snap_run(snap_compare, SHOWCASE_A[agent])


@pytest.mark.parametrize(("agent", "index"), detail_cases(SHOWCASE_A, PICTURED))
def test_agent_call_detail(snap_compare: Snap, agent: str, index: int) -> None:
    """One call of each kind, opened from the table with Tab, ↓ and Enter."""
    assert snap_detail(snap_compare, SHOWCASE_A[agent], index)
