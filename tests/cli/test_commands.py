"""The command line as a person meets it: --help, the commands, short flags, --json on a
terminal, --serve's errors, and the recorded runs (runs, last, --prune)."""

from __future__ import annotations

import os
import pty
import select
import shlex
import socket
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import orjson
import pytest

from streamview.cli.parsers import build_parser
from streamview.runs.run_meta import sidecar_path

from .helpers import REPO_ROOT, child_env, command

AGENTS = REPO_ROOT / "tests" / "run" / "agents"
RECORDING = REPO_ROOT / "recordings" / "success-multi-tool.ndjson"
CLAUDE = REPO_ROOT / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


def streamview(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command(*args),
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=REPO_ROOT,
        env=env or child_env(),
        timeout=60,
    )


@pytest.fixture
def state_env(tmp_path: Path) -> dict[str, str]:
    """A state directory of the test's own (where `streamview run` records)."""
    return {**child_env(), "XDG_STATE_HOME": str(tmp_path / "state")}


def test_help_shows_every_command_in_its_usage_and_list() -> None:
    done = streamview("--help")
    assert done.returncode == 0
    usage = done.stdout.split("\n\n")[0]
    for form in ("streamview [options] [FILE]", "streamview run", "streamview runs"):
        assert form in usage
    assert "streamview last" in usage
    assert "streamview export --otlp" in usage
    commands = done.stdout.split("commands (streamview COMMAND --help):")[1]
    for name in ("run", "runs", "last", "export"):
        assert f"\n  {name} " in commands


def test_help_and_the_package_name_every_agent_streamview_reads() -> None:
    """Issue 30.5: the description named four agents of fourteen; it names every
    dialect of the registry, by the label its header shows, and so does pyproject's.
    The session files' agents are named once, in a sentence of their own, not mixed
    into the headless list as "Claude Code (session)"."""
    from streamview.core import dialects

    every = dialects.every_dialect()
    assert len(every) == len(dialects.REGISTRY)
    headless = [d.label for d in every if d.name not in dialects.SESSION_FILES]
    assert len(headless) > 4
    description = streamview("--help").stdout.split("\noptions:")[0]
    flat = " ".join(description.split())
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    listed, sessions = flat.split("headless mode (")[1].split("the session files")
    for label in headless:
        assert label in listed, label
        assert label in project["description"], label
    assert "(session)" not in flat
    for name in dialects.SESSION_FILES:
        found = dialects.by_name(name)
        assert found is not None
        agent = found.label.removesuffix(" (session)")
        assert agent in sessions, agent
        assert agent in project["description"].split("session files")[1], agent


def test_run_help_lists_its_own_options() -> None:
    done = streamview("run", "--help")
    assert done.returncode == 0
    assert done.stdout.startswith("usage: streamview run ")
    for option in ("--record PATH", "--json", "--print", "--theme THEME", "-- COMMAND"):
        assert option in done.stdout


def test_short_flags_for_speed_and_idle_limit() -> None:
    args = build_parser().parse_args(["--replay", "-s", "4", "-i", "2", "run.ndjson"])
    assert (args.speed, args.idle_limit, args.replay) == (4.0, 2.0, True)


