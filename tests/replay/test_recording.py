"""Recording: the timing key, line-by-line flushing, write failures, and the exact inverse."""

from __future__ import annotations

import os
import stat
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest

from streamview.core.parse import parse_line
from streamview.runs.recording import (
    Recorder,
    RecordingSource,
    add_timing,
    default_recording_path,
    strip_timing,
)
from streamview.runs.recording_files import recording_held
from streamview.runs.run_meta import read_meta, sidecar_path
from streamview.sources.base import Source
from streamview.sources.line_tee import LineTee

REPO = Path(__file__).resolve().parents[2]
CAPTURES = REPO / "tests" / "fixtures" / "cursor-real"

LINES = [
    b'{"type":"system","subtype":"init","session_id":"s"}\n',
    b'{"type":"assistant","message":{"content":[{"type":"text","text":"h\xc3\xa9 \\"}\\""}]}}\r\n',
    b"{}\n",
    b"{ }  \n",
    b"not json\n",
    b"[1,2]\n",
    b'{"broken":\n',
    b"\n",
    b"   \n",
    b'  {"type":"x"}  \r\n',
    b'{"type":"y"}',
]


class ListSource(Source):
    """Chunks given in advance."""

    live = True

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = chunks
        self.label = "test"

    def chunks(self, stop: threading.Event) -> Iterator[bytes]:
        yield from self._chunks


def test_add_timing_puts_the_key_last_in_json_objects_only() -> None:
    assert add_timing(b'{"a":1}\n', 42) == b'{"a":1,"streamview_recv_ms":42}\n'
    assert add_timing(b"{}\n", 42) == b'{"streamview_recv_ms":42}\n'
    assert add_timing(b'{"a":1}\r\n', 42) == b'{"a":1,"streamview_recv_ms":42}\r\n'
    assert add_timing(b'{"a":1}', 42) == b'{"a":1,"streamview_recv_ms":42}'
    for verbatim in (b"not json\n", b"[1]\n", b'{"a":\n', b"\n", b'"{}"\n', b"{} {}\n"):
        assert add_timing(verbatim, 42) == verbatim


def test_recorded_lines_stay_valid_json_and_the_parser_reads_the_time() -> None:
    for line in LINES:
        recorded = add_timing(line, 1_700_000_000_123)
        body = line.strip()
        try:
            original = orjson.loads(body)
        except orjson.JSONDecodeError:
            original = None
        if isinstance(original, dict):
            value = orjson.loads(recorded)
            assert list(value)[-1] == "streamview_recv_ms"
            assert {k: v for k, v in value.items() if k != "streamview_recv_ms"} == original
            event = parse_line(recorded.rstrip(b"\r\n"), 1)
            assert event.recv_ms == 1_700_000_000_123
        else:
            assert recorded == line


@pytest.mark.parametrize("line", LINES)
def test_strip_timing_is_the_exact_inverse(line: bytes) -> None:
    assert strip_timing(add_timing(line, 5)) == line
    assert strip_timing(line) == line


def test_a_recording_of_a_recording_keeps_one_key_with_the_first_arrival() -> None:
    once = add_timing(b'{"a":1}\n', 1)
    twice = add_timing(once, 2)
    assert twice == once
    assert twice.count(b"streamview_recv_ms") == 1
    assert parse_line(twice.rstrip(b"\n"), 1).recv_ms == 1
    first = add_timing(b'{"streamview_recv_ms":7,"a":1}\n', 9)  # the key anywhere at the top
    assert first == b'{"streamview_recv_ms":7,"a":1}\n'
    nested = add_timing(b'{"a":{"streamview_recv_ms":7}}\n', 9)  # not at the top: not ours
    assert orjson.loads(nested)["streamview_recv_ms"] == 9


def test_strip_timing_leaves_lookalikes_that_are_not_json() -> None:
    line = b'oops ,"streamview_recv_ms":5}\n'
    assert strip_timing(line) == line


