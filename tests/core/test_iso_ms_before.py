""":func:`~streamview.core.fields.iso_ms` adding integer milliseconds from its tables gives
what it gave with float tables (the code of 1e7e1a5, copied below) and what a full parse
gives, on every input: the agents' usual form, every other form ``datetime`` reads, and
what it does not."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import fields


def _parsed(value: Any) -> int | None:
    """A full parse, every time (what the tables stand for)."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        return None


class _Before:
    """``iso_ms`` as it was at 1e7e1a5: float tables of microseconds, one ``int()``."""

    def __init__(self) -> None:
        self.minutes: dict[str, int] = {}
        self.tens: dict[str, float] = {}
        self.past: dict[str, float] = {}

    def __call__(self, value: Any) -> int | None:
        try:
            return int((self.tens[value[:18]] + self.past[value[18:]]) / 1_000_000 * 1000)
        except (KeyError, TypeError):
            pass
        if value.__class__ is str and len(value) == 24:
            return self._learn(value)
        return _parsed(value)

    def _learn(self, value: str) -> int | None:
        second = fields._SECONDS.get(value[17:20])
        micros = fields._MILLIS.get(value[20:])
        if second is None or micros is None:
            return _parsed(value)
        minute = self.minutes.get(value[:17])
        if minute is None:
            result = _parsed(value)
            whole = None if result is None else _parsed(value[:17] + "00Z")
            if whole is None or not -fields._EXACT < whole * 1000 < fields._EXACT:
                return result
            if len(self.minutes) >= fields._KEPT:
                self.minutes.clear()
            minute = self.minutes[value[:17]] = whole * 1000
        else:
            result = int((minute + second + micros) / 1_000_000 * 1000)
        tens = fields._TEN_SECONDS[value[17]]
        if len(self.tens) >= fields._KEPT:
            self.tens.clear()
        self.tens[value[:18]] = float(minute + tens)
        self.past[value[18:]] = float(second - tens + micros)
        return result


def _same(before: _Before, value: Any) -> None:
    """Read twice (the second time from the tables, if the first kept it), by both."""
    expected = _parsed(value)
    for _ in range(2):
        assert before(value) == expected, value
        assert fields.iso_ms(value) == expected, value


HAND_PICKED = [
    "2026-08-03T09:00:03.000z",  # a lowercase z: datetime reads none
    "2026-08-03T09:00:03.123z",
    "2026-08-03t09:00:03.123Z",  # a lowercase t: datetime reads it
    "2026-08-03 09:00:03.123Z",
    "2026-08-03T09:00:03Z",
    "2026-08-03T09:00:03",
    "2026-08-03T09:00Z",
    "2026-08-03T09Z",
    "2026-08-03",
    "2026-08-03T09:00:03.1Z",
    "2026-08-03T09:00:03.12Z",
    "2026-08-03T09:00:03.1234Z",
    "2026-08-03T09:00:03.12345Z",
    "2026-08-03T09:00:03.123456Z",
    "2026-08-03T09:00:03.1234567Z",
    "2026-08-03T09:00:03.12345678Z",
    "2026-08-03T09:00:03.123456789Z",
    "2026-08-03T09:00:03.999999999Z",
    "2026-08-03T09:00:03,123Z",
    "2026-08-03T09:00:03.123+00:00",
    "2026-08-03T09:00:03.123+05:30",
    "2026-08-03T09:00:03.123-08:00",
    "2026-08-03T09:00:03.123+0100",
    "2026-08-03T09:00:03.123+01",
    "2026-08-03T09:00:03.123-00:00",
    "2026-08-03T09:00:03.123+24:00",
    "2016-12-31T23:59:60.000Z",  # a leap second: datetime reads none
    "2026-08-03T09:00:60.000Z",
    "2026-08-03T09:00:61.000Z",
    "2026-08-03T09:60:00.000Z",
    "2026-08-03T24:00:00.000Z",
    "2026-08-32T09:00:00.000Z",
    "2026-02-29T09:00:00.000Z",
    "2024-02-29T09:00:00.000Z",
    "2026-13-03T09:00:00.000Z",
    "2026-00-03T09:00:00.000Z",
    "0000-08-03T09:00:00.000Z",
    "0001-01-01T00:00:00.000Z",
    "9999-12-31T23:59:59.999Z",
    "2026-08-03T09:00:0x.000Z",
    "2026-08-03T09:00:03.00xZ",
    "2026-08-03T09:00:03.0000",
    "2026-08-03T09:00:03.000ZZ",
    "2026-08-03T09:00:03.-01Z",
    "2026-08-03T09:00:03.+01Z",
    "2026-08-03T09:00:03. 01Z",
    "2026-08-03T09:00:0\u0663.000Z",  # an Arabic-Indic digit
    "2026-08-03T09:00:03.\u0661\u0662\u0663Z",
    "2026-08-03T09:00:03.\uff11\uff12\uff13Z",  # full-width digits
    "2026-08-03T09:00:03:000Z",
    "2026-08-03T09:00:03.000 ",
    " 2026-08-03T09:00:03.00Z",
    "2026-W31-1T09:00:03.000Z",
    "20260803T090003.000Z",
    "2026-08-03T09:00:03.000Z\n",
    "Z" * 24,
    "",
    "garbage",
    "2026-08-03T09:00:03.000",
]


