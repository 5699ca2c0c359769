"""Fast checks of the synthetic stream builders, the benchmark generator and recordings/."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
RECORDINGS = ROOT / "recordings"
REAL = ROOT / "tests" / "fixtures" / "cursor-real"

sys.path.insert(0, str(BENCH))

import generate  # noqa: E402  (bench/ holds scripts, not a package)
import make_recordings  # noqa: E402
import synth  # noqa: E402

RECORDING_FILES = sorted(RECORDINGS.glob("*.ndjson"))


def load(path: Path) -> list[dict[str, Any]]:
    """Parse every line of a recording."""
    return [orjson.loads(line) for line in path.read_bytes().split(b"\n") if line]


def tool_kind(record: dict[str, Any]) -> str:
    """The key ending in ``ToolCall``."""
    return next(k for k in record["tool_call"] if k.endswith("ToolCall"))


def test_generator_is_deterministic() -> None:
    """The same seed gives the same bytes; another seed gives other bytes."""
    runs = []
    for seed in (5, 5, 6):
        out = io.BytesIO()
        generate.write_recording(out, 1500, seed)
        runs.append(out.getvalue())
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_recordings_exist() -> None:
    """All five demo recordings are present."""
    names = {p.name for p in RECORDING_FILES}
    assert set(make_recordings.RECORDINGS) <= names


def test_recordings_are_current() -> None:
    """recordings/ matches what bench/make_recordings.py writes."""
    for name, data in make_recordings.render().items():
        assert (RECORDINGS / name).read_bytes() == data, f"{name}: rerun make_recordings.py"


@pytest.mark.parametrize("path", RECORDING_FILES, ids=lambda p: p.name)
def test_recording_lines(path: Path) -> None:
    """Every line is an object with type and session_id, stamped last, non-decreasing."""
    last = 0
    for raw in path.read_bytes().split(b"\n")[:-1]:
        record = orjson.loads(raw)
        assert isinstance(record, dict)
        assert isinstance(record["type"], str) and record["session_id"]
        recv = record["streamview_recv_ms"]
        assert list(record)[-1] == "streamview_recv_ms"
        assert isinstance(recv, int) and recv >= last
        assert recv >= record.get("timestamp_ms", 0)
        last = recv
    assert path.read_bytes().endswith(b"\n")


@pytest.mark.parametrize("path", RECORDING_FILES, ids=lambda p: p.name)
def test_tool_calls_pair_up(path: Path) -> None:
    """started/completed pair by call_id, except the denied search and the cut stream."""
    started: dict[str, str] = {}
    unmatched_completed = []
    for record in load(path):
        if record["type"] != "tool_call":
            continue
        call_id = record["call_id"]
        if record["subtype"] == "started":
            assert call_id not in started
            started[call_id] = tool_kind(record)
        elif call_id in started:
            assert started.pop(call_id) == tool_kind(record)
        else:
            unmatched_completed.append(record)
    for record in unmatched_completed:
        body = record["tool_call"][tool_kind(record)]
        assert tool_kind(record) == "webSearchToolCall" and "rejected" in body["result"]
    if path.name == "denied-tools.ndjson":
        assert len(unmatched_completed) == 1
    if path.name == "failure-no-result.ndjson":
        assert list(started.values()) == ["shellToolCall"]
    else:
        assert not started


def test_failure_recording_has_no_result() -> None:
    """The cut run ends without result; the others end with result/success."""
    for path in RECORDING_FILES:
        types = [r["type"] for r in load(path)]
        if path.name == "failure-no-result.ndjson":
            assert "result" not in types
        else:
            assert types[-1] == "result"


def test_result_concatenates_segments() -> None:
    """result.result is the assistant segments glued together, recaps counted once."""
    for path in RECORDING_FILES:
        records = load(path)
        if records[-1]["type"] != "result":
            continue
        segments = [
            r["message"]["content"][0]["text"]
            for r in records
            if r["type"] == "assistant" and ("model_call_id" in r or "timestamp_ms" not in r)
        ]
        assert records[-1]["result"] == "".join(segments)


def test_generate_cli_size() -> None:
    """generate.py --events 2000 writes ~2000 lines averaging 0.4-1.2 KB."""
    out = ROOT / "bench" / "data" / "test_synth_2000.ndjson"
    try:
        subprocess.run(
            [sys.executable, str(BENCH / "generate.py"), "--events", "2000", "--out", str(out)],
            check=True,
            capture_output=True,
        )
        data = out.read_bytes()
    finally:
        out.unlink(missing_ok=True)
    lines = data.count(b"\n")
    assert 1800 <= lines <= 2200
    assert 0.4 <= len(data) / lines / 1024 <= 1.2


def test_add_recv() -> None:
    """The arrival time goes in as the last key, also for an empty object."""
    assert synth.add_recv(b'{"type":"x"}', 12) == b'{"type":"x","streamview_recv_ms":12}'
    assert synth.add_recv(b"{}", 7) == b'{"streamview_recv_ms":7}'


def test_split_deltas_round_trips() -> None:
    """Deltas always concatenate back to the text."""
    import random

    text = "A **bold** start.\n\n```python\nx = 1\n```\n\n- end  \n"
    for seed in range(20):
        assert "".join(synth.split_deltas(text, random.Random(seed))) == text


def test_unified_diff_matches_cli() -> None:
    """diffString headers and hunks look exactly like the CLI's."""
    assert synth.unified_diff("/w/notes.txt", "alpha\nbeta\n", "alpha\nbeta\nprobe13\n") == (
        "--- a//w/notes.txt\n+++ b//w/notes.txt\n@@ -1,2 +1,3 @@\n alpha\n beta\n+probe13"
    )
    assert synth.unified_diff("/tmp/note.txt", None, "DONE") == (
        "--- /dev/null\n+++ b//tmp/note.txt\n@@ -1,0 +1 @@\n+DONE"
    )