def test_tee_cuts_lines_at_every_split_point(tmp_path: Path) -> None:
    """Feeding the stream in two chunks, cut anywhere, records the same lines."""
    data = b"".join(LINES)
    times = iter(range(1_000, 10_000))
    expected: bytes | None = None
    for cut in range(len(data) + 1):
        path = tmp_path / f"r{cut}.ndjson"
        tee = LineTee(Recorder(path), clock=lambda: 7)
        tee.feed(data[:cut])
        tee.feed(data[cut:])
        tee.finish()
        recorded = path.read_bytes()
        if expected is None:
            expected = recorded
        assert recorded == expected, cut
        next(times)
    assert expected is not None
    back = b"".join(strip_timing(line) for line in expected.splitlines(keepends=True))
    assert back == data


def test_each_line_is_on_disk_as_soon_as_it_is_complete(tmp_path: Path) -> None:
    path = tmp_path / "live.ndjson"
    recorder = Recorder(path)
    tee = LineTee(recorder, clock=lambda: 9)
    tee.feed(b'{"type":"a"}\n{"type":')
    # Read through another file object, as a second process would.
    assert path.read_bytes() == b'{"type":"a","streamview_recv_ms":9}\n'
    tee.feed(b'"b"}\n')
    assert path.read_bytes().count(b"\n") == 2
    tee.finish()
    assert recorder.lines == 2


def test_recording_source_passes_chunks_through_unchanged(tmp_path: Path) -> None:
    chunks = [b'{"type":"a"}\n{"ty', b'pe":"b"}\nplain', b" text\n"]
    path = tmp_path / "rec.ndjson"
    source = RecordingSource(ListSource(chunks), Recorder(path))
    assert source.live and source.label == "test"
    assert list(source.chunks(threading.Event())) == chunks
    lines = path.read_bytes().splitlines(keepends=True)
    assert lines[2] == b"plain text\n"
    assert [strip_timing(line) for line in lines] == [
        b'{"type":"a"}\n',
        b'{"type":"b"}\n',
        b"plain text\n",
    ]
    times = [orjson.loads(line)["streamview_recv_ms"] for line in lines[:2]]
    assert all(isinstance(t, int) and t > 1_600_000_000_000 for t in times)


def test_real_captures_survive_record_then_strip(tmp_path: Path) -> None:
    captures = sorted(CAPTURES.glob("*.*json*"))
    assert captures, f"no captures in {CAPTURES}"
    for capture in captures:
        data = capture.read_bytes()
        path = tmp_path / (capture.name + ".rec")
        tee = LineTee(Recorder(path), clock=lambda: 1_770_000_000_000)
        for start in range(0, len(data), 777):
            tee.feed(data[start : start + 777])
        tee.finish()
        recorded = path.read_bytes()
        objects = sum(1 for line in data.splitlines() if line.strip().startswith(b"{"))
        assert recorded.count(b"streamview_recv_ms") == objects
        back = b"".join(strip_timing(line) for line in recorded.splitlines(keepends=True))
        assert back == data, capture.name


def test_cannot_create_the_file_is_reported_not_raised(tmp_path: Path) -> None:
    messages: list[str] = []
    recorder = Recorder(tmp_path / "missing-dir" / "r.ndjson", on_error=messages.append)
    assert recorder.open() is False
    recorder.write(b"{}\n", 1)
    recorder.close()
    assert recorder.failed
    assert messages == [recorder.error]
    assert recorder.error is not None
    assert "cannot create" in recorder.error and "No such file or directory" in recorder.error


def test_a_directory_as_path_is_reported(tmp_path: Path) -> None:
    recorder = Recorder(tmp_path)
    assert recorder.open() is False
    assert recorder.error is not None and "Is a directory" in recorder.error


