"""``--follow`` of Gemini CLI's and opencode's session files (issue 27.1 and 27.3): a
whole-file rewrite is re-read without showing twice what was shown, a torn last line
and a half-written file are waited for, a database row updated in place is said once."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from streamview.core.reader import EventReader
from streamview.core.state import StreamState
from streamview.core.summary import session_summary
from streamview.sources.base import FileSource, Source
from streamview.sources.session_files import session_source_for

from .helpers import REPO_ROOT

SESSIONS = REPO_ROOT / "tests" / "fixtures" / "sessions"
DEADLINE = 15.0


class Followed:
    """A source read on a thread into a folded state, as the viewer's reader does."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.state = StreamState(track_changes=False)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self._reader = EventReader()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        for chunk in self.source.chunks(self.stop):
            events = self._reader.feed(chunk)
            with self.lock:
                for event in events:
                    self.state.apply(event)

    def summary(self) -> dict[str, Any] | None:
        with self.lock:
            sessions = self.state.sessions
            return session_summary(sessions[0]) if sessions else None

    def wait(self, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The session's summary once ``test`` holds (fails after a generous deadline)."""
        end = time.monotonic() + DEADLINE
        while time.monotonic() < end:
            said = self.summary()
            if said is not None and test(said):
                return said
            time.sleep(0.02)
        raise AssertionError(f"not seen in {DEADLINE} s: {self.summary()}")


@contextmanager
def following(source: Source) -> Iterator[Followed]:
    followed = Followed(source)
    followed._thread.start()
    try:
        yield followed
    finally:
        followed.stop.set()
        followed._thread.join(5)


def gemini_records() -> list[dict[str, Any]]:
    path = SESSIONS / "gemini" / "session-2026-11-20T10-00-3f2a9c1e.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def rewrite(path: Path, text: str) -> None:
    """Write ``path`` whole as the CLI does: a temporary file renamed over it."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(text)
    os.replace(temporary, path)


def test_a_rewritten_legacy_gemini_session_shows_only_what_is_new(tmp_path: Path) -> None:
    records = gemini_records()
    header, prompt, running, answer = records[0], records[1], records[3], records[9]
    ended_calls = records[6]
    path = tmp_path / "session-2026-11-20T10-00-3f2a9c1e.json"
    rewrite(path, json.dumps({**header, "messages": [prompt, running]}, indent=2))
    source = session_source_for(path, follow=True)
    assert source is not None
    with following(source) as followed:
        said = followed.wait(lambda s: len(s["tool_calls"]) == 1)
        assert said["tool_calls"][0]["status"] == "running"
        # Caught half-written (no rename: a writer that truncates and writes): waited for.
        whole = json.dumps({**header, "messages": [prompt, ended_calls, answer]}, indent=2)
        path.write_text(whole[: len(whole) // 2])
        time.sleep(0.2)  # a few polls see it half-written
        assert followed.summary() == said
        rewrite(path, whole)
        said = followed.wait(lambda s: bool(s["text"]))
    assert [c["status"] for c in said["tool_calls"]] == ["succeeded", "error"]
    assert said["prompt"] == "List the python files and read main.py"
    assert said["text"].count("two Python files") == 1
    with followed.lock:
        prompts = [b for b in followed.state.sessions[0].blocks if b.kind == "prompt"]
    assert len(prompts) == 1


def test_a_followed_gemini_jsonl_waits_for_a_torn_last_line(tmp_path: Path) -> None:
    lines = [json.dumps(r) + "\n" for r in gemini_records()]
    path = tmp_path / "session.jsonl"
    torn = lines[3][: len(lines[3]) // 2]
    path.write_text("".join(lines[:3]) + torn)
    with following(FileSource(path, follow=True)) as followed:
        said = followed.wait(lambda s: s["prompt"] is not None)
        assert said["tool_calls"] == []  # the torn record is not read before its end
        with path.open("a") as handle:
            handle.write(lines[3][len(torn) :] + "".join(lines[4:]))
        said = followed.wait(lambda s: bool(s["text"]))
    assert [c["status"] for c in said["tool_calls"]] == ["succeeded", "error"]
    # The answer came with its tokens and no call open: the turn's usage, live.
    assert said["outcome"]["usage"]["output_tokens"] == 65


def test_a_followed_opencode_database_says_an_updated_part_once(tmp_path: Path) -> None:
    database = tmp_path / "opencode.db"
    database.write_bytes((SESSIONS / "opencode" / "opencode.db").read_bytes())
    source = session_source_for(database, follow=True)
    assert source is not None
    with following(source) as followed:
        followed.wait(lambda s: s["outcome"]["status"] == "success")
        session = "ses_4b1f0c2a7ffeA1b2C3d4E5f6G7"
        writer = sqlite3.connect(database)
        now = 1763632900000
        message = {"role": "assistant", "modelID": "claude-sonnet-4-5", "time": {"created": now}}
        writer.execute(
            "INSERT INTO message VALUES ('msg_d1', ?, ?, ?, ?)",
            (session, now, now, json.dumps(message)),
        )
        state = {
            "status": "running",
            "input": {"filePath": "/work/app/b.txt"},
            "time": {"start": now},
        }
        part = {"type": "tool", "callID": "toolu_03", "tool": "read", "state": state}
        writer.execute(
            "INSERT INTO part VALUES ('prt_d1', 'msg_d1', ?, ?, ?, ?)",
            (session, now, now, json.dumps(part)),
        )
        writer.commit()
        time.sleep(0.2)  # polls see the running call (opencode run prints it once ended)
        state.update(status="completed", output="b", time={"start": now, "end": now + 5})
        writer.execute(
            "UPDATE part SET data = ?, time_updated = ? WHERE id = 'prt_d1'",
            (json.dumps(part), now + 5),
        )
        writer.commit()
        writer.close()
        said = followed.wait(lambda s: len(s["tool_calls"]) == 3)
        time.sleep(0.2)  # later polls must not say it again
        said = followed.summary() or {}
    assert [c["call_id"] for c in said["tool_calls"]] == ["toolu_01", "toolu_02", "toolu_03"]
    assert said["tool_calls"][2]["status"] == "succeeded"
