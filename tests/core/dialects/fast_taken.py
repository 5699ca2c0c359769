"""Which lines of a stream a dialect's ``fast_line`` takes, read as the fold reads them."""

from __future__ import annotations

from typing import Any

import orjson

from streamview.core.tools import Said, target_of


def taken_lines(translator: Any, data: bytes) -> set[int]:
    """The 1-based numbers of ``data``'s lines that ``translator.fast_line`` takes; each
    line it declines goes the general way, as the fold does, keeping the translator's
    state (a fast path's test of this set proves the fast path is used at all)."""
    taken = set()
    for number, line in enumerate(data.splitlines(), 1):
        if translator.fast_line(line, number) is not None:
            taken.add(number)
        else:
            translator.translate(orjson.loads(line), number, None)
    return taken


def assert_fast_line_agrees(
    by_bytes: Any, by_dict: Any, data: bytes, plain: Any, state: Any = vars
) -> None:
    """Read ``data`` with two fresh translators, one line at a time: every record
    ``by_bytes.fast_line`` gives is what ``by_dict.fast`` gives for the decoded line (both
    through ``plain``), and after each line both translators are in the same ``state``."""
    for number, line in enumerate(data.splitlines(), 1):
        record = orjson.loads(line)
        from_bytes = by_bytes.fast_line(line, number)
        from_dict = by_dict.fast(record, number)
        if from_bytes is not None:
            from_bytes, from_dict = target_checked(from_bytes), target_checked(from_dict)
            assert plain(from_bytes) == plain(from_dict), line
        elif from_dict is None:
            by_bytes.translate(record, number, None)
            by_dict.translate(record, number, None)
        else:
            by_bytes.fast(record, number)
        assert state(by_bytes) == state(by_dict), line


def said_built(record: Any) -> Any:
    """A fast record with a said result as what it says (its payload built), for
    :func:`assert_fast_line_agrees`: ``fast_line`` gives a :class:`Said` where ``fast``
    may give the payload."""
    if not isinstance(record, tuple) or record[0] != "tool_call":
        return record
    fields = list(record[2])
    said = fields[6]
    if isinstance(said, Said):
        fields[6] = (said.kind, said.status, said.summary, said.numbers, said.build())
    return (*record[:2], tuple(fields), *record[3:])


def target_checked(record: Any) -> Any:
    """A fast call record whose fields hand the call's target over (a thirteenth field)
    as one without it, once that target is checked to be what the fold would work out
    (:func:`~streamview.core.tools.target_of` of the call's kind and arguments): a fast
    path may hand it over where the general one does not."""
    if not isinstance(record, tuple) or record[0] not in ("tool_call", "answer_call"):
        return record
    text, fields = (None, record[2]) if record[0] == "tool_call" else record[2]
    if len(fields) != 13:
        return record
    assert fields[12] == target_of(fields[3], fields[4]), fields
    fields = fields[:12]
    return (*record[:2], fields if text is None else (text, fields), *record[3:])