def test_a_full_disk_stops_the_recording_but_not_the_stream() -> None:
    """/dev/full (Linux) fails every write with ENOSPC, like a full disk."""
    messages: list[str] = []
    recorder = Recorder(Path("/dev/full"), on_error=messages.append)
    source = RecordingSource(ListSource([b'{"type":"a"}\n', b'{"type":"b"}\n']), recorder)
    assert list(source.chunks(threading.Event())) == [b'{"type":"a"}\n', b'{"type":"b"}\n']
    assert messages == [
        "recording cut: disk full (No space left on device) after 0 lines: /dev/full"
    ]
    assert recorder.lines == 0 and recorder.cut == "disk full"
    assert not Path("/dev/full.meta.json").exists()  # a device gets no sidecar


def test_default_path_is_named_after_the_program_and_claims_a_new_name(tmp_path: Path) -> None:
    first = default_recording_path(["/usr/bin/cursor-agent", "-p", "x"], tmp_path / "runs")
    assert first.parent == tmp_path / "runs"
    assert first.name.endswith("-cursor-agent.ndjson")
    assert default_recording_path(["../../weird name!"], tmp_path).name.endswith(
        "-weird-name.ndjson"
    )
    one, two = Recorder(first, claim=True), Recorder(first, claim=True)
    assert one.open() and two.open()
    assert one.path == first and two.path == first.with_name(first.stem + "-2.ndjson")
    one.write(b'{"n":1}\n', 1)
    two.write(b'{"n":2}\n', 2)
    one.close()
    two.close()
    assert one.path.read_bytes() == b'{"n":1,"streamview_recv_ms":1}\n'
    assert two.path.read_bytes() == b'{"n":2,"streamview_recv_ms":2}\n'
    assert stat.S_IMODE(first.parent.stat().st_mode) == 0o700
    for path in (one.path, two.path, sidecar_path(one.path)):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_recording_is_held_while_written_and_said_so(tmp_path: Path) -> None:
    """`streamview runs` tells a run still writing from one whose streamview died."""
    target = tmp_path / "run.ndjson"
    recorder = Recorder(target)
    assert recorder.open()
    assert recording_held(target)
    meta = read_meta(target)
    assert meta is not None and meta.ended == "running" and meta.writer_pid == os.getpid()
    recorder.write(b'{"type":"a"}\n', 1)
    recorder.close()
    assert not recording_held(target)
    recorder.seal()
    meta = read_meta(target)
    assert meta is not None and (meta.ended, meta.lines) == ("stopped", 1)  # never reached EOF


def test_a_file_another_run_records_into_is_left_alone(tmp_path: Path) -> None:
    target = tmp_path / "run.ndjson"
    first = Recorder(target)
    assert first.open()
    first.write(b'{"n":1}\n', 1)
    second = Recorder(target)
    assert second.open() is False
    assert second.error is not None and "another streamview run is recording there" in (
        second.error
    )
    first.write(b'{"n":2}\n', 2)
    first.close()
    assert target.read_bytes().count(b"\n") == 2  # not emptied by the second
    third = Recorder(target)  # once the first is done, the path can be recorded again
    assert third.open()
    third.close()
    assert target.read_bytes() == b""


def test_a_read_only_file_system_stops_the_recording_with_a_clear_message(
    tmp_path: Path,
) -> None:
    """A real read-only tmpfs (root can mount one here; as another user, a /proc file no
    one may create in): one message naming the file and the reason; the stream passes."""
    folder = tmp_path / "ro"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    try:
        target = folder / "run.ndjson" if mounted.returncode == 0 else Path("/proc/x.ndjson")
        messages: list[str] = []
        recorder = Recorder(target, on_error=messages.append)
        lines = [b'{"type":"a"}\n', b'{"type":"b"}\n']
        assert list(RecordingSource(ListSource(lines), recorder).chunks(threading.Event())) == (
            lines
        )
        assert len(messages) == 1 and messages[0].startswith(
            f"recording stopped: cannot create {target}: "
        )
        if mounted.returncode == 0:
            assert messages[0].endswith("Read-only file system")
    finally:
        if mounted.returncode == 0:
            subprocess.run(["umount", str(folder)], check=False)
