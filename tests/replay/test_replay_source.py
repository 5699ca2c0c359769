"""ReplaySource: the file comes back unchanged, on its schedule, and obeys the controls."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from streamview.core.reader import fold
from streamview.core.summary import summarize
from streamview.runs.recording import Recorder, strip_timing
from streamview.sources.base import InputError
from streamview.sources.line_tee import LineTee
from streamview.sources.replay import ReplaySource, load_recording, split_lines


class FakeClock:
    """Monotonic seconds moved only by ``sleep``."""

    def __init__(self) -> None:
        self.now = 50.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def recording(*pairs: tuple[int, str]) -> bytes:
    """Lines with arrival times, as a recording writes them."""
    return b"".join(
        b'{"type":"%s","session_id":"s","streamview_recv_ms":%d}\n' % (kind.encode(), ms)
        for ms, kind in pairs
    )


def test_split_lines_gives_one_unit_per_event_and_keeps_every_byte() -> None:
    data = b"\n\na\r\n\n  \nb\nc"
    units = split_lines(data)
    assert units == [b"\n\na\r\n\n  \n", b"b\n", b"c"]
    assert b"".join(units) == data
    assert split_lines(b"") == []
    assert split_lines(b"\n\n") == [b"\n\n"]


def test_replay_on_a_fake_clock_hands_out_lines_when_due(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(recording((1_000, "a"), (1_500, "b"), (1_500, "c"), (61_500, "d")))
    clock = FakeClock()
    source = ReplaySource(path, speed=2.0, idle_limit=4.0, clock=clock, sleep=clock.sleep)
    start = clock.now
    seen = [
        (round(clock.now - start, 3), chunk.count(b"\n"))
        for chunk in source.chunks(threading.Event())
    ]
    # 0.5 s gap at speed 2 → 0.25 s; 60 s silence cut to 4 s → 2 s at speed 2.
    assert seen == [(0.0, 1), (0.25, 2), (2.25, 1)]
    assert source.total_ms == 4_500
    assert source.position_ms == 4_500


def test_replay_of_a_plain_capture_uses_timestamps_then_a_steady_pace(tmp_path: Path) -> None:
    path = tmp_path / "plain.ndjson"
    path.write_bytes(
        b'{"type":"system","subtype":"init"}\n'
        b'{"type":"user"}\n'
        b'{"type":"assistant","timestamp_ms":5000}\n'
        b'{"type":"assistant","timestamp_ms":5300}\n'
    )
    clock = FakeClock()
    source = ReplaySource(path, clock=clock, sleep=clock.sleep, steady_ms=100)
    start = clock.now
    times = [round(clock.now - start, 3) for _ in source.chunks(threading.Event())]
    assert times == [0.0, 0.1, 0.2, 0.5]


def test_record_then_replay_gives_back_the_input_byte_for_byte(tmp_path: Path) -> None:
    original = (
        b'{"type":"system","subtype":"init","session_id":"s"}\n'
        b"a banner that is not JSON\r\n"
        b"\n"
        b'{"type":"assistant","message":{"content":[{"type":"text",'
        b'"text":"\xe2\x80\x94 \xf0\x9f\x98\x80"}]}}\r\n'
        b'{"type":"result","subtype":"success","session_id":"s"}'
    )
    path = tmp_path / "rec.ndjson"
    tee = LineTee(Recorder(path), clock=iter(range(1_000, 999_000, 250)).__next__)
    for byte in range(0, len(original), 5):
        tee.feed(original[byte : byte + 5])
    tee.finish()
    source = ReplaySource(path, speed=1000.0)
    replayed = b"".join(source.chunks(threading.Event()))
    assert replayed == path.read_bytes()
    back = b"".join(strip_timing(line) for line in replayed.splitlines(keepends=True))
    assert back == original


def test_a_replay_folds_to_the_same_state_as_the_file(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(recording((0, "system"), (10, "assistant"), (20, "result")))
    replayed = fold(ReplaySource(path, speed=1000.0).chunks(threading.Event()))
    direct = fold([path.read_bytes()])
    assert summarize(replayed) == summarize(direct)


def test_pause_holds_the_lines_and_resume_releases_them(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(recording((0, "a"), (20, "b"), (40, "c")))
    source = ReplaySource(path, paused=True)
    stop = threading.Event()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(source.chunks(stop)), daemon=True)
    reader.start()
    time.sleep(0.2)
    assert len(got) == 1 and source.paused  # the first line is due at 0
    source.resume()
    reader.join(5)
    assert not reader.is_alive()
    assert b"".join(got).count(b"\n") == 3


def test_stop_ends_a_paused_replay_promptly(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(recording((0, "a"), (3_600_000, "b")))
    source = ReplaySource(path)
    stop = threading.Event()
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.extend(source.chunks(stop)), daemon=True)
    reader.start()
    time.sleep(0.1)
    stop.set()
    reader.join(2)
    assert not reader.is_alive()
    assert len(got) == 1


def test_seek_and_speed_controls(tmp_path: Path) -> None:
    path = tmp_path / "r.ndjson"
    path.write_bytes(recording((0, "a"), (1_000, "b"), (600_000, "c")))
    clock = FakeClock()
    source = ReplaySource(path, clock=clock, sleep=clock.sleep, paused=True)
    source.load()
    assert source.total_lines == 3 and source.total_ms == 600_000
    assert source.faster() == 2.0
    assert source.slower() == 1.0
    source.seek_ms(599_000)
    source.resume()
    chunks = source.chunks(threading.Event())
    assert next(chunks).count(b"\n") == 2  # a and b at once: already due
    start = clock.now
    next(chunks)
    assert round(clock.now - start, 3) == 1.0
    assert source.toggle_pause() is True


def test_a_missing_file_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        ReplaySource(tmp_path / "nope.ndjson").load()


def test_load_recording_schedules_every_unit() -> None:
    loaded = load_recording(recording((5, "a"), (7, "b")) + b"tail without newline")
    assert len(loaded) == 3
    assert loaded.schedule.offsets[:2] == (0, 2)
