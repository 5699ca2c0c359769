"""Every agent's run as a person sees it: the main screen, and each tool kind's detail.

One showcase stream per registered dialect (:data:`SHOWCASE`); a dialect added to the
registry without one fails :func:`test_every_dialect_has_a_showcase`. The detail
snapshots open each call the way a person does: Tab to the table, ↓ to the call,
Enter. Regenerate with ``--snapshot-update`` and look at the pictures first.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from streamview.core import dialects
from streamview.core.reader import fold

from .showcase import FIXTURES, Snap, detail_cases, snap_detail, snap_run

SHOWCASE: dict[str, Path] = {
    "cursor": FIXTURES / "cursor" / "read-and-answer.ndjson",
    "claude": FIXTURES / "claude" / "success-tools.jsonl",
    "codex": FIXTURES / "codex" / "success-tools.jsonl",
    "gemini": FIXTURES / "gemini" / "success-tools.jsonl",
}
"""The stream each agent's snapshots show (see each folder's SOURCES.md)."""


def test_every_dialect_has_a_showcase() -> None:
    from .test_dialect_snapshots_a import SHOWCASE_A
    from .test_dialect_snapshots_b import SHOWCASE_B

    everyone = {**SHOWCASE, **SHOWCASE_A, **SHOWCASE_B}
    streams = [d.name for d in dialects.DIALECTS if d.name not in dialects.SESSION_FILES]
    assert sorted(everyone) == sorted(streams)
    for agent, path in everyone.items():
        assert fold([path.read_bytes()], agent=agent).sessions, agent


def test_every_showcase_is_read_as_its_own_agent() -> None:
    """Detection, not ``--agent``: the header would name the wrong agent otherwise."""
    for agent, path in SHOWCASE.items():
        assert fold([path.read_bytes()]).sessions[-1].agent in (agent, None), agent


@pytest.mark.parametrize("agent", list(SHOWCASE))
def test_agent_run(snap_compare: Snap, agent: str) -> None:
    """Header naming the agent and model, the answer, the calls with statuses, the outcome."""
    assert snap_run(snap_compare, SHOWCASE[agent])


@pytest.mark.parametrize(("agent", "index"), detail_cases(SHOWCASE))
def test_agent_call_detail(snap_compare: Snap, agent: str, index: int) -> None:
    """One call of each kind, opened from the table with Tab, ↓ and Enter."""
    assert snap_detail(snap_compare, SHOWCASE[agent], index)
