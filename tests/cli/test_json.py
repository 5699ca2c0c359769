"""``streamview --json``: exactly one JSON object, every key present, the right exit code."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from streamview.cli import main
from streamview.core.reader import fold
from streamview.core.sanitize import json_for_terminal
from streamview.core.state import StreamState
from streamview.core.summary import summarize, summary_json

from .helpers import (
    REPO_ROOT,
    assistant_record,
    capture_files,
    init_record,
    ndjson,
    result_record,
    run,
    tool_record,
    user_record,
)

RECORDINGS = REPO_ROOT / "recordings"
TOP_KEYS = {"sessions", "lines", "notices"}
SESSION_KEYS = {
    "session_id",
    "agent",
    "model",
    "cwd",
    "permission_mode",
    "api_key_source",
    "prompt",
    "text",
    "thinking",
    "tool_calls",
    "outcome",
}
USAGE_KEYS = (
    "input_tokens",
    "output_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "reasoning_tokens",
)
CALL_KEYS = {"call_id", "kind", "name", "target", "status", "summary", "duration_ms"}
OUTCOME_KEYS = {
    "status",
    "duration_ms",
    "request_id",
    "usage",
    "usage_raw",
    "result",
    "cost_usd",
    "num_turns",
    "message",
}
LINE_KEYS = {"total", "events", "malformed", "unknown"}
CALL_STATUSES = {"running", "succeeded", "failed", "rejected", "error", "completed", "interrupted"}

FILES = capture_files()


def is_str_or_null(value: Any) -> bool:
    """A string, or null."""
    return value is None or isinstance(value, str)


def is_int_or_null(value: Any) -> bool:
    """An integer (not a bool), or null."""
    return value is None or (isinstance(value, int) and not isinstance(value, bool))


def check_contract(document: dict[str, Any]) -> None:
    """Assert the exact keys and value types of the ``--json`` object."""
    assert set(document) == TOP_KEYS
    assert set(document["lines"]) == LINE_KEYS
    notices = document["notices"]
    assert all(isinstance(k, str) and isinstance(v, int) and v > 0 for k, v in notices.items())
    assert all(isinstance(v, int) for v in document["lines"].values())
    lines = document["lines"]
    assert lines["total"] == lines["events"] + lines["malformed"] + lines["unknown"]
    assert isinstance(document["sessions"], list)
    for session in document["sessions"]:
        assert set(session) == SESSION_KEYS
        for key in ("session_id", "model", "cwd", "permission_mode", "api_key_source", "prompt"):
            assert is_str_or_null(session[key]), key
        assert isinstance(session["text"], str)
        assert isinstance(session["thinking"], str)
        for call in session["tool_calls"]:
            assert set(call) == CALL_KEYS
            assert isinstance(call["call_id"], str)
            assert isinstance(call["kind"], str)
            assert is_str_or_null(call["target"])
            assert call["status"] in CALL_STATUSES
            assert is_str_or_null(call["summary"])
            assert is_int_or_null(call["duration_ms"])
        outcome = session["outcome"]
        assert set(outcome) == OUTCOME_KEYS
        assert outcome["status"] in {"success", "error", "incomplete"}
        assert is_int_or_null(outcome["duration_ms"])
        assert is_str_or_null(outcome["request_id"])
        assert outcome["usage"] is None or isinstance(outcome["usage"], dict)
        assert is_str_or_null(outcome["result"])


def json_of(stdout: str | bytes) -> dict[str, Any]:
    """The one JSON object on stdout (fails if there is anything else)."""
    text = stdout.decode() if isinstance(stdout, bytes) else stdout
    assert text.endswith("\n") and text.count("\n") == 1, text[:300]
    document = json.loads(text)
    assert isinstance(document, dict)
    return document


def run_main(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    """Call ``main`` in-process; return its exit code and the JSON it printed."""
    code = main(args)
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, json_of(captured.out)


# -- real captures -------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_json_contract_on_every_real_capture(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 0
    (session,) = document["sessions"]
    assert session["outcome"]["status"] == "success"
    assert document["lines"]["malformed"] == 0
    non_blank = sum(1 for line in path.read_bytes().split(b"\n") if line.strip())
    assert document["lines"]["total"] == non_blank


def test_json_of_probe_15_through_the_real_command() -> None:
    path = next(p for p in FILES if "probe-15_denials" in p.name)
    completed = run("--json", str(path))
    assert completed.returncode == 0, completed.stderr
    assert completed.stderr == b""
    document = json_of(completed.stdout)
    check_contract(document)
    (session,) = document["sessions"]
    assert session["session_id"] == "b2cc8f6c-cfe4-4336-a9a3-18aca8cca81b"
    assert session["model"] == "Composer 2.5 Fast"
    assert [c["name"] for c in session["tool_calls"]] == ["webFetch", "shell", "shell", "webSearch"]
    assert {c["status"] for c in session["tool_calls"]} == {"rejected"}
    assert session["tool_calls"][3]["target"] == "example.com page title"
    assert session["outcome"]["usage"]["input_tokens"] == 25755
    assert document["lines"] == {"total": 50, "events": 50, "malformed": 0, "unknown": 0}


def test_json_keeps_a_call_id_with_a_newline_whole() -> None:
    path = next(p for p in FILES if "parallel-sleep" in p.name)
    document = json_of(run("--json", str(path)).stdout)
    ids = [c["call_id"] for c in document["sessions"][0]["tool_calls"]]
    assert ids[0].startswith("call_MZSwjBaQcdosfHhvJfsQqWdm\nfc_")
    assert [c["target"] for c in document["sessions"][0]["tool_calls"]] == ["sleep 6", "sleep 4"]


# -- synthetic streams ----------------------------------------------------------------------


def test_unknown_values_are_null_not_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stream with no init, no result, a call with no args and no times."""
    path = tmp_path / "bare.ndjson"
    call = tool_record("completed", "c1", "frobnicate", None, {"weird": 1})
    del call["session_id"]
    path.write_bytes(ndjson({"type": "user", "message": {"content": []}}, call))
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 1
    (session,) = document["sessions"]
    for key in ("session_id", "model", "cwd", "permission_mode", "api_key_source"):
        assert session[key] is None
    (call,) = session["tool_calls"]
    assert call == {
        "call_id": "c1",
        "kind": "other",
        "name": "frobnicate",
        "target": None,
        "status": "completed",
        "summary": "weird",
        "duration_ms": None,
    }
    assert session["outcome"] == {
        "status": "incomplete",
        "duration_ms": None,
        "request_id": None,
        "usage": dict.fromkeys(USAGE_KEYS),
        "usage_raw": None,
        "result": None,
        "cost_usd": None,
        "num_turns": None,
        "message": None,
    }


