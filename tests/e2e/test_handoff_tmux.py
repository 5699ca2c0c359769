"""Hand a tool call over to the user's editor and pager, in a real terminal: o opens
the touched file in $EDITOR at its line, p shows the whole result in $PAGER, and the
viewer comes back as it was."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

from .terminal import REPO, Tmux, viewer_line, wait_exit

pytestmark = [
    pytest.mark.tmux,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CLAUDE = REPO / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"
RECORDER = """\
import sys
import tempfile
import time
with open(sys.argv[1], "a") as out:
    out.write(" ".join(sys.argv[2:]) + "\\n")
    if not sys.stdin.isatty():
        out.write(sys.stdin.read())
"""
"""A stand-in editor and pager: writes its arguments (and what it was fed) to a file."""


def stand_in(tmp_path: Path, log: Path) -> str:
    script = tmp_path / "stand_in.py"
    script.write_text(RECORDER)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}"


def test_o_and_p_hand_the_call_over_and_the_viewer_comes_back(tmux: Tmux, tmp_path: Path) -> None:
    log = tmp_path / "handoff.log"
    tool = stand_in(tmp_path, log)
    exit_file = tmp_path / "exit"
    checkout = tmp_path / "app"  # the run's /work/app, checked out here
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "parse.py").write_text("def parse(): ...\n")
    args = f"--cwd-map /work/app={shlex.quote(str(checkout))} {shlex.quote(str(CLAUDE))}"
    tmux.start(viewer_line(args, exit_file, env={"EDITOR": tool, "PAGER": tool}))
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s)
    tmux.keys("Tab", "Home", "Down", "Down", "Down")  # the read of src/parse.py
    tmux.wait_for(lambda s: "Tool calls (8)" in s)
    tmux.keys("o")
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s and log.exists())
    assert log.read_text().splitlines()[0] == str(checkout / "src" / "parse.py")
    tmux.keys("Up", "Up")  # the failing pytest run
    tmux.keys("p")
    tmux.wait_for(lambda s: "Tool calls (8)" in s and "FAILED" in log.read_text())
    assert "FAILED tests/test_parse.py::test_empty - assert None == []" in log.read_text()
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_o_says_a_path_is_not_here_and_launches_nothing(tmux: Tmux, tmp_path: Path) -> None:
    log = tmp_path / "handoff.log"
    exit_file = tmp_path / "exit"
    tool = stand_in(tmp_path, log)
    tmux.start(viewer_line(shlex.quote(str(CLAUDE)), exit_file, env={"EDITOR": tool}))
    tmux.wait_for(lambda s: "✓ success in 41.2s" in s)
    tmux.keys("Tab", "Home", "Down", "Down", "Down")  # the read of /work/app/src/parse.py
    tmux.wait_for(lambda s: "Tool calls (8)" in s)
    tmux.keys("o")
    tmux.wait_for(lambda s: "is not on this machine" in s)
    assert not log.exists()
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


HOSTILE_NAME = "+:!touch pwned-marker"
"""A read's path that vim, given it as it stands, runs as ``:!touch pwned-marker``."""


def hostile_recording(folder: Path) -> Path:
    """A Cursor run with no cwd in its init whose one call reads :data:`HOSTILE_NAME`."""
    call = {"readToolCall": {"args": {"path": HOSTILE_NAME}}}
    done = {"readToolCall": {"args": {"path": HOSTILE_NAME}, "result": {"success": {}}}}
    records = [
        {"type": "system", "subtype": "init", "session_id": "s1", "model": "m"},
        {"type": "tool_call", "subtype": "started", "call_id": "c1", "tool_call": call},
        {"type": "tool_call", "subtype": "completed", "call_id": "c1", "tool_call": done},
        {"type": "result", "subtype": "success", "is_error": False, "result": "ok"},
    ]
    path = folder / "hostile.ndjson"
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


