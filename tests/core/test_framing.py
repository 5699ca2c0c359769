"""Framing: bytes in chunks of any size become numbered lines with their offsets."""

from __future__ import annotations

from streamview.core.framing import LineFramer, RawLine
from streamview.core.reader import EventReader, iter_events

SAMPLE = (
    b'{"type":"user","text":"caf\xc3\xa9"}\n'
    b"second line \xe2\x80\x94 em dash\r\n"
    b"\n"
    b"\xf0\x9f\x90\x8d snake\n"
    b"last line without newline"
)
"""Five lines: UTF-8 of 2, 3 and 4 bytes, a CRLF ending, a blank line, no final newline."""


def frame(chunks: list[bytes]) -> list[RawLine]:
    """Every line the framer produces for these chunks, ``finish`` included."""
    framer = LineFramer()
    lines: list[RawLine] = []
    for chunk in chunks:
        lines.extend(framer.feed(chunk))
    lines.extend(framer.finish())
    return lines


def expected_lines(data: bytes) -> list[RawLine]:
    """Lines computed independently of the framer: split on ``\\n``, offsets by summing."""
    lines = []
    offset = 0
    pieces = data.split(b"\n")
    if pieces and pieces[-1] == b"":
        pieces.pop()
    for number, piece in enumerate(pieces, 1):
        body = piece[:-1] if piece.endswith(b"\r") else piece
        lines.append(RawLine(number, offset, body))
        offset += len(piece) + 1
    return lines


def test_whole_input_gives_the_lines_an_independent_split_gives() -> None:
    assert frame([SAMPLE]) == expected_lines(SAMPLE)
    assert len(frame([SAMPLE])) == 5


def test_every_single_split_point_gives_the_same_lines() -> None:
    expected = expected_lines(SAMPLE)
    for cut in range(len(SAMPLE) + 1):
        assert frame([SAMPLE[:cut], SAMPLE[cut:]]) == expected, f"cut at byte {cut}"


def test_every_pair_of_split_points_gives_the_same_lines() -> None:
    expected = expected_lines(SAMPLE)
    size = len(SAMPLE)
    for first in range(0, size + 1, 3):
        for second in range(first, size + 1, 2):
            chunks = [SAMPLE[:first], SAMPLE[first:second], SAMPLE[second:]]
            assert frame(chunks) == expected, (first, second)


def test_byte_by_byte_feeding_gives_the_same_lines() -> None:
    chunks = [SAMPLE[i : i + 1] for i in range(len(SAMPLE))]
    assert frame(chunks) == expected_lines(SAMPLE)


def test_empty_chunks_change_nothing() -> None:
    chunks = [b"", SAMPLE[:10], b"", b"", SAMPLE[10:], b""]
    assert frame(chunks) == expected_lines(SAMPLE)


def test_crlf_line_endings_are_tolerated() -> None:
    lines = frame([b"one\r\ntwo\r\nthree\r\n"])
    assert [line.data for line in lines] == [b"one", b"two", b"three"]
    assert [line.offset for line in lines] == [0, 5, 10]


def test_cr_inside_a_line_is_kept() -> None:
    assert [line.data for line in frame([b"a\rb\n"])] == [b"a\rb"]


def test_final_line_without_newline_still_counts() -> None:
    framer = LineFramer()
    assert framer.feed(b"first\nsecond") == [RawLine(1, 0, b"first")]
    assert framer.pending_bytes == len(b"second")
    assert framer.finish() == [RawLine(2, 6, b"second")]
    assert framer.lines_seen == 2
    assert framer.finish() == []


def test_input_ending_in_newline_has_no_extra_empty_line() -> None:
    assert frame([b"a\nb\n"]) == [RawLine(1, 0, b"a"), RawLine(2, 2, b"b")]


def test_empty_input_has_no_lines() -> None:
    assert frame([]) == []
    assert frame([b""]) == []


def test_blank_lines_are_numbered() -> None:
    lines = frame([b"\n\nx\n"])
    assert [(line.number, line.data) for line in lines] == [(1, b""), (2, b""), (3, b"x")]


def test_a_five_megabyte_line_is_one_line() -> None:
    big = b'{"type":"assistant","text":"' + b"x" * (5 * 1024 * 1024) + b'"}'
    data = b"before\n" + big + b"\nafter\n"
    chunk = 65536
    lines = frame([data[i : i + chunk] for i in range(0, len(data), chunk)])
    assert [line.number for line in lines] == [1, 2, 3]
    assert lines[1].data == big
    assert lines[1].offset == 7
    assert lines[2].offset == 7 + len(big) + 1
    assert lines[2].data == b"after"


def test_a_five_megabyte_line_parses_as_one_event() -> None:
    text = "é" * (5 * 512 * 1024)
    data = (
        b'{"type":"assistant","message":{"content":[{"type":"text","text":"'
        + text.encode()
        + b'"}]},"session_id":"s"}\n'
    )
    events = list(iter_events(data[i : i + 100_000] for i in range(0, len(data), 100_000)))
    assert len(events) == 1
    assert getattr(events[0], "text", None) == text


def test_a_multibyte_character_split_across_chunks_is_not_damaged() -> None:
    data = '{"type":"user","message":{"content":[{"type":"text","text":"🐍—é"}]}}\n'.encode()
    snake = data.index("🐍".encode())
    for cut in range(snake, snake + 4 + 3 + 2 + 1):
        events = list(iter_events([data[:cut], data[cut:]]))
        assert len(events) == 1, cut
        assert getattr(events[0], "text", None) == "🐍—é", cut


def test_offsets_point_at_each_lines_first_byte() -> None:
    for line in frame([SAMPLE[:7], SAMPLE[7:40], SAMPLE[40:]]):
        raw = SAMPLE[line.offset : line.offset + len(line.data)]
        assert raw == line.data, line


