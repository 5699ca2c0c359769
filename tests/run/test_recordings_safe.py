"""Recordings as runs leave them on disk: never shared, never torn, private.

Real ``streamview run`` processes (many at once), a real 64 KB tmpfs that fills up
(see :mod:`tests.run.disk`), real umasks.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import orjson

from streamview.runs.recording import strip_timing
from streamview.runs.run_meta import read_meta, sidecar_path

from .disk import small_disk

REPO = Path(__file__).resolve().parents[2]
AGENTS = Path(__file__).parent / "agents"
PYTHON = sys.executable
RECV = b"streamview_recv_ms"


def agent(name: str, *arguments: str) -> list[str]:
    return [PYTHON, str(AGENTS / f"{name}.py"), *arguments]


def state_env(folder: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_STATE_HOME"] = str(folder)
    return env


def streamview(
    *arguments: str, env: dict[str, str], umask: int | None = None
) -> subprocess.Popen[bytes]:
    def preexec() -> None:
        if umask is not None:
            os.umask(umask)

    return subprocess.Popen(
        [PYTHON, "-m", "streamview", *arguments],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
        preexec_fn=preexec,
    )


def finish(process: subprocess.Popen[bytes]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=180)
    return process.returncode, out.decode(), err.decode()


def recorded_path(stderr: str) -> Path:
    line = next(line for line in stderr.splitlines() if " lines to " in line)
    return Path(line.split(" lines to ", 1)[1].split(" (cut: ")[0])


def whole_lines(data: bytes) -> list[bytes]:
    """The recording's lines; each must be a whole JSON object with one timing key."""
    assert data.endswith(b"\n"), data[-80:]
    lines = data.splitlines(keepends=True)
    for line in lines:
        assert line.count(RECV) == 1, line[:120]
        assert isinstance(orjson.loads(line), dict)
    return lines


def test_runs_started_at_once_each_keep_their_own_whole_recording(tmp_path: Path) -> None:
    """16 `run --print` and 2 `run --json` started together (issue 20.1: 26 such runs left
    14 files of mixed, torn content): 18 files, each whole and holding its own run, byte
    for byte. (26 runs, each agent run again for its expected bytes, took 25 s on a busy
    machine; the agent's output is the same but for its tag, so it runs once here.)"""
    env = state_env(tmp_path / "state")
    tags = [f"print{number:02d}" for number in range(16)] + ["json00", "json01"]
    template = subprocess.run(agent("tagged", "@TAG@", "40", "200"), capture_output=True).stdout
    assert template.count(b"@TAG@") == 42  # the prompt, 40 lines of answer, the result
    runs = {}
    for tag in tags:
        mode = "--json" if tag.startswith("json") else "--print"
        runs[tag] = streamview("run", mode, "--", *agent("tagged", tag, "40", "200"), env=env)
    paths = {}
    for tag, process in runs.items():
        code, out, err = finish(process)
        assert code == 0, (tag, err)
        assert f"{tag} part 39" in out or f"done {tag}" in out
        paths[tag] = recorded_path(err)
        assert f"recorded 43 lines to {paths[tag]}" in err
    assert len(set(paths.values())) == len(tags)
    folder = tmp_path / "state" / "streamview" / "runs"
    assert sorted(folder.glob("*.ndjson")) == sorted(paths.values())
    for tag, path in paths.items():
        expected = template.replace(b"@TAG@", tag.encode())
        lines = whole_lines(path.read_bytes())
        assert b"".join(strip_timing(line) for line in lines) == expected, tag
        meta = read_meta(path)
        assert meta is not None and meta.command[-3:] == (tag, "40", "200")
        assert meta.exit_code == 0 and meta.ended == "finished" and meta.lines == 43


