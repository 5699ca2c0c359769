"""What the fold keeps per tool call stays small (issue 27.5: a 2 GB session holds
half a million calls, so every byte kept per call is half a megabyte)."""

from __future__ import annotations

import tracemalloc

from streamview.core.reader import fold
from streamview.core.state import TOOL, StreamState

from .helpers import completed, init, started, stream

CALLS = 2000


def test_a_tool_call_costs_the_fold_few_bytes() -> None:
    """A call's records fold into its call and a tool block: no list per block (the
    blocks share one empty ``parts``, never grown) and no garbage collector header
    per block or call; 2,000 calls measured with tracemalloc."""
    records = [init()]
    for number in range(CALLS):
        call_id = f"call-{number}"
        records.append(started(call_id, "shell", {"command": "ls"}))
        records.append(completed(call_id, "shell", result={"success": {"exitCode": 0}}))
    data = stream(*records)
    tracemalloc.start()
    try:
        state = fold([data], StreamState(track_changes=False, compact=True))
        kept, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    blocks = [block for block in state.sessions[0].blocks if block.kind == TOOL]
    assert len(blocks) == CALLS
    assert len({id(block.parts) for block in blocks}) == 1  # one list, shared
    assert blocks[0].parts == []
    # 556 bytes a call now (the call, its block, its ids, numbers and summary); 642
    # before, with a list per block and two collector headers.
    assert kept / CALLS < 600
