"""Every dialect's fixture, with escapes and markup in every string and arguments 900
deep, through ``--print`` and ``--events``: nothing reaches the output live.

The pseudo-terminal walk (``tests/e2e/test_hostile_pty.py``) takes the headless
streams through every screen; the viewer does not ask which agent a run came from, so
the session-file dialects are checked here, where their own parsing is what differs.
This covers every dialect of the registry, so a new one is checked without a line here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.hostile_agents import AGENTS, agent_stream, marker, payload

from .helpers import assert_no_traceback, run_cli, unsafe_in

LIVE = (b"\x1b", b"\x07", b"\x00", b"\xc2\x9b", b"\xc2\x9d", b"\xc2\x90", b"\xc2\x9c")
"""ESC, BEL, NUL and the C1 controls (CSI, OSC, DCS, ST) as UTF-8."""


@pytest.mark.parametrize("agent", AGENTS)
def test_a_hostile_stream_of_every_dialect_prints_inert(agent: str, tmp_path: Path) -> None:
    stream = tmp_path / f"{agent}.jsonl"
    stream.write_bytes(agent_stream(agent, payload(agent, tmp_path), deep=True, huge=False))
    for front in ("--print", "--events"):
        done = run_cli(front, "--agent", agent, str(stream))
        assert_no_traceback(done.stderr)
        assert done.returncode in (0, 1), done.stderr.decode(errors="replace")[-500:]
        text = done.stdout.decode("utf-8")  # strict: no lone surrogate either
        assert unsafe_in(text) == [], (front, unsafe_in(text)[:3])
        for byte in LIVE:
            assert byte not in done.stdout, (front, byte)
        # Shown, not dropped: the payload's marker is there, made visible.
        assert marker(agent) in text, front
