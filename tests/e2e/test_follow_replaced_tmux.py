"""The viewer following a file that ``cp`` rewrites (issue 20, point 5): the new run is
shown from its start, and the status bar and the event log say the file was replaced."""

from __future__ import annotations

import shlex
import subprocess
from pathlib import Path

import orjson

from .terminal import Tmux, viewer_line, wait_exit


def run_bytes(tag: str, prompts: int) -> bytes:
    """An init and ``prompts`` prompts of session ``tag``."""
    records = [{"type": "system", "subtype": "init", "session_id": tag, "model": "M"}]
    records += [
        {
            "type": "user",
            "session_id": tag,
            "message": {"role": "user", "content": [{"type": "text", "text": f"{tag} ask {n}"}]},
        }
        for n in range(prompts)
    ]
    return b"".join(orjson.dumps(record) + b"\n" for record in records)


def test_cp_over_a_followed_file_shows_in_the_status_bar_and_event_log(
    tmux: Tmux, tmp_path: Path
) -> None:
    exit_file = tmp_path / "exit"
    followed = tmp_path / "followed.ndjson"
    followed.write_bytes(run_bytes("alpha", 30))
    fresh = tmp_path / "fresh.ndjson"
    fresh.write_bytes(run_bytes("bravo", 40))
    tmux.start(viewer_line(f"--follow {shlex.quote(str(followed))}", exit_file))
    tmux.wait_for(lambda s: "alpha ask 29" in s)
    subprocess.run(["cp", str(fresh), str(followed)], check=True)
    screen = tmux.wait_for(lambda s: "bravo ask 39" in s and "file truncated/replaced: 1" in s)
    assert "malformed" not in screen
    tmux.keys("l")
    tmux.wait_for(lambda s: "input/truncated" in s)
    tmux.keys("Escape")
    tmux.wait_for(lambda s: "bravo ask 39" in s)
    tmux.keys("q")
    assert wait_exit(exit_file) == 1  # the followed run has no result yet
