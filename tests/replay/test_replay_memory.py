"""Long runs keep the memory profile of a file (issue 20, point 7): ``--replay`` plays
from the file's timeline instead of holding every event, and a live pipe is spilled to
a private temporary file its lines are read back from."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson
import pytest

from streamview.core.reader import iter_events
from streamview.core.state import StreamState
from streamview.core.timeline import PLAY_PREFIX_BYTES, FileTimeline
from streamview.sources.base import FileSource, PipeSource
from streamview.ui.feed.reader import Feed
from streamview.ui.playback.feed import PlaybackFeed

from .test_playback import fingerprint


def big_run(path: Path, calls: int) -> None:
    """A Cursor run with ``calls`` tool calls, one second apart, bigger than the prefix."""
    pad = "x" * 400
    lines = [{"type": "system", "subtype": "init", "session_id": "s", "model": "M"}]
    for n in range(calls):
        call = {"readToolCall": {"args": {"path": f"/src/{n}.py", "pad": pad}}}
        lines.append(
            {
                "type": "tool_call",
                "subtype": "started",
                "call_id": f"c{n}",
                "tool_call": call,
                "session_id": "s",
                "timestamp_ms": 1_000_000 + n * 1000,
            }
        )
        done = {"readToolCall": {**call["readToolCall"], "result": {"success": {"content": pad}}}}
        lines.append(
            {
                "type": "tool_call",
                "subtype": "completed",
                "call_id": f"c{n}",
                "tool_call": done,
                "session_id": "s",
                "timestamp_ms": 1_000_500 + n * 1000,
            }
        )
    lines.append({"type": "result", "subtype": "success", "session_id": "s", "result": "ok"})
    path.write_bytes(b"".join(orjson.dumps(line) + b"\n" for line in lines))


def test_replay_plays_from_the_file_timeline_and_matches_a_straight_fold(tmp_path: Path) -> None:
    """A file over the prefix: playback starts before the whole file is folded, no event
    is held (the timeline is the file's), and every event handed out, across the switch
    from the start's timeline to the whole file's, is the one a straight read gives."""
    path = tmp_path / "big.ndjson"
    big_run(path, 2_500)
    assert path.stat().st_size > 2 * PLAY_PREFIX_BYTES
    feed = PlaybackFeed(FileSource(path), playing=True, speed=10_000.0)
    feed.start()
    state = StreamState(track_changes=False)
    handed: list[object] = []
    deadline = time.monotonic() + 60
    saw_partial = False
    while time.monotonic() < deadline:
        batch = feed.drain()
        saw_partial = saw_partial or (bool(batch.events) and not feed.folded)
        handed.extend(batch.events)
        for event in batch.events:
            state.apply(event)
        if batch.ended:
            state.finish()
            break
        time.sleep(0.005)
    feed.stop()
    assert isinstance(feed.timeline, FileTimeline)
    expected = list(iter_events([path.read_bytes()]))
    assert handed == expected
    assert saw_partial, "the first events must play before the whole file is folded"
    straight = StreamState(track_changes=False)
    for event in expected:
        straight.apply(event)
    straight.finish()
    assert fingerprint(state) == fingerprint(straight)


def test_a_live_pipe_is_spilled_to_a_private_file_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pipe's lines are kept on disk, not in memory: the spill file is private (0600),
    has no name left in the temporary folder, and a tool call's line is read back."""
    path = tmp_path / "run.ndjson"
    big_run(path, 3)
    # A temporary folder of the test's own: the shared one gains other processes' files
    # meanwhile (a fresh-clone pair once saw a stranger's `svljko2_fg` appear there).
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))
    producer = subprocess.Popen(["cat", str(path)], stdout=subprocess.PIPE)
    assert producer.stdout is not None
    feed = Feed(PipeSource(producer.stdout.fileno()))
    feed.start()
    events = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        batch = feed.drain()
        events.extend(batch.events)
        if batch.ended:
            break
        time.sleep(0.01)
    producer.wait()
    spill = feed.spill
    assert spill is not None
    mode = os.fstat(spill.fd).st_mode
    assert stat.S_IMODE(mode) == 0o600
    assert not Path(spill.name).exists(), "the spill file keeps no name on disk"
    assert os.listdir(temporary) == []
    completed = [e for e in events if getattr(e, "completed", False)]
    assert completed
    line = feed.store.get(completed[-1].line)
    assert line == path.read_bytes().splitlines()[completed[-1].line - 1]
    assert not getattr(feed.store, "_lines", {}), "no line's bytes are held in memory"
    feed.stop()


def test_the_spill_file_is_gone_when_the_viewer_is_killed(tmp_path: Path) -> None:
    """``kill -9`` leaves nothing behind: the file never had a lasting name."""
    code = (
        "import sys, time\n"
        "from streamview.sources.base import PipeSource\n"
        "from streamview.ui.feed.reader import Feed\n"
        "feed = Feed(PipeSource(0))\n"
        "feed.start()\n"
        "print(feed.spill.name, flush=True)\n"
        "time.sleep(60)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env
    )
    assert child.stdout is not None and child.stdin is not None
    name = child.stdout.readline().decode().strip()
    assert name.startswith(str(tmp_path))
    child.stdin.write(b'{"type":"user"}\n')
    child.stdin.flush()
    child.kill()
    child.wait()
    assert list(tmp_path.iterdir()) == []
