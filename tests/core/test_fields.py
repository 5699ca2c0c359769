"""The loose field readers, and the shortcut :func:`iso_ms` takes for a minute it has read."""

from __future__ import annotations

import random
from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.core import fields


def _parsed(value: str) -> int | None:
    """What ``iso_ms`` gave before it remembered seconds: a full parse every time."""
    try:
        return int(datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp() * 1000)
    except (ValueError, OverflowError):
        return None


MILLIS = st.text(alphabet="0123456789+-. a\u0661\uff10", min_size=3, max_size=3)


@settings(max_examples=500, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    millis=st.lists(st.one_of(st.integers(0, 999).map("{:03d}".format), MILLIS), min_size=1),
)
def test_a_remembered_second_reads_as_a_full_parse(moment: datetime, millis: list[str]) -> None:
    head = moment.strftime("%Y-%m-%dT%H:%M:%S")
    for part in millis:
        value = f"{head}.{part}Z"
        assert fields.iso_ms(value) == _parsed(value), value
        assert fields.iso_ms(value) == _parsed(value), value  # again, from the cache


SECONDS = st.text(alphabet="0123456789a\u0661 ", min_size=2, max_size=2)


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    seconds=st.lists(st.one_of(st.integers(0, 61).map("{:02d}".format), SECONDS), min_size=1),
)
def test_a_remembered_minute_reads_as_a_full_parse(moment: datetime, seconds: list[str]) -> None:
    """Each second of a minute read once (a run stamping one record a second)."""
    head = moment.strftime("%Y-%m-%dT%H:%M:")
    for part in seconds:
        value = f"{head}{part}.{moment.microsecond // 1000:03d}Z"
        assert fields.iso_ms(value) == _parsed(value), value
        assert fields.iso_ms(value) == _parsed(value), value  # again, from the cache


ZONES = st.sampled_from(["Z", "", "+00:00", "+05:30", "-08:00", "+0100", "z"])
FRACTIONS = st.integers(0, 9).flatmap(
    lambda n: st.just("") if n == 0 else st.text("0123456789", min_size=n, max_size=n)
)


@settings(max_examples=300, deadline=None)
@given(
    moment=st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)),
    times=st.lists(
        st.tuples(
            st.integers(0, 61).map("{:02d}".format),
            st.one_of(st.integers(0, 999).map(".{:03d}".format), FRACTIONS.map(".{}".format)),
            ZONES,
            st.sampled_from("T T"),
        ),
        min_size=1,
        max_size=40,
    ),
)
def test_times_of_any_shape_in_one_minute_read_as_a_full_parse(
    moment: datetime, times: list[tuple[str, str, str, str]]
) -> None:
    """Times of a minute in the usual form (their ten seconds and the rest remembered)
    mixed with other shapes of the same minute: offsets, no zone, a fraction of any
    length or none, a space for the T. Each reads as ``datetime`` parses it."""
    for second, fraction, zone, sep in times:
        head = moment.strftime(f"%Y-%m-%d{sep}%H:%M:")
        value = f"{head}{second}{fraction if fraction != '.' else ''}{zone}"
        assert fields.iso_ms(value) == _parsed(value), value
        assert fields.iso_ms(value) == _parsed(value), value  # again, from the tables


def test_iso_ms_reads_other_forms_the_long_way() -> None:
    for value in [
        "2026-11-20T10:00:00Z",
        "2026-11-20T10:00:00.123456Z",
        "2026-11-20T10:00:00.123+02:00",
        "2026-11-20 10:00:00.123Z",
        "2026-11-20Z10:00:00.123Z",
        "2026-13-20T10:00:00.123Z",
        "1970-01-01T00:00:00.001Z",
        "1969-12-31T23:59:59.999Z",
        "",
        "Z" * 24,
    ]:
        assert fields.iso_ms(value) == _parsed(value), value
        assert fields.iso_ms(value) == _parsed(value), value
    assert fields.iso_ms(None) is None
    assert fields.iso_ms(1_700_000_000_000) is None


def _rounded_down() -> list[tuple[str, int]]:
    """Times whose ``datetime.timestamp() * 1000`` falls just below their millisecond
    (``int`` then gives the one before): the float arithmetic must be ``datetime``'s."""
    found = []
    draw = random.Random(30)
    for _ in range(100_000):
        k = draw.randrange(1_073_741_824_000, 1_099_511_627_776)  # 2004: 2**30 s to 2**40 ms
        if int(k * 1000 / 1_000_000 * 1000) != k:
            moment = datetime.utcfromtimestamp(k // 1000)
            found.append((f"{moment:%Y-%m-%dT%H:%M:%S}.{k % 1000:03d}Z", k))
            if len(found) == 40:
                break
    return found


def test_times_rounded_down_by_datetime_read_so_from_the_tables() -> None:
    values = _rounded_down()
    assert values
    for value, ms in values:
        assert fields.iso_ms(value) == _parsed(value) == ms - 1, value
        assert fields.iso_ms(value) == _parsed(value), value  # from the tables


@settings(max_examples=200, deadline=None)
@given(
    moment=st.one_of(
        st.datetimes(min_value=datetime(1683, 1, 1), max_value=datetime(1687, 1, 1)),
        st.datetimes(min_value=datetime(2253, 1, 1), max_value=datetime(2257, 1, 1)),
    ),
    millis=st.lists(st.integers(0, 999), min_size=1, max_size=5),
)
def test_times_about_the_exact_floats_edge_read_as_a_full_parse(
    moment: datetime, millis: list[int]
) -> None:
    """Years about 1685 and 2255, where epoch microseconds stop being exact floats: the
    tables keep none of the times past it, and each reads as ``datetime`` parses it."""
    for ms in millis:
        value = f"{moment:%Y-%m-%dT%H:%M:%S}.{ms:03d}Z"
        assert fields.iso_ms(value) == _parsed(value), value
        assert fields.iso_ms(value) == _parsed(value), value
    assert all(abs(base) < 2**53 for base in fields._TENS.values())


def test_iso_ms_of_what_is_not_a_string_is_none() -> None:
    fields.iso_ms("2026-11-20T10:00:00.123Z")  # its ten seconds in the tables
    for value in [None, 0, 1.5, True, [], ["2026-11-20T10:00:00.123Z"], {}, {"a": 1}, b"x" * 24]:
        assert fields.iso_ms(value) is None, value


def _as_int(value: object) -> int | None:
    """``as_int`` as it was written first: each type asked in turn."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value == value and abs(value) < 1e18 else None
    if isinstance(value, str) and value.isascii() and value.strip().lstrip("-").isdigit():
        try:
            return int(value)
        except ValueError:
            return None
    return None


JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers().map(str),
    st.text(alphabet="0123456789-+ .e_\u0661\uff10\u00b2x\t", max_size=12),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@settings(max_examples=1000, deadline=None)
@given(value=JSON_SCALARS)
def test_as_int_reads_as_each_type_asked_in_turn(value: object) -> None:
    assert fields.as_int(value) == _as_int(value)
    assert fields.as_int(value).__class__ is _as_int(value).__class__


def test_as_int_of_a_string_too_long_for_int_is_none() -> None:
    assert fields.as_int("9" * 5000) is None
    assert fields.as_int(" -" + "9" * 5000) is None
    assert fields.as_int(10**30) == 10**30
