"""``--follow`` against a file that is rewritten by ``cp`` or renamed while its writer
still appends (issue 20, point 5): no record lost, no torn line, and it says so."""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from .helpers import REPO, assert_no_traceback, cli_env, command
from .streams import dumps, text_message

WAIT = 30.0


class Follower:
    """``streamview --print --follow PATH``, its output lines collected by a thread."""

    def __init__(self, path: Path) -> None:
        self.process = subprocess.Popen(
            command("--print", "--follow", str(path)),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=cli_env(),
        )
        self.lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8"))

    def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        """Until an output line holds ``needle``."""
        deadline = time.monotonic() + timeout
        while not any(needle in line for line in self.seen):
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{needle!r} not printed; saw {self.seen[-10:]!r}")
            with contextlib.suppress(queue.Empty):
                self.seen.append(self.lines.get(timeout=min(left, 0.2)))

    def stop(self) -> str:
        """Interrupt it; all it printed."""
        self.process.send_signal(signal.SIGINT)
        self.process.wait(WAIT)
        time.sleep(0.1)
        while not self.lines.empty():
            self.seen.append(self.lines.get())
        assert self.process.stderr is not None
        assert_no_traceback(self.process.stderr.read())
        return "".join(self.seen)


def run_file(tag: str, count: int) -> bytes:
    """An init and ``count`` prompts ``<tag> prompt <n>``."""
    lines = [dumps({"type": "system", "subtype": "init", "session_id": tag, "model": "M"})]
    lines += [
        dumps(text_message("user", f"{tag} prompt {n:03}", session_id=tag)) for n in range(count)
    ]
    return b"".join(lines)


def prompts(output: str, tag: str) -> list[str]:
    """The ``<tag> prompt <n>`` prompts printed (``> <tag> prompt <n>``), in order."""
    return [line[2:] for line in output.splitlines() if line.startswith(f"> {tag} prompt ")]


def test_cp_over_a_followed_file_is_read_from_its_start(tmp_path: Path) -> None:
    """``cp new old`` truncates and rewrites the same inode faster than a poll; the new
    file is as long as the old one or longer, so its size alone never shows it. Every
    one of its 56 records is printed once, no line is torn, the notice says so."""
    followed = tmp_path / "followed.ndjson"
    followed.write_bytes(run_file("old", 40))
    for new_tag, count in (("new", 56), ("eqa", 40)):  # longer, then the very same size
        replacement = tmp_path / f"{new_tag}.ndjson"
        replacement.write_bytes(run_file(new_tag, count))
    assert (tmp_path / "eqa.ndjson").stat().st_size == followed.stat().st_size
    viewer = Follower(followed)
    try:
        viewer.wait_for("old prompt 039")
        subprocess.run(["cp", str(tmp_path / "new.ndjson"), str(followed)], check=True)
        viewer.wait_for("new prompt 055")
        viewer.wait_for("input/truncated")
        time.sleep(0.3)  # idle at the end again
        subprocess.run(["cp", str(tmp_path / "eqa.ndjson"), str(followed)], check=True)
        viewer.wait_for("eqa prompt 039")
    finally:
        output = viewer.stop()
    assert len(prompts(output, "old")) == 40
    assert prompts(output, "new") == [f"new prompt {n:03}" for n in range(56)]
    assert prompts(output, "eqa") == [f"eqa prompt {n:03}" for n in range(40)]
    assert "malformed" not in output and "not JSON" not in output, output
    assert output.count("~~ input/truncated") == 2


def test_a_renamed_file_is_read_to_its_end_while_its_writer_appends(tmp_path: Path) -> None:
    """Log rotation: the file is renamed while its writer goes on appending to it, and a
    new file appears at the path. Every line the writer wrote after the rename is still
    read (``tail -F`` loses them), then the new file from its start."""
    followed = tmp_path / "app.ndjson"
    followed.write_bytes(run_file("w", 0))
    writer_code = (
        "import sys, time, json\n"
        "out = open(sys.argv[1], 'ab', buffering=0)\n"
        "for n in range(120):\n"
        "    rec = {'type': 'user', 'session_id': 'w', 'message': {'role': 'user',"
        " 'content': [{'type': 'text', 'text': 'w prompt %03d' % n}]}}\n"
        "    out.write(json.dumps(rec).encode() + b'\\n')\n"
        "    time.sleep(0.01)\n"
    )
    viewer = Follower(followed)
    writer = subprocess.Popen([sys.executable, "-c", writer_code, str(followed)])
    try:
        viewer.wait_for("w prompt 010")
        os.rename(followed, tmp_path / "app.ndjson.1")
        followed.write_bytes(run_file("fresh", 5))
        assert writer.poll() is None, "the writer must still be appending after the rename"
        writer.wait(WAIT)
        viewer.wait_for("fresh prompt 004")
    finally:
        writer.kill()
        output = viewer.stop()
    written = [f"w prompt {n:03}" for n in range(120)]
    assert prompts(output, "w") == written
    assert len(prompts(output, "fresh")) == 5
    last_old = output.rindex("w prompt 119")
    assert output.index("fresh prompt 000") > last_old
    assert "~~ input/replaced" in output
    assert "malformed" not in output