def test_a_full_disk_cuts_the_recording_at_a_whole_line_and_says_so(tmp_path: Path) -> None:
    """Issue 20.4. A real 64 KB tmpfs holds the state directory (as root; else RLIMIT_FSIZE
    of 64 KB on streamview, see tests/run/disk.py): a 100 KB run fills it mid-line."""
    with small_disk(tmp_path / "disk") as disk:
        env = state_env(disk.folder)
        process = subprocess.Popen(
            [
                PYTHON,
                "-m",
                "streamview",
                "run",
                "--print",
                "--",
                *agent("tagged", "full", "300", "300"),
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=env,
            preexec_fn=disk.preexec,
        )
        code, out, err = finish(process)
        assert code == 0, err  # the run succeeded: the recording's trouble is not the run's
        assert out.rstrip().endswith("== success · in 300ms")
        path = recorded_path(err)
        data = path.read_bytes()
        lines = whole_lines(data)  # no torn last line
        expected = subprocess.run(agent("tagged", "full", "300", "300"), capture_output=True)
        assert b"".join(strip_timing(line) for line in lines) == b"".join(
            expected.stdout.splitlines(keepends=True)[: len(lines)]
        )
        assert 10 < len(lines) < 303
        assert f"recording cut: {disk.reason} (" in err
        assert f"recorded {len(lines)} lines to {path} (cut: {disk.reason})" in err
        meta = read_meta(path)
        assert meta is not None
        assert (meta.cut, meta.lines, meta.size) == (disk.reason, len(lines), len(data))
        assert (meta.exit_code, meta.ended, meta.result_seen) == (0, "finished", True)

        listing = subprocess.run(
            [PYTHON, "-m", "streamview", "runs"], capture_output=True, text=True, env=env
        )
        row = listing.stdout.splitlines()[2]
        assert f"✂ cut: {disk.reason}" in row and "no result" not in row
        last = subprocess.run(
            [PYTHON, "-m", "streamview", "last", "--print"],
            capture_output=True,
            text=True,
            env=env,
        )
        note = f"!! recording cut: {disk.reason} after {len(lines):,} lines: the run went on"
        assert last.stdout.splitlines()[-1].startswith(note)


def test_recordings_are_private_whatever_the_umask(tmp_path: Path) -> None:
    """Issue 20.10: a 0700 runs directory (an older 0755 one is narrowed), 0600 files;
    --record PATH likewise; an export keeps to what the umask allows."""
    env = state_env(tmp_path / "state")
    folder = tmp_path / "state" / "streamview" / "runs"
    folder.mkdir(parents=True, mode=0o755)
    os.chmod(folder, 0o755)  # as an older streamview left it
    code, _, err = finish(
        streamview("run", "--json", "--", *agent("success"), env=env, umask=0o022)
    )
    assert code == 0
    path = recorded_path(err)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(sidecar_path(path).stat().st_mode) == 0o600

    chosen = tmp_path / "chosen.ndjson"
    arguments = ("run", "--print", "--record", str(chosen), "--", *agent("success"))
    code, _, _ = finish(streamview(*arguments, env=env, umask=0o022))
    assert code == 0 and stat.S_IMODE(chosen.stat().st_mode) == 0o600
    assert stat.S_IMODE(sidecar_path(chosen).stat().st_mode) == 0o600

    for umask, mode in ((0o077, 0o600), (0o027, 0o640)):
        export = tmp_path / f"export-{umask:o}.md"
        arguments = ("--export-markdown", str(export), str(path))
        code, _, err = finish(streamview(*arguments, env=env, umask=umask))
        assert code == 0, err
        assert stat.S_IMODE(export.stat().st_mode) == mode


def test_recording_a_recording_keeps_one_timing_key_per_line(tmp_path: Path) -> None:
    """Issue 21.11: a recording played into `--record` again kept adding a key."""
    env = state_env(tmp_path / "state")
    first = tmp_path / "first.ndjson"
    code, _, _ = finish(
        streamview("run", "--print", "--record", str(first), "--", *agent("success"), env=env)
    )
    assert code == 0
    second = tmp_path / "second.ndjson"
    with first.open("rb") as stdin:
        done = subprocess.run(
            [PYTHON, "-m", "streamview", "--print", "--record", str(second)],
            stdin=stdin,
            capture_output=True,
            cwd=REPO,
            env=env,
        )
    assert done.returncode == 0, done.stderr
    assert second.read_bytes() == first.read_bytes()  # the first arrival times, untouched
    assert all(line.count(RECV) == 1 for line in second.read_bytes().splitlines())