@pytest.mark.skipif(
    shutil.which("vim") is None, reason="vim is not installed (.ci/run installs it)"
)
def test_o_with_a_hostile_path_never_runs_a_command_in_real_vim(tmux: Tmux, tmp_path: Path) -> None:
    """vim opens the file of that odd name (it exists here, in the current directory)
    and runs nothing: the marker the command would create never appears."""
    work = tmp_path / "work"
    work.mkdir()
    (work / HOSTILE_NAME).write_text("a file with an odd name\n")
    recording = hostile_recording(tmp_path)
    exit_file = tmp_path / "exit"
    python = shlex.quote(sys.executable)
    tmux.start(
        f"cd {shlex.quote(str(work))} && unset COLUMNS LINES && "
        "export EDITOR='vim -u NONE -i NONE -N' && "
        f"{python} -m streamview {shlex.quote(str(recording))}; "
        f"echo $? > {shlex.quote(str(exit_file))}; sleep 60"
    )
    tmux.wait_for(lambda s: "Tool calls (1)" in s)
    tmux.keys("Tab", "Home")
    tmux.keys("o")
    tmux.wait_for(lambda s: "a file with an odd name" in s)  # vim shows the file
    tmux.keys("Escape", ":qa!", "Enter")
    tmux.wait_for(lambda s: "Tool calls (1)" in s)
    assert not (work / "pwned-marker").exists()
    assert sorted(p.name for p in work.iterdir()) == [HOSTILE_NAME]
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


VIM = """\
import os, sys
with open(os.environ["ARGV_LOG"], "a") as out:
    out.write(" ".join(sys.argv[1:]) + "\\n")
"""
"""A stand-in named ``vim`` (so ``o`` gives it ``+N``): writes its arguments to $ARGV_LOG."""
DEMO = REPO / "recordings" / "success-multi-tool.ndjson"
LONG_RUN = REPO / "recordings" / "long-run.ndjson"
RECORDED_CWD = "/home/dev/src/tidepool"
"""Where the demo recordings were made: not on this machine."""


def fake_vim(tmp_path: Path) -> Path:
    folder = tmp_path / "bin"
    folder.mkdir()
    vim = folder / "vim"
    vim.write_text(f"#!{sys.executable}\n{VIM}")
    vim.chmod(0o755)
    return vim


def checkout_of_the_demo(folder: Path, name: str = "tidepool") -> Path:
    """A local checkout of the project the demo ran in (the files it read and edited)."""
    checkout = folder / name
    for name in ("src/tidepool/backoff.py", "tests/test_backoff.py"):
        (checkout / name).parent.mkdir(parents=True, exist_ok=True)
        (checkout / name).write_text("x = 1\n" * 40)
    return checkout


def test_o_in_a_checkout_opens_an_edit_at_its_line_and_says_why_for_no_file(
    tmux: Tmux, tmp_path: Path
) -> None:
    """Issue 21.4 as a person meets it: the viewer started in a checkout of the run's
    project (the recorded cwd is another machine's). ``o`` on a shell call names no
    file and runs nothing; ``o`` on the edit opens the local file, guessed from the
    current directory, at the line the edit changed."""
    log = tmp_path / "argv.log"
    vim = fake_vim(tmp_path)
    checkout = checkout_of_the_demo(tmp_path)
    env = {"EDITOR": str(vim), "ARGV_LOG": str(log), "XDG_CONFIG_HOME": str(tmp_path / "cfg")}
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(shlex.quote(str(DEMO)), exit_file, env=env, cwd=checkout))
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s)
    tmux.keys("Tab", "Home", "Down", "Down", "Down", "Down")  # call 5: the failing pytest
    tmux.wait_for(lambda s: "Tool calls (10)" in s)
    tmux.keys("o")
    tmux.wait_for(lambda s: "names no file" in s)
    assert not log.exists()
    tmux.keys("Down")  # call 6: the edit of src/tidepool/backoff.py
    time.sleep(0.3)
    tmux.keys("o")
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s and log.exists())
    local = checkout / "src" / "tidepool" / "backoff.py"
    assert log.read_text().splitlines() == [f"+23 -- {local}"]
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


