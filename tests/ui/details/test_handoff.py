"""What `o` and `p` hand over: `o` runs the user's editor on a file of this machine only,
as an absolute path after the end of options, at the line an edit changed; fake editors
named like each family record the argv they really got."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from streamview.core import tools
from streamview.core.editor_argv import FAMILIES, GOTO, SUFFIX, family_of
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState, ToolCall
from streamview.ui.details.handoff import file_of, merged_map, open_command, pager_command

REPO = Path(__file__).resolve().parents[3]
RECORDER = """#!/bin/sh
printf '%s\\0' "$@" > "$ARGV_LOG"
"""
"""A stand-in editor: writes the arguments it got, each ended by NUL, to $ARGV_LOG."""

HOSTILE = [
    "+:!touch pwned",
    "+!touch pwned",
    "-c:!touch pwned",
    "--cmd=:!touch pwned",
    "--remote-send=x",
    "-",
    "--",
    "$(touch pwned)",
    "`touch pwned`",
    "x" * 200,
]
"""File names from a stream that an editor would read as an option or a command."""


def fake_editor(tmp_path: Path, name: str) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    script = bin_dir / name
    script.write_text(RECORDER)
    script.chmod(0o755)
    return script


def read_call(target: str, **args: object) -> ToolCall:
    return ToolCall(0, "r", "read", args={"path": target, **args}, target=target)


def test_the_pager_defaults_to_less_keeping_colour() -> None:
    assert pager_command({}) == ["less", "-R"]
    assert pager_command({"PAGER": "bat --plain"}) == ["bat", "--plain"]


def test_the_file_a_call_touched_and_its_line() -> None:
    read = ToolCall(0, "r", "read", args={"path": "src/a.py", "offset": 40}, target="src/a.py")
    assert file_of(read, "/work") == ("/work/src/a.py", 40)
    edit = ToolCall(1, "e", "edit", args={"path": "/abs/b.py"}, target="/abs/b.py")
    assert file_of(edit, "/work") == ("/abs/b.py", None)
    shell = ToolCall(2, "s", "shell", args={"command": "ls"}, target="ls", status=tools.SUCCEEDED)
    assert file_of(shell, "/work") is None


@pytest.mark.parametrize("editor", sorted(FAMILIES))
@pytest.mark.parametrize("name", HOSTILE)
def test_each_editor_family_gets_the_hostile_name_as_one_absolute_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: str, name: str
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / name).write_text("x\n" * 20)
    monkeypatch.chdir(work)  # no recorded cwd: the name is taken from here
    script = fake_editor(tmp_path, editor)
    log = tmp_path / "argv.log"
    command, note = open_command(read_call(name, offset=9), None, environ={"EDITOR": str(script)})
    assert command is not None, note
    subprocess.run(command, env={**os.environ, "ARGV_LOG": str(log)}, check=True, timeout=30)
    argv = log.read_text().split("\0")[:-1]
    family = family_of(editor)
    path = str(work / name)
    if family.line == GOTO:
        assert argv == ["--goto", "--", f"{path}:9"]
    elif family.line == SUFFIX:
        assert argv == [f"{path}:9"]
    elif family.line_after_end:
        assert argv == ["--", "+9", path]
    else:
        assert argv == ["+9", "--", path]


@pytest.mark.parametrize("name", [*HOSTILE, "a\nb", "a\x1b[2Jb", "a\x07", "y" * 300])
def test_a_hostile_path_not_on_this_machine_launches_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    monkeypatch.chdir(tmp_path)
    script = fake_editor(tmp_path, "vim")
    command, note = open_command(read_call(name), None, environ={"EDITOR": str(script)})
    assert command is None
    assert "not on this machine" in note or "not opening" in note
    assert "\n" not in note and "\x1b" not in note and "\x07" not in note


def test_a_call_with_no_file_and_a_directory_open_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shell = ToolCall(0, "s", "shell", args={"command": "ls"}, target="ls")
    assert open_command(shell, None) == (None, "a shell call names no file: nothing to open")
    listing = ToolCall(1, "l", "ls", args={"path": str(tmp_path)}, target=str(tmp_path))
    command, note = open_command(listing, None)
    assert command is None and note == f"{tmp_path} is a directory: o opens files"


def test_a_recorded_path_is_not_here_until_a_map_or_the_checkout_finds_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    checkout = tmp_path / "tidepool"
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "app.py").write_text("x\n")
    monkeypatch.chdir(tmp_path)
    call = read_call("/home/dev/src/tidepool/src/app.py")
    vim = {"EDITOR": "vim"}
    command, note = open_command(call, "/home/dev/src/tidepool", environ=vim)
    assert command is None
    assert note.startswith("/home/dev/src/tidepool/src/app.py is not on this machine")
    pairs = merged_map([("/home/dev/src/tidepool", str(checkout))], {"/home/dev": "/nowhere"})
    command, note = open_command(call, "/home/dev/src/tidepool", pairs, environ=vim)
    assert command == ["vim", "--", str(checkout / "src" / "app.py")]
    assert note.startswith(f"opened {checkout / 'src' / 'app.py'} (mapped from")
    monkeypatch.chdir(checkout)
    command, note = open_command(call, "/home/dev/src/tidepool", environ=vim)
    assert command == ["vim", "--", str(checkout / "src" / "app.py")]
    assert "guessed" in note


def test_an_edit_opens_at_the_line_it_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The recording's edit of backoff.py changes line 23 (its hunk starts at 20)."""
    store = LineStore()
    reader = EventReader(store)
    state = StreamState()
    data = (REPO / "recordings" / "success-multi-tool.ndjson").read_bytes()
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    session = state.sessions[0]
    edit = next(c for c in session.tool_calls if c.kind == "edit")
    local = tmp_path / "src" / "tidepool" / "backoff.py"
    local.parent.mkdir(parents=True)
    local.write_text("x\n" * 40)
    monkeypatch.chdir(tmp_path)
    command, _ = open_command(edit, session.cwd, store=store, environ={"EDITOR": "nvim"})
    assert command == ["nvim", "+23", "--", str(local)]


