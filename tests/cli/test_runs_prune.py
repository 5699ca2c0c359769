"""``streamview runs --prune AGE`` as a person and a script meet it (issue 30.5): it
says what it would delete and asks on the terminal; ``--yes`` deletes without asking;
without a terminal and without ``--yes`` it deletes nothing and says how to go on."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest

from streamview.cli.runs import human_size
from streamview.runs.run_meta import sidecar_path

from .helpers import REPO_ROOT, child_env, command

CLAUDE = REPO_ROOT / "tests" / "fixtures" / "dialects" / "claude" / "success-tools.jsonl"


@pytest.fixture
def runs(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """A state directory holding an old recording (40 days, with its sidecar) and a
    new one: the environment, the old file and the new one."""
    env = {**child_env(), "XDG_STATE_HOME": str(tmp_path / "state")}
    folder = tmp_path / "state" / "streamview" / "runs"
    folder.mkdir(parents=True)
    old = folder / "20261010-101010-claude.ndjson"
    new = folder / "20261120-101010-claude.ndjson"
    for path in (old, new):
        path.write_bytes(CLAUDE.read_bytes())
        sidecar_path(path).write_text("{}")
    forty_days = time.time() - 40 * 86_400
    os.utime(old, (forty_days, forty_days))
    return env, old, new


def prune_at_a_terminal(env: dict[str, str], keys: bytes, *args: str) -> tuple[int, str]:
    """``streamview runs --prune 30d`` on a pseudo-terminal: once it asks, the person
    types ``keys``; its exit status and everything it showed."""
    primary, secondary = pty.openpty()
    process = subprocess.Popen(
        command("runs", "--prune", "30d", *args),
        stdin=secondary,
        stdout=secondary,
        stderr=secondary,
        env=env,
        cwd=REPO_ROOT,
    )
    os.close(secondary)
    shown, typed = b"", False
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if not typed and b"[y/N]" in shown:
            os.write(primary, keys)
            typed = True
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(primary, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        elif process.poll() is not None:
            break
    code = process.wait(timeout=10)
    os.close(primary)
    return code, shown.decode().replace("\r\n", "\n")


def test_prune_lists_what_it_would_delete_and_no_keeps_it(
    runs: tuple[dict[str, str], Path, Path],
) -> None:
    env, old, new = runs
    code, shown = prune_at_a_terminal(env, b"n\r")
    assert code == 0, shown
    assert f"1 recording ({human_size(old.stat().st_size)}) older than 30d in" in shown
    assert f"  {old.name}  40d old" in shown and new.name not in shown
    assert "delete it and their sidecars? [y/N]" in shown
    assert "nothing deleted" in shown
    assert old.exists() and sidecar_path(old).exists()


def test_prune_deletes_once_the_person_says_yes(
    runs: tuple[dict[str, str], Path, Path],
) -> None:
    env, old, new = runs
    code, shown = prune_at_a_terminal(env, b"y\r")
    assert code == 0, shown
    assert "delete it and their sidecars? [y/N] y\npruned 1 recording (" in shown
    assert not old.exists() and not sidecar_path(old).exists()
    assert new.exists() and sidecar_path(new).exists()


def test_prune_without_a_terminal_refuses_without_yes(
    runs: tuple[dict[str, str], Path, Path],
) -> None:
    env, old, _ = runs
    refused = subprocess.run(
        command("runs", "--prune", "30d"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert refused.returncode == 2
    assert old.name in refused.stdout
    assert refused.stderr.strip() == (
        "streamview: runs --prune: not deleting 1 recording without a terminal to ask on: "
        "add --yes to delete them"
    )
    assert old.exists()
    done = subprocess.run(
        command("runs", "--prune", "30d", "--yes"),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "pruned 1 recording (" in done.stdout and not old.exists()


def test_prune_with_nothing_old_enough_says_so_and_asks_nothing(
    runs: tuple[dict[str, str], Path, Path],
) -> None:
    env, old, new = runs
    code, shown = prune_at_a_terminal(env, b"y\r", "--yes")  # --yes asks nothing
    assert code == 0 and "[y/N]" not in shown and not old.exists()
    code, shown = prune_at_a_terminal(env, b"y\r")
    assert code == 0
    assert "nothing to prune: no recording older than 30d in" in shown
    assert "[y/N]" not in shown and new.exists()
