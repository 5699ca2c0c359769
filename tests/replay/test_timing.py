"""Playback timing: which clock, offsets, idle limit, speed, pause and seek, on a fake clock."""

from __future__ import annotations

import pytest

from streamview.core.timing import (
    RECEIVED,
    STEADY,
    STEADY_MS,
    TIMESTAMPS,
    Playhead,
    build_schedule,
    choose_clock,
    faster,
    offsets_ms,
    slower,
    times_of_line,
)


class FakeClock:
    """Monotonic seconds that move only when told."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_times_of_line_reads_the_recording_key_and_the_timestamp() -> None:
    line = b'{"type":"assistant","timestamp_ms":1000,"streamview_recv_ms":1500}\r\n'
    assert times_of_line(line) == (1500, 1000)
    assert times_of_line(b'{"type":"user"}') == (None, None)
    assert times_of_line(b"not json at all") == (None, None)
    assert times_of_line(b"[1, 2]") == (None, None)
    assert times_of_line(b'{"timestamp_ms":"1770823841542"}') == (None, 1770823841542)
    assert times_of_line(b'{"timestamp_ms":true}') == (None, None)


def test_arrival_times_win_over_timestamps() -> None:
    assert choose_clock([(10, 1), (20, 2)]) == RECEIVED
    assert choose_clock([(None, 1), (None, 5)]) == TIMESTAMPS
    assert choose_clock([(None, None), (None, None)]) == STEADY
    assert choose_clock([]) == STEADY


def test_identical_arrival_times_fall_back_to_timestamps() -> None:
    """A capture piped in at once arrives in one millisecond: its timestamps say more."""
    assert choose_clock([(7, 100), (7, 900), (7, None)]) == TIMESTAMPS
    assert choose_clock([(7, None), (7, None)]) == RECEIVED


def test_offsets_follow_the_clock_from_the_first_line() -> None:
    assert offsets_ms([1000, 1250, 1250, 4000]) == [0, 250, 250, 3000]


def test_idle_limit_shortens_each_long_silence_only() -> None:
    assert offsets_ms([0, 100, 60_100, 60_200], idle_limit_ms=2_000) == [0, 100, 2_100, 2_200]
    schedule = build_schedule([(0, None), (100, None), (60_100, None)], idle_limit=1.5)
    assert schedule.offsets == (0, 100, 1_600)


def test_time_going_backwards_is_a_zero_gap_not_a_negative_one() -> None:
    # 900 comes after 1000: no wait, and the next gap counts from 1000, not from 900.
    assert offsets_ms([1000, 900, 1100]) == [0, 0, 100]


def test_lines_without_a_time_get_a_steady_pace_borrowed_from_the_next_gap() -> None:
    # init and user lines have no timestamp_ms; the deltas do.
    times = [None, None, 10_000, 10_050, None, 11_000]
    assert offsets_ms(times, steady_ms=100) == [0, 100, 200, 250, 350, 1_200]
    # From the first timed line to the last stays true: 1_200 - 200 == 11_000 - 10_000.
    # When the untimed lines take more than the gap, the timed line simply follows.
    assert offsets_ms([0, None, None, 50], steady_ms=100) == [0, 100, 200, 200]


def test_no_times_at_all_is_a_steady_pace() -> None:
    schedule = build_schedule([(None, None)] * 4)
    assert schedule.clock == STEADY
    assert schedule.offsets == (0, STEADY_MS, 2 * STEADY_MS, 3 * STEADY_MS)
    assert schedule.total_ms == 3 * STEADY_MS


def test_timestamps_with_untimed_lines() -> None:
    times = [(None, None), (None, None), (None, 5_000), (None, 5_400), (None, None)]
    schedule = build_schedule(times, steady_ms=50)
    assert schedule.clock == TIMESTAMPS
    assert schedule.offsets == (0, 50, 100, 500, 550)


def test_delays_scale_with_speed() -> None:
    schedule = build_schedule([(0, None), (1_000, None), (3_000, None)])
    assert schedule.delays() == [0.0, 1.0, 2.0]
    assert schedule.delays(speed=4) == [0.0, 0.25, 0.5]


def test_due_at_and_offset_of() -> None:
    schedule = build_schedule([(0, None), (1_000, None), (1_000, None), (3_000, None)])
    assert [schedule.due_at(ms) for ms in (0, 999, 1_000, 2_999, 3_000, 10**9)] == [
        1,
        1,
        3,
        3,
        4,
        4,
    ]
    assert [schedule.offset_of(n) for n in range(6)] == [0, 0, 1_000, 1_000, 3_000, 3_000]
    assert build_schedule([]).total_ms == 0


def test_playhead_moves_with_the_clock_times_speed() -> None:
    clock = FakeClock()
    head = Playhead(clock, speed=2.0)
    clock.sleep(1.5)
    assert head.position_ms == pytest.approx(3_000)
    assert head.seconds_until(5_000) == pytest.approx(1.0)
    assert head.seconds_until(2_000) == 0.0


def test_playhead_pause_resume_and_speed_change_keep_the_position() -> None:
    clock = FakeClock()
    head = Playhead(clock)
    clock.sleep(1.0)
    head.pause()
    clock.sleep(10.0)
    assert head.position_ms == pytest.approx(1_000)
    assert head.seconds_until(2_000) is None
    head.resume()
    clock.sleep(0.5)
    head.set_speed(10)
    assert head.position_ms == pytest.approx(1_500)
    clock.sleep(0.1)
    assert head.position_ms == pytest.approx(2_500)


def test_playhead_seek() -> None:
    clock = FakeClock()
    head = Playhead(clock, paused=True)
    head.seek(7_000)
    assert head.position_ms == 7_000
    head.seek(-5)
    assert head.position_ms == 0
    with pytest.raises(ValueError):
        head.set_speed(0)


def test_playing_a_schedule_on_a_fake_clock_waits_the_right_total() -> None:
    """Drive the schedule the way a player does: sleep until due, take what is due."""
    clock = FakeClock()
    schedule = build_schedule([(0, None), (400, None), (400, None), (10_400, None)], idle_limit=2)
    head = Playhead(clock, speed=2.0)
    shown: list[tuple[int, float]] = []
    start = clock.now
    index = 0
    while index < len(schedule):
        wait = head.seconds_until(schedule.offsets[index])
        assert wait is not None
        if wait:
            clock.sleep(wait)
            continue
        due = schedule.due_at(head.position_ms)
        for line in range(index, due):
            shown.append((line, round(clock.now - start, 3)))
        index = due
    # Gaps 400 ms, 0, 10 s cut to 2 s; at speed 2: 0.2 s, 0, 1 s.
    assert shown == [(0, 0.0), (1, 0.2), (2, 0.2), (3, 1.2)]


def test_speed_steps() -> None:
    assert faster(1.0) == 2.0
    assert slower(1.0) == 0.5
    assert faster(3.0) == 4.0
    assert slower(3.0) == 2.0
    assert faster(128.0) == 128.0
    assert slower(0.1) == 0.1