def test_hand_picked_times_read_as_before_with_their_ten_seconds_read_first() -> None:
    """Each form after a time of the same ten seconds (so a rest that is not the usual
    form meets a ten seconds in the tables), and alone."""
    before = _Before()
    for value in HAND_PICKED:
        _same(before, "2026-08-03T09:00:01.000Z")
        _same(before, "2016-12-31T23:59:51.000Z")
        _same(before, value)
        _same(before, value[:18] + "1.000Z")
    for value in [None, 0, 1.5, True, [], [HAND_PICKED[0]], {}, {"a": 1}, b"x" * 24, ("a",) * 24]:
        _same(before, value)


def _around(edge_ms: int) -> list[str]:
    """Every millisecond of the ten seconds before and after those holding ``edge_ms``."""
    start = edge_ms // 10_000 * 10_000 - 20_000
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    values = []
    for ms in range(start, start + 50_000):
        moment = epoch + timedelta(milliseconds=ms)
        values.append(f"{moment:%Y-%m-%dT%H:%M:%S}.{ms % 1000:03d}Z")
    return values


def test_every_millisecond_about_the_near_span_s_edges_reads_as_before() -> None:
    """Five windows of ten seconds about 2**40 ms (2004-11-03) and about 2**31 s
    (2038-01-19), all their milliseconds, in order and shuffled, twice each."""
    before = _Before()
    for edge in (2**40, 2**31 * 1000):
        values = _around(edge)
        random.Random(edge).shuffle(shuffled := list(values))
        for value in values + shuffled:
            expected = _parsed(value)
            assert fields.iso_ms(value) == expected == before(value), value
    assert all(fields._NEAR_FROM <= ms * 1000 <= fields._NEAR_TO for ms in fields._TENS.values())


def _rounded_down_after_2038() -> list[tuple[str, int]]:
    """Times past 2**31 s whose ``datetime.timestamp() * 1000`` falls just below their
    millisecond (a quarter of them until 2**41 ms): the tables must not keep them."""
    found = []
    draw = random.Random(31)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    while len(found) < 40:
        k = draw.randrange(2**31 * 1000, 2**41)
        if int(k * 1000 / 1_000_000 * 1000) != k:
            moment = epoch + timedelta(milliseconds=k)
            found.append((f"{moment:%Y-%m-%dT%H:%M:%S}.{k % 1000:03d}Z", k))
    return found


def test_times_after_2038_rounded_down_by_datetime_read_so() -> None:
    for value, ms in _rounded_down_after_2038():
        for _ in range(3):
            assert fields.iso_ms(value) == _parsed(value) == ms - 1, value


YEARS = st.one_of(
    st.datetimes(min_value=datetime(2004, 10, 1), max_value=datetime(2004, 12, 1)),
    st.datetimes(min_value=datetime(2024, 1, 1), max_value=datetime(2027, 1, 1)),
    st.datetimes(min_value=datetime(2037, 12, 1), max_value=datetime(2039, 10, 1)),
    st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
)
FRACTIONS = st.integers(0, 9).flatmap(
    lambda n: st.just("") if n == 0 else st.text("0123456789", min_size=n, max_size=n)
)
PARTS = st.tuples(
    st.one_of(st.integers(0, 59), st.integers(0, 62), st.integers(0, 59)).map("{:02d}".format),
    st.one_of(
        st.integers(0, 999).map(".{:03d}".format),
        st.integers(0, 999).map(".{:03d}".format),
        FRACTIONS.map(".{}".format),
    ),
    st.sampled_from(["Z", "Z", "Z", "z", "", "+00:00", "+05:30", "-08:00", "+0100", "Zx"]),
    st.sampled_from("TTTt "),
    st.one_of(st.none(), st.tuples(st.integers(0, 30), st.sampled_from("0123456789:.-+Zz \u0661"))),
)


@settings(max_examples=400, deadline=None)
@given(moment=YEARS, parts=st.lists(PARTS, min_size=1, max_size=30))
def test_generated_times_read_as_before(
    moment: datetime, parts: list[tuple[str, str, str, str, tuple[int, str] | None]]
) -> None:
    """Times of one minute (a run's stamps), most in the usual form, others with a
    lowercase z, an offset or none, 0 to 9 fraction digits, a leap or impossible second,
    or a character of the usual form swapped for another."""
    before = _Before()
    for second, fraction, zone, sep, swap in parts:
        value = f"{moment:%Y-%m-%d}{sep}{moment:%H:%M:}{second}{fraction}{zone}"
        if swap is not None and swap[0] < len(value):
            value = value[: swap[0]] + swap[1] + value[swap[0] + 1 :]
        _same(before, value)