def json_on_a_terminal(path: Path) -> bytes:
    """``streamview --json PATH`` with its stdout on a pseudo-terminal."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        command("--json", str(path)), stdout=slave, stderr=slave, env=child_env()
    )
    os.close(slave)
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        elif process.poll() is not None:
            break
    process.wait(timeout=10)
    os.close(master)
    return output.replace(b"\r\n", b"\n")


def test_json_is_indented_on_a_terminal_and_one_line_in_a_pipe() -> None:
    piped = streamview("--json", str(RECORDING))
    assert piped.stdout.count("\n") == 1
    shown = json_on_a_terminal(RECORDING)
    assert shown.count(b"\n") > 20
    assert b'\n  "sessions": [' in shown
    assert orjson.loads(shown) == orjson.loads(piped.stdout)


def test_a_port_out_of_range_is_refused() -> None:
    done = streamview("--serve", "--port", "99999", str(RECORDING))
    assert done.returncode == 2
    assert "a port is 1 to 65535, not 99999" in done.stderr


def test_serving_on_a_port_in_use_is_one_line_and_exit_2() -> None:
    pytest.importorskip("textual_serve")
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = streamview("--serve", "--host", "127.0.0.1", "--port", str(port), str(RECORDING))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"streamview: cannot serve on 127.0.0.1:{port}: "
        "the port is in use (pick another with --port)"
    )


def test_serving_a_pipe_says_it_serves_files() -> None:
    done = subprocess.run(
        command("--serve"), input="", capture_output=True, text=True, env=child_env(), timeout=30
    )
    assert done.returncode == 2
    assert "--serve needs a FILE" in done.stderr


def record_run(env: dict[str, str], agent: str) -> None:
    done = streamview("run", "--print", "--", sys.executable, str(AGENTS / f"{agent}.py"), env=env)
    assert "recorded" in done.stderr


def test_runs_lists_recordings_newest_first_and_last_opens_the_newest(
    state_env: dict[str, str],
) -> None:
    empty = streamview("runs", env=state_env)
    assert empty.returncode == 0 and "no recorded runs in" in empty.stdout
    record_run(state_env, "failure")
    time.sleep(1.1)  # recordings are named by the second
    record_run(state_env, "success")
    listing = streamview("runs", env=state_env)
    assert listing.returncode == 0
    lines = listing.stdout.splitlines()
    assert lines[0].startswith("2 recorded runs in ")
    newest, oldest = lines[2], lines[3]
    assert newest.lstrip().startswith("1 ") and "Cursor" in newest and "✓ success" in newest
    assert oldest.lstrip().startswith("2 ") and "success" not in oldest
    last = streamview("last", "--print", env=state_env)
    assert last.returncode == 0
    assert last.stdout.rstrip().endswith("== success · in 300ms")


def test_last_with_no_recording_says_so(state_env: dict[str, str]) -> None:
    done = streamview("last", "--print", env=state_env)
    assert done.returncode == 2
    assert "no recorded runs in" in done.stderr


def test_runs_prune_deletes_only_older_recordings(state_env: dict[str, str]) -> None:
    record_run(state_env, "success")
    time.sleep(1.1)
    record_run(state_env, "success")
    folder = Path(state_env["XDG_STATE_HOME"]) / "streamview" / "runs"
    old, new = sorted(folder.glob("*.ndjson"))
    forty_days = time.time() - 40 * 86_400
    os.utime(old, (forty_days, forty_days))
    done = streamview("runs", "--prune", "30d", "--yes", env=state_env)
    assert done.returncode == 0
    assert "pruned 1 recording (" in done.stdout
    assert not old.exists() and new.exists()
    assert not sidecar_path(old).exists() and sidecar_path(new).exists()  # pruned together
    bad = streamview("runs", "--prune", "soon", env=state_env)
    assert bad.returncode == 2 and "not an age: 'soon'" in bad.stderr


def test_runs_names_the_agent_of_a_claude_recording(state_env: dict[str, str]) -> None:
    folder = Path(state_env["XDG_STATE_HOME"]) / "streamview" / "runs"
    folder.mkdir(parents=True)
    (folder / "20261124-101010-claude.ndjson").write_bytes(CLAUDE.read_bytes())
    listing = streamview("runs", env=state_env)
    assert "Claude Code" in listing.stdout and "✓ success" in listing.stdout


@pytest.mark.parametrize("content", [None, b"", b"\n\n"])
def test_serving_a_file_the_viewer_would_refuse_exits_2_as_the_viewer_does(
    tmp_path: Path, content: bytes | None
) -> None:
    """A missing or empty FILE: refused before serving (each browser tab would show a
    blank page), with the viewer's own words."""
    path = tmp_path / "run.ndjson"
    if content is not None:
        path.write_bytes(content)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    served = streamview("--serve", "--host", "127.0.0.1", "--port", str(port), str(path))
    viewed = streamview(str(path))
    assert served.returncode == viewed.returncode == 2
    assert served.stderr == viewed.stderr and served.stderr.startswith("streamview: ")
    assert "serving on" not in served.stderr


def test_the_serve_install_hint_names_this_checkout(tmp_path: Path) -> None:
    """Without textual-serve, the hint installs this checkout's serve extra; the name
    streamview on the package index is another project."""
    blocker = tmp_path / "textual_serve"
    blocker.mkdir()
    (blocker / "__init__.py").write_text("raise ImportError('blocked for the test')\n")
    env = {**child_env(), "PYTHONPATH": str(tmp_path)}
    done = streamview("--serve", "--port", "8765", str(RECORDING), env=env)
    assert done.returncode == 2
    prefix = "streamview: --serve needs textual-serve: "
    assert done.stderr.startswith(prefix) and "'streamview[serve]'" not in done.stderr
    hint = shlex.split(done.stderr[len(prefix) :])
    assert hint[:5] == [sys.executable, "-m", "pip", "install", "-e"]
    root = Path(hint[5].removesuffix("[serve]"))
    assert root == REPO_ROOT and hint[5].endswith("[serve]")
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]
    assert any("textual-serve" in dep for dep in extras["optional-dependencies"]["serve"])


def test_a_cwd_map_that_is_not_two_absolute_directories_is_bad_usage() -> None:
    done = streamview("--cwd-map", "src=/work", "--print", str(RECORDING))
    assert done.returncode == 2
    assert "--cwd-map: both sides must be absolute directories: 'src=/work'" in done.stderr
    good = streamview("--cwd-map", "/home/dev=/work", "--print", str(RECORDING))
    assert good.returncode == 0