def test_event_reader_skips_blank_lines_but_keeps_numbering() -> None:
    reader = EventReader()
    events = reader.feed(b'{"type":"user"}\n\n   \n{"type":"user"}\n')
    assert [event.line for event in events] == [1, 4]
    assert reader.blank_lines == 2


def test_event_reader_parses_the_final_unterminated_line_on_finish() -> None:
    reader = EventReader()
    assert reader.feed(b'{"type":"user"}') == []
    assert reader.pending_bytes == len(b'{"type":"user"}')
    events = reader.finish()
    assert len(events) == 1
    assert events[0].line == 1


def test_unicode_line_separators_do_not_split_lines() -> None:
    """Only the ``\\n`` byte ends a line: U+2028, U+2029 and NEL are text."""
    data = '{"type":"user","t":"a\u2028b\u2029c\u0085d"}\n'.encode()
    lines = frame([data])
    assert len(lines) == 1
    assert lines[0].data == data[:-1]


def test_a_line_over_the_limit_is_cut_wherever_the_chunks_split_it() -> None:
    """Past ``max_line`` only the first bytes are kept, the size is counted, and the
    next line is read whole, with its true offset, whatever the chunk boundaries."""
    from streamview.core import framing

    long_line = b"x" * 300
    data = b"first\n" + long_line + b"\nafter\n" + b"y" * 250
    for size in (1, 7, 64, 299, 301, len(data)):
        framer = LineFramer(max_line=100)
        lines: list[RawLine] = []
        cut: dict[int, int] = {}
        for start in range(0, len(data), size):
            lines.extend(framer.feed(data[start : start + size]))
            cut.update(framer.take_cut() or {})
        lines.extend(framer.finish())
        cut.update(framer.take_cut() or {})
        assert [line.number for line in lines] == [1, 2, 3, 4], size
        assert lines[0].data == b"first" and lines[2].data == b"after"
        assert cut == {2: 300, 4: 250}, size
        # Its start is kept (at most KEPT_BYTES; here the limit is below that).
        assert long_line.startswith(lines[1].data) and len(lines[1].data) >= 100
        assert len(lines[1].data) <= framing.KEPT_BYTES
        assert lines[2].offset == len(b"first\n") + 301, size
        assert framer.pending_bytes == 0


def test_endless_input_without_newline_keeps_memory_bounded() -> None:
    """1 GiB without a newline: the framer holds at most the limit, never the input."""
    framer = LineFramer(max_line=1 << 20)
    chunk = b"\0" * (1 << 20)
    most = 0
    for _ in range(1024):
        assert framer.split(chunk) == []
        most = max(most, len(framer._buffer))  # what is really held in memory
    assert most <= (1 << 20) * 2
    assert framer.pending_bytes == 1 << 30
    assert framer.split(b"\n") == [b"\0" * min(1 << 16, 1 << 30)][:1]
    assert framer.take_cut() == {1: 1 << 30}


def test_a_cut_line_becomes_a_malformed_line_saying_its_size() -> None:
    """The reader shows a cut line as too long, with its size and its first bytes."""
    reader = EventReader(agent="cursor")
    reader.framer.limit = 50
    events = [*reader.feed(b'{"type":"user"}\n' + b"z" * 120 + b"\n"), *reader.finish()]
    bad = events[-1]
    assert bad.line == 2
    assert "too long" in bad.reason and "120 bytes" in bad.reason
    assert bad.raw_size == 120 and bad.raw == b"z" * 120


def test_cutting_at_each_newline_found_gives_what_split_gives() -> None:
    from streamview.core.framing import cut_at_newlines

    for data in (b"", b"\n", b"\n\n", b"a", b"a\n", b"\na", b"ab\ncd\r\n\nef", SAMPLE):
        assert cut_at_newlines(data) == data.split(b"\n"), data
        assert cut_at_newlines(bytearray(data)) == bytearray(data).split(b"\n"), data


def test_long_and_short_lines_give_the_same_lines_whichever_way_a_chunk_is_cut() -> None:
    """A chunk after one of long lines is cut at each newline found, any other by
    ``split``: both ways, any mix of long, short, blank, CRLF and over-the-limit lines
    in chunks of any size gives the lines, sizes and offsets an independent split gives."""
    import random

    from streamview.core import framing

    generator = random.Random(30_8)
    cut_by_find = 0  # chunks cut at each newline found (the other way: the rest)
    for _ in range(60):
        lines = []
        for _ in range(generator.randrange(1, 40)):
            size = generator.choice((0, 1, 5, 80, 900, 1500, 3000, 5000))
            body = bytes(generator.choice(b"ab\r{}\xc3\xa9") for _ in range(size))
            lines.append(body.replace(b"\n", b""))
        data = b"\n".join(lines) + generator.choice((b"", b"\n", b"\r\n"))
        framer = LineFramer(max_line=4000)
        got: list[RawLine] = []
        cut: dict[int, int] = {}
        start = 0
        while start < len(data):
            size = generator.choice((1, 100, 2000, 9000, 40_000))
            cut_by_find += framer._long_lines
            got.extend(framer.feed(data[start : start + size]))
            cut.update(framer.take_cut() or {})
            start += size
        got.extend(framer.finish())
        cut.update(framer.take_cut() or {})
        expected = expected_lines(data)
        assert [(line.number, line.offset) for line in got] == [
            (line.number, line.offset) for line in expected
        ]
        for line, want in zip(got, expected, strict=True):
            if line.number in cut:
                assert cut[line.number] == len(data.split(b"\n")[line.number - 1])
                assert want.data.startswith(line.data[: framing.KEPT_BYTES])
            else:
                assert line.data == want.data
    assert cut_by_find > 50