def test_malformed_and_unknown_lines_are_counted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mixed.ndjson"
    path.write_bytes(
        ndjson(init_record(), user_record("hi"))
        + b"Not logged in\n\n[1,2]\n"
        + ndjson({"type": "hologram", "subtype": "beam"}, result_record("ok"))
    )
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 0
    assert document["lines"] == {"total": 6, "events": 3, "malformed": 2, "unknown": 1}


def test_a_successful_run_exits_0_with_its_outcome(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ok.ndjson"
    usage = {"inputTokens": 10, "outputTokens": 5, "cacheReadTokens": 0, "cacheWriteTokens": 0}
    path.write_bytes(
        ndjson(
            init_record(),
            user_record("list files"),
            assistant_record("Listing.\n", model_call_id="m0", timestamp_ms=1000),
            tool_record("started", "c1", "ls", {"path": "/w"}),
            tool_record("completed", "c1", "ls", None, {"success": {"directoryTreeRoot": {}}}),
            assistant_record("Done."),
            result_record("Listing.\nDone.", usage=usage),
        )
    )
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 0
    (session,) = document["sessions"]
    assert session["prompt"] == "list files"
    assert session["model"] == "Claude 4 Sonnet"
    assert session["api_key_source"] == "env"
    assert "Listing." in session["text"] and session["text"].endswith("Done.")
    assert (session["tool_calls"][0]["kind"], session["tool_calls"][0]["name"]) == ("list", "ls")
    assert session["tool_calls"][0]["target"] == "/w"
    assert session["tool_calls"][0]["status"] == "succeeded"
    assert session["outcome"] == {
        "status": "success",
        "duration_ms": 2000,
        "request_id": "req-9",
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "cache_read_tokens": 0,
            "cache_write_tokens": 0,
            "reasoning_tokens": None,
        },
        "usage_raw": usage,
        "result": "Listing.\nDone.",
        "cost_usd": None,
        "num_turns": None,
        "message": None,
    }


