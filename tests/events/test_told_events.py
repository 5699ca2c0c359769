"""The events of a call's start and end (:mod:`streamview.core.told_events`): the shared
kind read from the table says what :func:`~streamview.core.normalized.shared_kind`
says, and the one empty dict a told call's arguments become is never filled."""

from __future__ import annotations

from pathlib import Path

import pytest

import streamview.core.normalized as n
import streamview.core.told_events as tell
from streamview.core.model import ToolCall
from streamview.core.shared_kinds import SHARED_KINDS
from streamview.fronts.events_api import event_batches

from .streams import every_stream, name

NAMES = [*SHARED_KINDS, "mcp__server__tool", "", "Read", "other"]


def _told_kinds() -> list[str]:
    out: list[n.NormalizedEvent] = []
    for tool in NAMES:
        call = ToolCall(0, "c1", tool, {"path": "/w/a"}, "/w/a", status="succeeded")
        tell.start(0, call, 1, None, out)
        tell.end(0, call, 2, None, out)
    return [event.kind for event in out]  # type: ignore[union-attr]


def test_a_told_kind_is_what_shared_kind_says() -> None:
    """Every shared name, an MCP tool's, an empty one, a capitalised one, ``other``."""
    expected = [n.shared_kind(tool) for tool in NAMES for _ in range(2)]
    assert _told_kinds() == expected


@pytest.mark.parametrize("path", every_stream(), ids=name)
def test_the_let_go_arguments_stay_empty(path: Path) -> None:
    for _ in event_batches([path.read_bytes()]):
        pass
    assert tell.LET_GO == {}
