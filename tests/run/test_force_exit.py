"""A viewer whose shutdown hangs after a signal still ends (issue 20: never left
running). Textual's shutdown was seen blocking for ever on a terminal that had gone
(its writer thread dead, ``WriterThread.stop`` waiting on a full queue): those viewers
outlived their tmux. Here an app that never leaves gets a real SIGTERM; the process
must run its last-resort actions and end with 143 within the force delay."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

STUCK_VIEWER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from streamview.sources import signals
    from streamview.ui.frame import signals as ui_signals

    ui_signals.FORCE_EXIT_SECONDS = 1.0
    marker = Path(sys.argv[1])
    signals.last_resort.append(lambda: marker.write_text("stopped the agent"))

    class StuckApp:
        def exit(self, code):  # asked to leave: it never does
            pass

    async def main():
        with ui_signals.leave_on_signal(StuckApp()):
            print("ready", flush=True)
            await asyncio.sleep(60)

    asyncio.run(main())
    """
)


def test_a_viewer_stuck_after_sigterm_ends_by_force_after_its_last_resort(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "last-resort"
    child = subprocess.Popen(
        [sys.executable, "-c", STUCK_VIEWER, str(marker)],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    sent = time.monotonic()
    child.send_signal(signal.SIGTERM)
    code = child.wait(timeout=20)
    took = time.monotonic() - sent
    assert code == 128 + signal.SIGTERM
    assert marker.read_text() == "stopped the agent"
    assert took < 10, took
