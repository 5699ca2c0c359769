"""--redact (issue 29.3): a recording of every agent seeded with 30 kinds of secrets
comes out of every export with none of them, whole or split across lines.

The core runs in-process for every agent (the filter, the fold, Markdown, HTML, the
normalized events, the JSON summary); the real command runs once per export kind.
"""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import orjson
import pytest

from streamview.cli.fronts import run_json
from streamview.core.event_stream import EventStream
from streamview.core.html_export import to_html
from streamview.core.linestore import LineStore
from streamview.core.markdown_export import to_markdown
from streamview.core.reader import EventReader
from streamview.core.redact import Redactor, redact_bytes
from streamview.core.state import StreamState
from streamview.core.summary_markdown import ci_summary
from streamview.fronts.events_api import to_json_lines
from streamview.sources.base import MemorySource
from tests.cli.helpers import child_env, command
from tests.core.redact.secrets import SECRETS, leaks, one_recording_per_agent, seeded

AGENTS = one_recording_per_agent()


def fold(data: bytes, agent: str) -> tuple[StreamState, LineStore]:
    """The finished state of ``data`` read as ``agent``'s stream."""
    store = LineStore()
    reader = EventReader(store, agent=agent)
    state = StreamState(track_changes=False)
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, store


def calls(state: StreamState) -> int:
    """Tool calls of every session."""
    return sum(len(session.tool_calls) for session in state.sessions)


@pytest.fixture(scope="module")
def seeded_runs() -> dict[str, bytes]:
    """Each agent's recording, seeded."""
    return {agent: seeded(path) for agent, path in AGENTS.items()}


def test_the_seeded_recordings_hold_every_kind_and_redaction_removes_them(
    seeded_runs: dict[str, bytes],
) -> None:
    """Every kind is seeded somewhere (so the checks below can fail), and the
    redacted recording of each agent holds none, and parses as the same agent to the
    same number of tool calls."""
    everything = b"".join(seeded_runs.values()).decode()
    assert set(leaks(everything)) == {secret.kind for secret in SECRETS} | {"home"}
    redactor = Redactor()
    for agent, data in seeded_runs.items():
        redacted = redact_bytes(data, redactor)
        assert leaks(redacted.decode()) == [], agent
        before, _ = fold(data, agent)
        after, _ = fold(redacted, agent)
        assert calls(before) > 0 or agent in ("cursor",), agent
        assert calls(after) == calls(before), agent
        assert len(after.sessions) == len(before.sessions), agent
    # Nearly every kind is named by its own rule (an overlap takes the first match's).
    assert len(redactor.counts) >= 28 and redactor.counts["home"] > 0, redactor.counts


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_every_core_export_of_a_redacted_run_is_clean(
    agent: str, seeded_runs: dict[str, bytes]
) -> None:
    """Markdown, HTML, the CI summary, the normalized events and the JSON summary of the
    redacted run hold no secret; the same exports of the seeded run do (the check can fail)."""
    for data, clean in (
        (seeded_runs[agent], False),
        (redact_bytes(seeded_runs[agent], Redactor()), True),
    ):
        state, store = fold(data, agent)
        stream = EventStream(agent)
        events = to_json_lines([stream.start(), *stream.feed(data), *stream.finish()])
        summary = io.StringIO()
        run_json(MemorySource(data), summary, agent=agent)
        outputs = {
            "markdown": to_markdown(state, title=agent, store=store),
            "html": to_html(state, title=agent, store=store),
            "ci summary": ci_summary(state, title=agent, store=store),
            "events": events.decode(),
            "json": summary.getvalue(),
        }
        for name, output in outputs.items():
            found = leaks(output)
            if clean:
                assert found == [], (agent, name, found)
            elif name in ("markdown", "ci summary", "events", "json"):
                assert found, (agent, name)


@pytest.fixture(scope="module")
def seeded_file(tmp_path_factory: pytest.TempPathFactory, seeded_runs: dict[str, bytes]) -> Path:
    """Claude's seeded recording on disk, for the real command."""
    path = tmp_path_factory.mktemp("redact") / "run.jsonl"
    path.write_bytes(seeded_runs["claude"])
    return path


def _streamview(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        command(*args), capture_output=True, env=child_env(), timeout=120, check=False
    )


