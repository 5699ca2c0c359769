"""``--events`` says, byte for byte, what it said before its pipeline was made lean.

``golden.json`` holds the SHA-256 of the ``--events`` output (as
:func:`~streamview.fronts.events_api.to_json_lines` writes it) of every stream the event tests
read. Made faster or smaller in memory, the pipeline must still say the same thing. A
change meant to alter what the events say regenerates the file on purpose::

    STREAMVIEW_UPDATE_GOLDEN=1 python -m pytest tests/events/test_golden.py
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import orjson

from streamview.fronts.events_api import event_batches, to_json_lines

from .streams import REPO, every_stream

GOLDEN = Path(__file__).with_name("golden.json")


def events_output(path: Path) -> bytes:
    """What ``streamview --events PATH`` writes, fed in small chunks as a pipe would."""
    data = path.read_bytes()
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    return b"".join(to_json_lines(batch) for batch in event_batches(chunks))


def digests() -> dict[str, str]:
    return {
        str(path.relative_to(REPO)): hashlib.sha256(events_output(path)).hexdigest()
        for path in every_stream()
    }


def test_events_output_is_unchanged_byte_for_byte_on_every_fixture() -> None:
    now = digests()
    if os.environ.get("STREAMVIEW_UPDATE_GOLDEN"):
        GOLDEN.write_bytes(orjson.dumps(now, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    golden = orjson.loads(GOLDEN.read_bytes())
    assert sorted(now) == sorted(golden), "streams added or gone: regenerate golden.json"
    changed = sorted(name for name in now if now[name] != golden[name])
    assert changed == []
    assert len(now) > 80  # 14 agents' fixtures, the recordings, the real captures