def test_is_error_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "err.ndjson"
    path.write_bytes(ndjson(init_record(), user_record("x"), result_record("bad", is_error=True)))
    code, document = run_main(["--json", str(path)], capsys)
    assert code == 1
    assert document["sessions"][0]["outcome"]["status"] == "error"


def test_incomplete_run_exits_1_and_interrupts_open_calls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cut.ndjson"
    path.write_bytes(
        ndjson(
            init_record(),
            user_record("x"),
            tool_record("started", "c1", "shell", {"command": "sleep 60"}),
        )
    )
    code, document = run_main(["--json", str(path)], capsys)
    assert code == 1
    session = document["sessions"][0]
    assert session["outcome"]["status"] == "incomplete"
    assert session["tool_calls"][0]["status"] == "interrupted"
    assert session["tool_calls"][0]["target"] == "sleep 60"


def test_exit_code_follows_the_last_session(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    failed_then_ok = tmp_path / "a.ndjson"
    failed_then_ok.write_bytes(
        ndjson(init_record(), result_record("x", is_error=True))
        + ndjson(init_record(session_id="second"), result_record("y", session_id="second"))
    )
    ok_then_cut = tmp_path / "b.ndjson"
    ok_then_cut.write_bytes(
        ndjson(init_record(), result_record("x"), init_record(session_id="second"))
    )
    code, document = run_main(["--json", str(failed_then_ok)], capsys)
    assert code == 0
    assert [s["outcome"]["status"] for s in document["sessions"]] == ["error", "success"]
    code, document = run_main(["--json", str(ok_then_cut)], capsys)
    assert code == 1
    assert [s["outcome"]["status"] for s in document["sessions"]] == ["success", "incomplete"]


def test_a_lone_result_object_json_output_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "lone.json"
    path.write_bytes(
        b'{"type":"result","subtype":"success","is_error":false,"duration_ms":5623,'
        b'"result":"pong41 --continue","session_id":"f008","request_id":"6d77"}'
    )
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 0
    (session,) = document["sessions"]
    assert session["text"] == "pong41 --continue"
    assert session["session_id"] == "f008"
    assert document["lines"] == {"total": 1, "events": 1, "malformed": 0, "unknown": 0}


def test_output_is_valid_json_even_with_hostile_strings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hostile.ndjson"
    records = [
        init_record(model="\x1b]0;pwned\x07GPT"),
        assistant_record("a\u2028b \x9b31m \ud800"),  # a lone surrogate escape
        result_record("x"),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="ascii")
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 0
    assert "GPT" in document["sessions"][0]["model"]


# -- stdin -----------------------------------------------------------------------------------


def stdin_stream() -> bytes:
    """A small whole run."""
    return ndjson(
        init_record(), user_record("from stdin"), assistant_record("ok"), result_record("ok")
    )


def test_stdin_via_dash() -> None:
    completed = run("--json", "-", stdin=stdin_stream())
    assert completed.returncode == 0, completed.stderr
    document = json_of(completed.stdout)
    check_contract(document)
    assert document["sessions"][0]["prompt"] == "from stdin"


def test_stdin_via_pipe_without_a_file_argument() -> None:
    completed = run("--json", stdin=stdin_stream())
    assert completed.returncode == 0, completed.stderr
    assert json_of(completed.stdout)["sessions"][0]["text"] == "ok"


def test_stdin_that_ends_without_result_exits_1() -> None:
    completed = run("--json", "-", stdin=ndjson(init_record(), user_record("x")))
    assert completed.returncode == 1
    assert json_of(completed.stdout)["sessions"][0]["outcome"]["status"] == "incomplete"


# -- usage -------------------------------------------------------------------------------------


def test_json_and_print_together_is_a_usage_error() -> None:
    completed = run("--json", "--print", "-", stdin=stdin_stream())
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert b"Traceback" not in completed.stderr
    assert b"not allowed with" in completed.stderr


def test_an_unknown_option_is_a_usage_error() -> None:
    completed = run("--frobnicate", stdin=b"")
    assert completed.returncode == 2
    assert b"Traceback" not in completed.stderr
    assert b"usage:" in completed.stderr


def test_stdin_redirected_from_a_regular_file(tmp_path: Path) -> None:
    """``streamview --json < run.ndjson``: stdin is a file, not a pipe."""
    path = tmp_path / "run.ndjson"
    path.write_bytes(stdin_stream())
    with path.open("rb") as handle:
        completed = run("--json", stdin=None, stdin_file=handle)
    assert completed.returncode == 0, completed.stderr
    assert json_of(completed.stdout)["sessions"][0]["prompt"] == "from stdin"


def test_input_with_no_json_at_all_has_no_session_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "banner.txt"
    path.write_bytes(b"Not logged in. Run cursor-agent login\nT: free plan\n")
    code, document = run_main(["--json", str(path)], capsys)
    check_contract(document)
    assert code == 1
    assert document["sessions"] == []
    assert document["lines"] == {"total": 2, "events": 0, "malformed": 2, "unknown": 0}


# -- written a session at a time ------------------------------------------------------------


def test_the_summary_is_written_a_session_at_a_time_with_the_same_bytes(tmp_path: Path) -> None:
    """A pipe gets the summary in pieces (a long run never holds it whole): byte for
    byte the JSON of the whole object, over many sessions."""
    path = tmp_path / "recordings.ndjson"
    path.write_bytes(b"".join(p.read_bytes() for p in sorted(RECORDINGS.glob("*.ndjson"))))
    state = fold([path.read_bytes()], StreamState(track_changes=False, compact=True))
    assert len(state.sessions) >= 5
    whole = json_for_terminal(summarize(state, {"exit_code": 0}))
    assert b"".join(summary_json(state, {"exit_code": 0})) == whole
    completed = run("--json", str(path))  # stdout is a pipe: the pieces path
    assert completed.stdout == json_for_terminal(summarize(state)) + b"\n"


def test_a_session_orjson_cannot_write_is_escaped_alone(tmp_path: Path) -> None:
    """A lone surrogate sends its session to the escaping fallback: one line still,
    and the same value as the whole object's JSON."""
    records = [init_record(), assistant_record("a\u2028b \x9b31m \ud800"), result_record("x")]
    text = "".join(json.dumps(r) + "\n" for r in records)
    data = (RECORDINGS / "success-multi-tool.ndjson").read_bytes() + text.encode("ascii")
    state = fold([data], StreamState(track_changes=False, compact=True))
    pieces = b"".join(summary_json(state))
    assert b"\n" not in pieces and b": " not in pieces[:20]
    assert json.loads(pieces) == json.loads(json_for_terminal(summarize(state)))
    assert json.loads(pieces)["sessions"][1]["text"].endswith("\ud800")


def test_a_long_session_is_written_in_small_pieces(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One session of a huge file is never written (nor held) whole: its text, thinking
    and calls go out a bounded piece at a time, the same bytes joined (issue 27.5: the
    2 GB session's summary took 500 MB more at the peak)."""
    import streamview.core.summary as summary
    import streamview.core.summary_text as summary_text

    monkeypatch.setattr(summary, "CALLS_PER_PIECE", 3)
    monkeypatch.setattr(summary_text, "STRING_PIECE", 200)
    data = b"".join(p.read_bytes() for p in sorted(RECORDINGS.glob("*.ndjson")))
    state = fold([data], StreamState(track_changes=False, compact=True))
    longest = max(
        state.sessions, key=lambda session: len(json_for_terminal(summary.session_summary(session)))
    )
    state.sessions[:] = [longest] * 3  # one long session, thrice
    whole = json_for_terminal(summarize(state))
    pieces = list(summary_json(state))
    assert b"".join(pieces) == whole
    # A piece is one text part at most (the longest here, 19 kB), not a session.
    assert max(map(len, pieces)) < len(whole) / 10