def test_the_command_redacts_each_export(seeded_file: Path, tmp_path: Path) -> None:
    """``--redact`` with --export-markdown/-html/-svg at once, --events, --json; and
    ``streamview redact IN > OUT``: no secret in any output, and the counts on stderr."""
    md, html, svg = tmp_path / "run.md", tmp_path / "run.html", tmp_path / "run.svg"
    exports = _streamview(
        "--redact", "--export-markdown", str(md), "--export-html", str(html),
        "--export-svg", str(svg), str(seeded_file),
    )  # fmt: skip
    assert b"redacted " in exports.stderr, exports.stderr
    for path in (md, html, svg):
        assert leaks(path.read_text()) == [], path.name
    assert "[REDACTED:" in md.read_text()
    cast = tmp_path / "run.cast"
    made = _streamview("--redact", "--export-cast", str(cast), "-s", "20", str(seeded_file))
    assert made.returncode in (0, 1), made.stderr
    assert leaks(cast_text(cast)) == []
    assert "[REDACTED:" in cast_text(cast)
    for mode in ("--events", "--json"):
        result = _streamview("--redact", mode, str(seeded_file))
        assert result.stdout and leaks(result.stdout.decode()) == [], mode
        assert b"redacted " in result.stderr
    redacted = _streamview("redact", str(seeded_file))
    assert redacted.returncode == 0, redacted.stderr
    assert leaks(redacted.stdout.decode()) == []
    assert b"anthropic-api-key" in redacted.stderr or b"redacted " in redacted.stderr
    for line in redacted.stdout.splitlines():
        orjson.loads(line)  # every line still JSON
    before, _ = fold(seeded_file.read_bytes(), "claude")
    after, _ = fold(redacted.stdout, "auto")
    assert calls(after) == calls(before) > 0


def test_a_wrapped_key_and_a_pem_block_in_one_string_go_whole() -> None:
    """A key wrapped at 40 columns, in the middle of other output, is redacted whole,
    and the count names its kind."""
    key = SECRETS[10].text
    redactor = Redactor()
    text = f"output:\n{key[:40]}\n{key[40:80]}\n{key[80:]}\ndone\n{SECRETS[12].text}\n"
    out = redactor.text(text)
    assert leaks(out) == []
    assert out.startswith("output:\n[REDACTED:anthropic-api-key]")
    assert out.endswith("done\n[REDACTED:private-key]\n")
    assert redactor.counts == {"anthropic-api-key": 1, "private-key": 1}


def test_a_line_that_is_not_json_is_redacted_as_text_and_a_clean_line_kept() -> None:
    """Non-JSON lines are still redacted; a JSON line with nothing to remove is kept
    byte for byte (its key order and spacing)."""
    redactor = Redactor()
    assert redactor.line(f"oops {SECRETS[0].text} here".encode()) == (
        b"oops [REDACTED:aws-access-token] here"
    )
    clean = b'{"type": "result",  "text": "all good"}'
    assert redactor.line(clean) == clean
    assert redactor.report() == "redacted 1: 1 aws-access-token"


def test_home_and_with_names_the_user_and_host_go() -> None:
    """Home directories become ~ (this machine's and any /home, /Users); the user and
    host names go only when asked for (--redact-names), and only as whole words."""
    text = "alice@devbox:/home/alice/src$ ls /Users/bob/x /srv/alicetools /mnt/home/x"
    assert (
        Redactor(home=("/home/alice",)).text(text)
        == "alice@devbox:~/src$ ls ~/x /srv/alicetools /mnt/home/x"
    )
    named = Redactor(home=("/home/alice",), names={"user": "alice", "host": "devbox"})
    assert named.text(text) == (
        "[REDACTED:user]@[REDACTED:host]:~/src$ ls ~/x /srv/alicetools /mnt/home/x"
    )
    assert named.report() == "redacted 4: 2 home, 1 host, 1 user"


def cast_text(path: Path) -> str:
    """What a cast's frames write, without their cursor moves and colours (a secret
    split by them would not be seen whole)."""
    written = "".join(event[2] for event in map(orjson.loads, path.read_bytes().splitlines()[1:]))
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", written)


@pytest.mark.parametrize("after", [".", ",", ":", ")", "!", "?", "]"])
def test_a_key_that_ends_a_sentence_goes_too(after: str) -> None:
    """gitleaks ends a secret at a quote, a space or ``;``: an agent's prose that ends
    a sentence with the key ("the key is sk-ant-....") kept it whole."""
    redactor = Redactor()
    for secret in (SECRETS[10], SECRETS[0]):  # Anthropic's, AWS's
        out = redactor.text(f"(the key is {secret.text}{after} Keep it safe.")
        assert leaks(out) == [], (secret.kind, after)