def test_builders_reproduce_real_lines() -> None:
    """Rebuilding lines of a real capture with the builders gives identical bytes."""
    lines = (REAL / "hcn_2026.09.10_probe-13_read-edit-composer.ndjson").read_bytes().split(b"\n")
    real = {i: orjson.loads(line) for i, line in enumerate(lines) if line}
    sid = real[0]["session_id"]
    path = "/hcn-cursor-spike/ws-main/notes.txt"
    read = real[6]
    built = [
        synth.init_record(sid, "/hcn-cursor-spike/ws-main", "Composer 2.5 Fast"),
        synth.thinking_delta_record(sid, 'Appending "probe13" ', 1789566878008),
        synth.assistant_record(
            sid,
            "I'll read `notes.txt` and append `probe13` to the end.\n",
            model_call_id=read["model_call_id"],
            timestamp_ms=1789566878009,
        ),
        synth.tool_call_started_record(
            sid,
            read["call_id"],
            "readToolCall",
            synth.read_args(path),
            started_at_ms=1789566878052,
            timestamp_ms=1789566878009,
            model_call_id=read["model_call_id"],
        ),
    ]
    assert [orjson.dumps(b) for b in built] == [lines[0], lines[2], lines[5], lines[6]]
    edit = real[15]
    body = synth.edit_success(path, "alpha\nbeta\n", "alpha\nbeta\nprobe13\n")
    got = edit["tool_call"]["editToolCall"]
    assert body == got["result"]
    assert synth.edit_args(path, "alpha\nbeta\nprobe13\n") == got["args"]


def test_queries_use_english_past_participles() -> None:
    """The long recording once asked "where is the config lookuped" and "resolveed"."""
    past_participle = synth.past_participle
    assert past_participle("lookup") == "looked up"
    assert past_participle("resolve") == "resolved"
    assert past_participle("retry") == "retried"
    assert past_participle("load") == "loaded"
    for verb in synth.VERBS:
        done = past_participle(verb)
        assert not done.endswith(("eed", "uped")), (verb, done)
    recording = (ROOT / "recordings" / "long-run.ndjson").read_text()
    assert "lookuped" not in recording and "resolveed" not in recording