@pytest.mark.skipif(
    shutil.which("vim") is None, reason="vim is not installed (.ci/run installs it)"
)
def test_real_vim_runs_no_command_from_a_hostile_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """vim in ex mode, fed nothing: handed the name as it stands it runs ``:!touch``
    (the control), handed what `o` builds it only opens the file."""
    work = tmp_path / "work"
    work.mkdir()
    name = "+:!touch pwned-marker"
    (work / name).write_text("odd\n")
    marker = work / "pwned-marker"
    vim = ["vim", "-u", "NONE", "-i", "NONE", "-N", "-es"]
    quiet = {"stdin": subprocess.DEVNULL, "cwd": work, "timeout": 30, "check": False}
    subprocess.run([*vim, name], **quiet)  # type: ignore[call-overload]
    assert marker.exists(), "the control: vim runs a +command it is handed"
    marker.unlink()
    monkeypatch.chdir(work)
    command, note = open_command(read_call(name), None, environ={"EDITOR": " ".join(vim)})
    assert command is not None, note
    subprocess.run(command, **quiet)  # type: ignore[call-overload]
    assert not marker.exists()


def special_files(tmp_path: Path) -> list[tuple[Path, str]]:
    """A FIFO, a socket, a device, a /proc file and a link to the FIFO, by what o says."""
    import socket

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    # A socket's path must fit in 108 bytes: pytest's folders can be longer.
    sock = Path(tempfile.mkdtemp(prefix="sv", dir="/tmp")) / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(sock))
    server.close()  # the socket file stays
    link = tmp_path / "link-to-fifo.txt"
    link.symlink_to(fifo)
    return [
        (fifo, "a named pipe (FIFO)"),
        (sock, "a socket"),
        (Path("/dev/null"), "a character device"),
        (Path("/proc/self/environ"), "a /proc file (the system's live state)"),
        (link, "a named pipe (FIFO)"),
    ]


def test_o_refuses_fifos_sockets_devices_and_proc_files_with_the_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """An editor blocks opening a FIFO with the terminal raw (issue 26.5), and
    /proc/self/environ would put the environment, keys included, on screen."""
    monkeypatch.chdir(tmp_path)
    script = fake_editor(tmp_path, "vim")
    specials = special_files(tmp_path)
    request.addfinalizer(lambda: shutil.rmtree(specials[1][0].parent, ignore_errors=True))
    regular = tmp_path / "notes.txt"
    regular.write_text("x\n")
    command, _ = open_command(read_call(str(regular)), None, environ={"EDITOR": str(script)})
    assert command is not None and command[-1] == str(regular)
    for path, what in specials:
        if not path.exists():
            continue  # /proc on a system without it
        command, note = open_command(read_call(str(path)), None, environ={"EDITOR": str(script)})
        assert command is None, path
        assert note == f"{path} is {what}: o opens regular files only"
