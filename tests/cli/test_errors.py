"""Inputs that cannot be shown: one clear line on stderr, exit code 2, no traceback."""

from __future__ import annotations

import os
import pty
import subprocess
from pathlib import Path

import pytest

from streamview.cli import main
from streamview.sources import base as sources

from .helpers import child_env, command, run

MODES = [["--json"], ["--print"], []]
MODE_IDS = ["json", "print", "auto"]


def assert_one_line_error(completed: subprocess.CompletedProcess[bytes], *needles: str) -> str:
    """Exit 2, nothing on stdout, one line on stderr that holds every needle."""
    stderr = completed.stderr.decode()
    assert completed.returncode == 2, (completed.returncode, stderr)
    assert completed.stdout == b""
    assert "Traceback" not in stderr
    assert stderr.endswith("\n") and stderr.count("\n") == 1, stderr
    for needle in needles:
        assert needle in stderr, (needle, stderr)
    return stderr


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_missing_file(mode: list[str], tmp_path: Path) -> None:
    missing = tmp_path / "no-such-run.ndjson"
    assert_one_line_error(run(*mode, str(missing)), str(missing), "no such file")


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_directory(mode: list[str], tmp_path: Path) -> None:
    assert_one_line_error(run(*mode, str(tmp_path)), str(tmp_path), "directory")


NO_OVERRIDE = [
    "setpriv",
    "--inh-caps=-dac_override,-dac_read_search",
    "--bounding-set=-dac_override,-dac_read_search",
]
"""Root's child without the capabilities that let it read any file: mode 000 stops it as
it stops anyone (CI runs as root; the file's owner is root, so the rest of what the
child reads, owned and readable by root, still is)."""


def test_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "secret.ndjson"
    path.write_bytes(b'{"type":"user"}\n')
    path.chmod(0)
    try:
        argv = command("--json", str(path))
        if os.geteuid() == 0:
            argv = [*NO_OVERRIDE, *argv]
        completed = subprocess.run(
            argv, capture_output=True, env=child_env(), timeout=60, check=False
        )
        assert_one_line_error(completed, str(path), "permission denied")
    finally:
        path.chmod(0o600)


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_unreadable_file_as_any_user(
    mode: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The same refusal, made by a stand-in for ``open`` so that root sees it too."""
    path = tmp_path / "secret.ndjson"
    path.write_bytes(b'{"type":"user"}\n')

    def refuse(file: object, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", str(file))

    monkeypatch.setattr(sources, "open", refuse, raising=False)
    assert main([*mode, str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"streamview: {path}: permission denied\n"


def test_file_that_fails_while_being_read() -> None:
    """Opening works, reading fails (EIO): still one line, exit 2."""
    mem = Path("/proc/self/mem")
    if not mem.exists():
        pytest.skip("no /proc/self/mem on this system")
    assert_one_line_error(run("--json", str(mem)), "cannot read", "Input/output error")


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_empty_file(mode: list[str], tmp_path: Path) -> None:
    path = tmp_path / "empty.ndjson"
    path.write_bytes(b"")
    assert_one_line_error(run(*mode, str(path)), str(path), "empty")


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_a_file_of_blank_lines_is_an_empty_input(mode: list[str], tmp_path: Path) -> None:
    path = tmp_path / "blank.ndjson"
    path.write_bytes(b"\n  \r\n\t\n")
    assert_one_line_error(run(*mode, str(path)), str(path), "only blank lines")


@pytest.mark.parametrize("mode", MODES, ids=MODE_IDS)
def test_empty_stdin(mode: list[str]) -> None:
    assert_one_line_error(run(*mode, "-", stdin=b""), "stdin", "empty")
    assert_one_line_error(run(*mode, stdin=b""), "stdin", "empty")


def test_a_file_name_with_escape_sequences_is_not_echoed_raw(tmp_path: Path) -> None:
    name = tmp_path / "evil\x1b]0;owned\x07.ndjson"
    stderr = assert_one_line_error(run("--json", str(name)), "no such file")
    assert "\x1b" not in stderr and "\x07" not in stderr


def test_follow_needs_a_file() -> None:
    assert_one_line_error(run("--follow", "--json", "-", stdin=b"{}\n"), "--follow")


def test_help_mentions_json_and_print() -> None:
    completed = run("--help")
    assert completed.returncode == 0
    out = completed.stdout.decode()
    assert "--json" in out
    assert "--print" in out
    assert "usage: streamview" in out
    assert completed.stderr == b""


def test_no_input_with_a_terminal_on_stdin_prints_usage() -> None:
    parent, child = pty.openpty()
    try:
        completed = subprocess.run(
            command(),
            stdin=child,
            capture_output=True,
            env=child_env(),
            timeout=60,
            check=False,
        )
    finally:
        os.close(child)
        os.close(parent)
    stderr = completed.stderr.decode()
    assert completed.returncode == 2
    assert completed.stdout == b""
    assert "usage: streamview" in stderr
    assert "no input" in stderr
    assert "Traceback" not in stderr


def test_dash_with_a_terminal_on_stdin_prints_usage_too() -> None:
    parent, child = pty.openpty()
    try:
        completed = subprocess.run(
            command("--json", "-"),
            stdin=child,
            capture_output=True,
            env=child_env(),
            timeout=60,
            check=False,
        )
    finally:
        os.close(child)
        os.close(parent)
    assert completed.returncode == 2
    assert b"usage: streamview" in completed.stderr
    assert completed.stdout == b""


def test_stdin_from_dev_null_is_an_empty_input() -> None:
    with open(os.devnull, "rb") as null:
        completed = subprocess.run(
            command("--json"),
            stdin=null,
            capture_output=True,
            env=child_env(),
            timeout=60,
            check=False,
        )
    assert_one_line_error(completed, "stdin", "empty")


def test_a_fifo_or_dev_zero_as_the_settings_file_does_not_stop_the_command(
    tmp_path: Path,
) -> None:
    """Settings read before the first line hung on a FIFO and read /dev/zero without end
    (issue 26.9b): now they are ignored and the run is printed."""
    import shutil

    folder = tmp_path / "config" / "streamview"
    folder.mkdir(parents=True)
    run_file = tmp_path / "run.jsonl"
    shutil.copy(
        Path(__file__).parents[1] / "fixtures/dialects/claude/success-tools.jsonl", run_file
    )
    for make in (os.mkfifo, lambda path: os.symlink("/dev/zero", path)):
        settings = folder / "settings.toml"
        if os.path.lexists(settings):
            os.unlink(settings)
        make(settings)
        env = {**child_env(), "XDG_CONFIG_HOME": str(tmp_path / "config")}
        done = subprocess.run(
            command("--print", str(run_file)), capture_output=True, env=env, timeout=20
        )
        assert done.returncode == 0 and b"== success" in done.stdout
        assert done.stderr.decode().startswith(f"streamview: ignoring {settings}: it is a ")
