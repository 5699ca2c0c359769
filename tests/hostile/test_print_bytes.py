"""``--print`` and ``--json`` on streams carrying every hostile sequence in every field."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

from .corpus import ALL_TEXT, CORPUS
from .helpers import assert_no_traceback, run_cli, unsafe_in
from .streams import hostile_stream


@pytest.fixture(scope="module")
def hostile_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One file: a session per corpus sequence, then one with the whole corpus at once."""
    path = tmp_path_factory.mktemp("hostile") / "hostile.ndjson"
    parts = [
        hostile_stream(f"<{seq.name}>{seq.text}</{seq.name}>", session=f"s-{n}")
        for n, seq in enumerate(CORPUS)
    ]
    parts.append(hostile_stream(ALL_TEXT, session="s-all"))
    path.write_bytes(b"".join(parts))
    return path


def test_print_bytes_hold_no_control_sequence(hostile_file: Path) -> None:
    """Every sequence reaches ``--print`` output only as inert, visible text."""
    done = run_cli("--print", str(hostile_file))
    assert_no_traceback(done.stderr)
    assert done.returncode == 0, done.stderr.decode()
    text = done.stdout.decode("utf-8")  # strict: no lone surrogate was written either
    assert unsafe_in(text) == []
    for byte in (b"\x1b", b"\x07", b"\r", b"\x00", b"\x7f", b"\xc2\x9b", b"\xc2\x9d"):
        assert byte not in done.stdout, byte
    for seq in CORPUS:
        # Shown, not dropped: the tag around the sequence is in the answer text.
        assert f"<{seq.name}>" in text, seq.name
    assert "␛[2J" in text and "␛]52;c;" in text and "␛]0;PWNED-TITLE␇" in text


def test_print_shows_every_line_kind(hostile_file: Path) -> None:
    """Malformed lines and unknown records are reported, one ``??`` line each, and a
    ``system`` record of a subtype nobody knows as the CLI's own notice (``~~``)."""
    done = run_cli("--print", str(hostile_file))
    text = done.stdout.decode("utf-8")
    sessions = len(CORPUS) + 1
    assert text.count("unknown record") >= sessions
    assert text.count("~~ system/notice") >= sessions
    assert text.count(": not JSON:") + text.count(": not valid UTF-8:") >= 3 * sessions


def test_json_output_is_terminal_safe_and_lossless(hostile_file: Path) -> None:
    """``--json`` writes escapes, never raw controls, and decodes back to the input text."""
    done = run_cli("--json", str(hostile_file))
    assert_no_traceback(done.stderr)
    assert done.returncode == 0, done.stderr.decode()
    text = done.stdout.decode("utf-8")
    assert unsafe_in(text) == []
    summary = orjson.loads(done.stdout) if "\\ud8" not in text else __import__("json").loads(text)
    last = summary["sessions"][-1]
    assert last["prompt"] == f"prompt {ALL_TEXT} end"
    counts = summary["lines"]
    assert counts["total"] == counts["events"] + counts["malformed"] + counts["unknown"]
    assert counts["total"] == sum(1 for line in hostile_file.read_bytes().split(b"\n") if line)


def test_print_from_a_pipe_is_the_same(hostile_file: Path) -> None:
    """Piped input goes through the same sanitising path as a file."""
    data = hostile_file.read_bytes()
    done = run_cli("--print", stdin=data)
    assert_no_traceback(done.stderr)
    assert done.stdout == run_cli("--print", str(hostile_file)).stdout
    assert unsafe_in(done.stdout.decode("utf-8")) == []


def test_stderr_messages_are_inert(tmp_path: Path) -> None:
    """A hostile file name in an error message is not written raw to the terminal."""
    name = tmp_path / "no\x1b]0;PWNED\x07such"
    done = run_cli("--print", str(name))
    assert done.returncode == 2
    assert_no_traceback(done.stderr)
    assert unsafe_in(done.stderr.decode("utf-8", "replace")) == []


def test_exports_hold_no_control_sequence(hostile_file: Path, tmp_path: Path) -> None:
    """``--export-markdown``, ``--export-html`` and ``--export-svg`` files are as inert as
    the screen."""
    from .safety import unsafe_in_svg

    markdown = tmp_path / "run.md"
    svg = tmp_path / "run.svg"
    page = tmp_path / "run.html"
    done = run_cli(
        *("--export-markdown", str(markdown), "--export-svg", str(svg)),
        *("--export-html", str(page), str(hostile_file)),
        timeout=180,
    )
    assert_no_traceback(done.stderr)
    assert done.returncode == 0, done.stderr.decode()
    text = markdown.read_bytes().decode("utf-8")
    assert unsafe_in(text) == []
    assert "<csi-erase-screen>" in text
    assert unsafe_in_svg(svg.read_text(encoding="utf-8")) == []
    html = page.read_text(encoding="utf-8")
    assert unsafe_in(html) == []
    assert "&lt;csi-erase-screen&gt;" in html


def test_run_mode_agent_stderr_and_stdout_are_inert(hostile_file: Path, tmp_path: Path) -> None:
    """``streamview run``: an agent writing escapes to stdout and stderr, then failing."""
    import sys

    agent = tmp_path / "agent.py"
    agent.write_text(
        "import sys\n"
        f"sys.stdout.buffer.write(open({str(hostile_file)!r}, 'rb').read()[:20000])\n"
        f"sys.stderr.write({ALL_TEXT!r}.encode('utf-8', 'replace').decode())\n"
        "sys.exit(3)\n"
    )
    record = tmp_path / "rec.ndjson"
    for mode in ("--print", "--json"):
        done = run_cli(
            "run", mode, "--record", str(record), "--", sys.executable, str(agent), timeout=120
        )
        assert_no_traceback(done.stderr)
        assert done.returncode == 3, done.stderr.decode()[-500:]
        for stream in (done.stdout, done.stderr):
            assert unsafe_in(stream.decode("utf-8")) == []
        assert b"<sgr-red>" in done.stdout  # the agent's stderr is shown, inert