def test_o_follows_the_cwd_map_of_the_settings_file_and_a_directory_opens_nothing(
    tmux: Tmux, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The [cwd_map] a person wrote in the settings file maps the recorded cwd to the
    checkout: ``o`` on a read opens the local file; on an ``ls`` of the project (a
    directory here) it runs nothing and says so."""
    log = tmp_path / "argv.log"
    vim = fake_vim(tmp_path)
    # A short path: the toast (at most 60 columns) says it on one line, whatever the
    # length of pytest's folders (xdist's are longer).
    short = Path(tempfile.mkdtemp(prefix="sv", dir="/tmp"))
    request.addfinalizer(lambda: shutil.rmtree(short, ignore_errors=True))
    checkout = checkout_of_the_demo(short, "tp")
    config = tmp_path / "cfg"
    (config / "streamview").mkdir(parents=True)
    (config / "streamview" / "settings.toml").write_text(
        f'[cwd_map]\n"{RECORDED_CWD}" = "{checkout}"\n'
    )
    env = {"EDITOR": str(vim), "ARGV_LOG": str(log), "XDG_CONFIG_HOME": str(config)}
    exit_file = tmp_path / "exit"
    tmux.start(viewer_line(shlex.quote(str(LONG_RUN)), exit_file, env=env))
    tmux.wait_for(lambda s: "Tool calls (175)" in s)
    tmux.keys("Tab", "Home", *["Down"] * 16)  # call 17: ls /home/dev/src/tidepool
    tmux.wait_for(lambda s: re.search(r"17 ls +/home/dev/src/tidepool", s) is not None)
    time.sleep(0.3)
    tmux.keys("o")
    tmux.wait_for(lambda s: "is a directory" in s)
    assert not log.exists()
    tmux.keys("q")
    assert wait_exit(exit_file) == 0

    exit_file.unlink()
    tmux.kill()
    tmux.start(viewer_line(shlex.quote(str(DEMO)), exit_file, env=env))
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s)
    tmux.keys("Tab", "Home", "Down", "Down")  # call 3: the read of src/tidepool/backoff.py
    time.sleep(0.3)
    tmux.keys("o")
    tmux.wait_for(lambda s: "✓ success in 36.5s" in s and log.exists())
    assert log.read_text().splitlines() == [f"-- {checkout / 'src' / 'tidepool' / 'backoff.py'}"]
    tmux.keys("q")
    assert wait_exit(exit_file) == 0


READER = """\
import sys
with open(sys.argv[1], "a") as out:
    out.write(" ".join(sys.argv[2:]) + "\\n")
with open(sys.argv[-1], "rb") as opened:  # as an editor does: blocks on a FIFO
    opened.read(1)
"""
"""A stand-in editor that logs its arguments, then opens and reads the file."""


def test_o_on_a_fifo_says_why_and_the_terminal_stays_usable(
    tmux: Tmux, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """An editor opening a FIFO blocked with the terminal raw: no key got it back
    (issue 26.5). Now o says what the path is, runs nothing, and q still quits."""
    short = Path(tempfile.mkdtemp(prefix="sv", dir="/tmp"))  # the toast shows it whole
    request.addfinalizer(lambda: shutil.rmtree(short, ignore_errors=True))
    fifo = short / "f"
    os.mkfifo(fifo)
    recording = hostile_recording(short).read_text().replace(HOSTILE_NAME, str(fifo))
    (short / "run.ndjson").write_text(recording)
    log = tmp_path / "editor.log"
    script = tmp_path / "reader.py"
    script.write_text(READER)
    editor = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(log))}"
    exit_file = tmp_path / "exit"
    tmux.start(
        viewer_line(shlex.quote(str(short / "run.ndjson")), exit_file, env={"EDITOR": editor})
    )
    tmux.wait_for(lambda s: "Tool calls (1)" in s)
    tmux.keys("Tab", "Home")
    time.sleep(0.3)
    tmux.keys("o")
    tmux.wait_for(lambda s: "is a named pipe (FIFO)" in s)
    assert not log.exists()
    tmux.keys("q")
    assert wait_exit(exit_file) == 0
