"""``streamview --print``: one readable line per happening, nothing from the stream raw."""

from __future__ import annotations

import io
import subprocess
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from streamview.cli import main
from streamview.core.reader import EventReader
from streamview.core.state import Block, StreamState
from streamview.fronts.printer import Printer

from .helpers import (
    assistant_record,
    capture_files,
    child_env,
    command,
    init_record,
    ndjson,
    result_record,
    run,
    tool_record,
    user_record,
)

FILES = capture_files()


def capture(part: str) -> Path:
    """The one capture whose name holds ``part``."""
    (path,) = [p for p in FILES if part in p.name]
    return path


def printed(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    """Run ``main`` in-process; return its exit code and the lines it printed."""
    code = main(args)
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, captured.out.splitlines()


def index_of(lines: list[str], *parts: str) -> int:
    """Index of the first line holding every part (fails when there is none)."""
    for index, line in enumerate(lines):
        if all(part in line for part in parts):
            return index
    raise AssertionError(f"no line with {parts!r} in:\n" + "\n".join(lines))


# -- real captures -----------------------------------------------------------------------------


def test_print_parallel_sleep_shows_session_prompt_calls_and_outcome(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines = printed(["--print", str(capture("parallel-sleep"))], capsys)
    assert code == 0
    session = index_of(lines, "1e273e42-21dd-4b5e-9c2a-1cbbde35ae1c", "Auto")
    prompt = index_of(lines, "Run these two bash commands in parallel")
    start_6 = index_of(lines, "-> shell `sleep 6`")
    start_4 = index_of(lines, "-> shell `sleep 4`")
    end_4 = index_of(lines, "shell `sleep 4`", "succeeded", "exit 0")
    end_6 = index_of(lines, "shell `sleep 6`", "succeeded", "exit 0")
    answer = [line.strip() for line in lines].index("done")
    outcome = index_of(lines, "success", "13.0s")
    # in the order the capture tells it: sleep 4 completes before sleep 6
    assert session < prompt < start_6 < start_4 < end_4 < end_6 < outcome
    assert end_6 < answer < outcome
    assert "succeeded" not in lines[start_6] and "succeeded" not in lines[start_4]


def test_print_probe_15_shows_each_denial_with_its_target_and_reason(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines = printed(["--print", str(capture("probe-15_denials"))], capsys)
    assert code == 0
    index_of(lines, "Fetch https://example.com and tell me its page title")
    start = index_of(lines, "webFetch", "https://example.com")
    end = index_of(lines, "webFetch", "https://example.com", "rejected", "User Rejected")
    assert start < end
    index_of(lines, "shell", "curl -sL https://example.com", "rejected")
    index_of(lines, "webSearch", "example.com page title", "rejected", "User Rejected")
    index_of(lines, "**Example Domain**")
    last = lines[-1]
    assert "success" in last and "16.7s" in last and "25,755" in last


def test_print_shows_the_answer_as_it_grows_from_deltas(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines = printed(["--print", str(capture("09.15_probe-11"))], capsys)
    assert code == 0
    poem = [line for line in lines if "River" in line and "Write a four-line" not in line]
    assert [line.strip() for line in poem] == [
        "River remembers the weathered stones and light",
        "River carries the small boats of our unspoken dreams",
        "River writes secret maps along the sleeping banks",
        "River keeps moving, learning language from the sea",
    ]


def test_print_shows_connection_notices_and_the_result_text_without_assistant_records(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, lines = printed(["--print", str(capture("unknownrepo"))], capsys)
    assert code == 0
    index_of(lines, "connection", "reconnecting")
    index_of(lines, "retry", "starting")
    index_of(lines, "glob", "**/app.ts", "1 file")
    index_of(lines, "edit", "/tmp/cursor-probe/note.txt", "+1 -0")
    index_of(lines, "Read app.ts and created note.txt.")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_print_every_capture_exits_0_and_prints_each_call_twice(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, lines = printed(["--print", str(path)], capsys)
    assert code == 0
    records = [orjson.loads(raw) for raw in path.read_bytes().splitlines() if raw.strip()]
    starts = sum(1 for r in records if r["type"] == "tool_call" and r["subtype"] == "started")
    ends = sum(1 for r in records if r["type"] == "tool_call" and r["subtype"] == "completed")
    assert sum(1 for line in lines if line.startswith("-> ")) == starts
    assert sum(1 for line in lines if "· succeeded" in line or "· rejected" in line) == ends
    assert lines[-1].startswith("== success")


# -- as it happens -----------------------------------------------------------------------------


def test_print_writes_each_line_as_its_input_arrives() -> None:
    """A pipe fed one record at a time: each call start is printed before the next arrives."""
    process = subprocess.Popen(
        command("--print", "-"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(ndjson(init_record(), user_record("go")))
        process.stdin.flush()
        assert b"session" in process.stdout.readline()
        assert process.stdout.readline().startswith(b"> go")
        process.stdin.write(ndjson(tool_record("started", "c", "shell", {"command": "make"})))
        process.stdin.flush()
        assert process.stdout.readline().startswith(b"-> shell `make`")
        process.stdin.write(
            ndjson(tool_record("completed", "c", "shell", None, {"success": {"exitCode": 2}}))
        )
        process.stdin.flush()
        line = process.stdout.readline()
        assert b"failed" in line and b"exit 2" in line
        process.stdin.close()
        rest = process.stdout.read()
        assert b"incomplete" in rest
        assert process.wait(timeout=30) == 1
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_session_started_by_a_new_session_id_gets_its_own_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.ndjson"
    second = result_record("second answer", session_id="other-session")
    path.write_bytes(ndjson(init_record(), user_record("one"), result_record("first"), second))
    code, lines = printed(["--print", str(path)], capsys)
    assert code == 0
    first_header = index_of(lines, "== session", "5e551011")
    second_header = index_of(lines, "== session", "other-session")
    assert first_header < index_of(lines, "first") < second_header
    assert second_header < index_of(lines, "second answer")


def test_a_lone_result_prints_its_text_as_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lone.json"
    path.write_bytes(
        b'{"type":"result","subtype":"success","is_error":false,"duration_ms":5623,'
        b'"result":"pong41 --continue\\nsecond line","session_id":"f008","request_id":"6d77"}'
    )
    code, lines = printed(["--print", str(path)], capsys)
    assert code == 0
    assert [line.strip() for line in lines[1:3]] == ["pong41 --continue", "second line"]
    assert lines[-1].startswith("== success")


def test_print_is_used_when_stdout_is_not_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "run.ndjson"
    path.write_bytes(
        ndjson(
            init_record(),
            user_record("auto print"),
            tool_record("started", "c", "read", {"path": "src/app.py"}),
            tool_record("completed", "c", "read", None, {"success": {"totalLines": 40}}),
            assistant_record("It is fine."),
            result_record("It is fine."),
        )
    )
    automatic = run(str(path))
    explicit = run("--print", str(path))
    assert automatic.returncode == explicit.returncode == 0
    assert automatic.stderr == b""
    assert automatic.stdout == explicit.stdout
    text = automatic.stdout.decode()
    assert "> auto print" in text
    assert "-> read src/app.py" in text
    assert "read src/app.py · succeeded · 40 lines" in text
    assert "It is fine." in text


# -- nothing raw -------------------------------------------------------------------------------

ESC = "\x1b"
NASTY = f"{ESC}]0;owned\x07{ESC}[2J{ESC}[31mred{ESC}[0m\rback\x9b6n\x08\x00{ESC}P1$q{ESC}\\"


def hostile_stream() -> bytes:
    """Control characters and escape sequences in every field the printer shows."""
    second = f"sid{NASTY}"
    interrupted = tool_record("started", "x", "read", {"path": NASTY})
    interrupted["session_id"] = second
    return (
        ndjson(
            init_record(model=f"m{NASTY}", cwd=f"/w{NASTY}"),
            user_record(f"prompt{NASTY}"),
            {"type": "thinking", "subtype": "delta", "text": f"think{NASTY}\n"},
            {"type": "thinking", "subtype": "completed"},
            assistant_record(f"delta{NASTY}\n", timestamp_ms=1),
            assistant_record(f"recap{NASTY}\n", model_call_id="m", timestamp_ms=2),
            tool_record("started", f"id{NASTY}", "shell", {"command": f"echo {NASTY}"}),
            tool_record(
                "completed",
                f"id{NASTY}",
                "shell",
                None,
                {"failure": {"exitCode": 1, "stdout": f"out{NASTY}\r\n", "stderr": NASTY}},
            ),
            tool_record("started", "e", f"evil{ESC}[2J", {"path": f"p{NASTY}"}),
            tool_record("completed", "e", f"evil{ESC}[2J", None, {"error": {"message": NASTY}}),
            tool_record(
                "completed", "r", "webFetch", {"url": NASTY}, {"rejected": {"reason": NASTY}}
            ),
            {"type": f"new{NASTY}", "subtype": f"sub{NASTY}"},
            {"type": "connection", "subtype": f"re{NASTY}", "endpoint_url": f"u{NASTY}"},
            assistant_record(f"final{NASTY}"),
            result_record(f"final{NASTY}"),
        )
        + f"not json {NASTY}\n".encode()
        + b"\xff\xfe invalid \x1b[2J \xc2\x9b\n"
        + ndjson(init_record(session_id=second), interrupted)
    )


def assert_no_controls(output: bytes) -> None:
    """No C0 control but newline and tab, no DEL, no C1 control, no escape."""
    assert b"\x1b" not in output
    assert b"\x07" not in output
    assert b"\r" not in output
    text = output.decode("utf-8")
    bad = sorted(
        {
            f"U+{ord(c):04X}"
            for c in text
            if (ord(c) < 0x20 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
        }
    )
    assert bad == [], bad


def test_escape_sequences_from_the_stream_are_never_written_raw(tmp_path: Path) -> None:
    path = tmp_path / "hostile.ndjson"
    path.write_bytes(hostile_stream())
    completed = run("--print", str(path))
    assert completed.returncode == 1, completed.stderr
    assert b"Traceback" not in completed.stderr
    assert_no_controls(completed.stdout)
    text = completed.stdout.decode()
    # the content is shown, made inert, not dropped
    for visible in ("prompt", "think", "delta", "recap", "final", "owned", "back", "not json"):
        assert visible in text, visible
    assert "interrupted" in text
    assert sum(1 for line in text.splitlines() if line.startswith("== session")) == 2


def test_escape_sequences_never_written_raw_through_stdin_either() -> None:
    completed = run("-", stdin=hostile_stream())
    assert_no_controls(completed.stdout)
    assert b"Traceback" not in completed.stderr


# -- a reader that leaves ------------------------------------------------------------------------


def test_a_reader_that_leaves_early_gets_the_runs_status(tmp_path: Path) -> None:
    """``streamview --print big.ndjson | head -1``: no error, and the exit status of a run
    without a result is 1 whenever the reader left (it was 0 or 1, by a race)."""
    path = tmp_path / "big.ndjson"
    records = [init_record(), user_record("many")]
    for n in range(20_000):
        records.append(assistant_record(f"segment {n}\n", model_call_id=f"m{n}", timestamp_ms=n))
    path.write_bytes(ndjson(*records))
    producer = subprocess.Popen(
        command("--print", str(path)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    head = subprocess.Popen(["head", "-1"], stdin=producer.stdout, stdout=subprocess.PIPE)
    assert producer.stdout is not None and producer.stderr is not None
    producer.stdout.close()  # only head reads the pipe now
    first, _ = head.communicate(timeout=60)
    stderr = producer.stderr.read()
    code = producer.wait(timeout=60)
    assert first.startswith(b"== session")
    assert b"Traceback" not in stderr
    assert stderr == b""
    assert code == 1


# -- the printed text is the text, in any interleaving ------------------------------------------

TEXT_PIECES = ["a", "bc", " ", "\n", "\n\n", "**", "```", "d\ne"]


@st.composite
def printable_runs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """Token deltas, thinking deltas and tool calls in a random order."""
    records: list[dict[str, Any]] = [init_record(), user_record("go")]
    open_calls: list[str] = []
    for step in range(draw(st.integers(min_value=0, max_value=60))):
        what = draw(st.sampled_from(["delta", "delta", "delta", "think", "done", "start", "end"]))
        if what == "delta":
            records.append(assistant_record(draw(st.sampled_from(TEXT_PIECES)), timestamp_ms=1))
        elif what == "think":
            piece = draw(st.sampled_from(TEXT_PIECES))
            records.append({"type": "thinking", "subtype": "delta", "text": piece})
        elif what == "done":
            records.append({"type": "thinking", "subtype": "completed"})
        elif what == "start":
            open_calls.append(f"c{step}")
            records.append(tool_record("started", f"c{step}", "read", {"path": f"f{step}"}))
        elif open_calls:
            call_id = open_calls.pop(draw(st.integers(0, len(open_calls) - 1)))
            records.append(
                tool_record("completed", call_id, "read", None, {"success": {"totalLines": 1}})
            )
    return records


def squeeze(texts: list[str]) -> str:
    """The texts glued together with all white space taken out."""
    return "".join("".join(texts).split())


@settings(max_examples=150, deadline=None)
@given(printable_runs())
def test_printed_answer_and_thinking_are_the_folded_ones(records: list[dict[str, Any]]) -> None:
    data = ndjson(*records)
    state = StreamState(track_changes=False)
    out = io.StringIO()
    printer = Printer(out, state)
    reader = EventReader()
    for event in [*reader.feed(data), *reader.finish()]:
        printer.handle(event, state.apply(event))
    state.finish()
    printer.finish()
    lines = out.getvalue().splitlines()
    (session,) = state.sessions
    answer = [line[3:] for line in lines if line.startswith("   ")]
    thoughts = [line[4:] for line in lines if line.startswith("  ~ ")]
    # A call printed in the middle of a line cuts it in two, and blank lines are not
    # written: compare what is not white space.
    assert squeeze(answer) == squeeze([session.text])
    assert squeeze(thoughts) == squeeze([session.thinking])


def test_thinking_cut_short_by_text_is_printed_even_after_more_blocks() -> None:
    """A thinking block closed by text, then several text blocks before the next call."""
    records = [
        init_record(),
        user_record("go"),
        {"type": "thinking", "subtype": "delta", "text": "a hidden thought"},
        assistant_record("Let me ", timestamp_ms=1),
        assistant_record("Let me look.", model_call_id="m0", timestamp_ms=2),
        assistant_record("One.", model_call_id="m1", timestamp_ms=3),
        assistant_record("Two.", model_call_id="m2", timestamp_ms=4),
        tool_record("started", "c", "read", {"path": "a.txt"}),
        tool_record("completed", "c", "read", None, {"success": {"totalLines": 1}}),
        result_record("done"),
    ]
    out = io.StringIO()
    state = StreamState(track_changes=False)
    printer = Printer(out, state)
    reader = EventReader()
    for event in [*reader.feed(ndjson(*records)), *reader.finish()]:
        printer.handle(event, state.apply(event))
    state.finish()
    printer.finish()
    lines = out.getvalue().splitlines()
    thought = lines.index("  ~ a hidden thought")
    assert thought < lines.index("-> read a.txt")
    assert lines.index("   Let me look.") < lines.index("   One.") < lines.index("   Two.")


def count_block_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every read of ``Block.text`` (which joins the block's pieces: O(its size))."""
    reads = [0]
    prop = vars(Block)["text"]
    assert isinstance(prop, property) and prop.fget is not None
    getter = prop.fget

    def counted(block: Block) -> str:
        reads[0] += 1
        text = getter(block)
        assert isinstance(text, str)
        return text

    monkeypatch.setattr(Block, "text", property(counted))
    return reads


def print_records(records: list[dict[str, Any]]) -> str:
    """Everything ``--print`` writes for these records."""
    out = io.StringIO()
    state = StreamState(track_changes=False)
    printer = Printer(out, state)
    reader = EventReader()
    for event in [*reader.feed(ndjson(*records)), *reader.finish()]:
        printer.handle(event, state.apply(event))
    state.finish()
    printer.finish()
    return out.getvalue()


def test_a_growing_answer_is_not_reread_for_every_delta(monkeypatch: pytest.MonkeyPatch) -> None:
    """Re-reading the whole answer per delta made 300,000 deltas take 46 s."""
    deltas = [
        assistant_record("word\n" if n % 50 == 49 else "tok ", timestamp_ms=1) for n in range(5000)
    ]
    records = [init_record(), user_record("go"), *deltas, result_record("x")]
    reads = count_block_reads(monkeypatch)
    text = print_records(records)
    assert text.count("word") == 100
    assert reads[0] < 500, reads[0]


def test_many_tool_calls_do_not_reread_every_earlier_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Looking at every block at every call made 20,000 calls take 82 s."""
    records = [init_record(), user_record("go")]
    for n in range(1000):
        records.append(assistant_record(f"step {n}", model_call_id=f"m{n}", timestamp_ms=n))
        records.append(tool_record("started", f"c{n}", "read", {"path": f"f{n}"}))
        records.append(
            tool_record("completed", f"c{n}", "read", None, {"success": {"totalLines": 1}})
        )
    records.append(result_record("x"))
    reads = count_block_reads(monkeypatch)
    text = print_records(records)
    assert "   step 999" in text
    assert reads[0] < 20_000, reads[0]
