"""The reliability campaign's run-mode part: signals, lingering children, a closed output.

Imported by ``bench/reliability.py`` (``--only run``); each case is a real
``streamview`` process, real signals, real background children, checked by pid in
``/proc``; the viewer's cases run in a private tmux server. Figures are wall times on
the machine the campaign runs on.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

REPO = Path(__file__).resolve().parents[1]
AGENTS = REPO / "tests" / "run" / "agents"
PYTHON = sys.executable


class Part(Protocol):
    """What ``reliability.Part`` offers: a row, or a failure."""

    def add(self, tried: str, held: str) -> None: ...
    def fail(self, what: str) -> None: ...


def alive(pid: int) -> bool:
    """Running and not a zombie (PID 1 of a container may never reap one)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2 :].split()[0] != b"Z"


def wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def read_pids(path: Path) -> list[int]:
    wait_for(lambda: path.exists() and len(path.read_text().split()) == 3)
    return [int(pid) for pid in path.read_text().split()]


def spread(values: list[float]) -> str:
    """``0.41-0.55 s`` (or one figure)."""
    low, high = min(values), max(values)
    return f"{low:.2f} s" if f"{low:.2f}" == f"{high:.2f}" else f"{low:.2f}-{high:.2f} s"


def env_for(workdir: Path) -> dict[str, str]:
    env = dict(os.environ, XDG_STATE_HOME=str(workdir / "state"))
    env["PYTHONPATH"] = str(REPO) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def spawner(pids: Path, mode: str) -> list[str]:
    return [PYTHON, str(AGENTS / "spawner.py"), str(pids), mode]


def signal_case(part: Part, workdir: Path, sig: signal.Signals, mode: str, rounds: int) -> None:
    """``run MODE`` on an agent with two children that ignore SIGINT; ``sig`` mid-run."""
    took, codes, survivors, recorded = [], Counter[int](), 0, 0
    for n in range(rounds):
        pids = workdir / f"pids-{sig.name}-{mode}-{n}"
        record = workdir / f"run-{sig.name}-{mode}-{n}.ndjson"
        arguments = ["run", mode, "--record", str(record), "--", *spawner(pids, "work")]
        viewer = subprocess.Popen(
            [PYTHON, "-m", "streamview", *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=REPO,
            env=env_for(workdir),
        )
        members = read_pids(pids)
        wait_for(lambda: record.exists() and record.read_bytes().count(b"\n") == 3)  # noqa: B023
        sent = time.monotonic()
        viewer.send_signal(sig)
        _, err = viewer.communicate(timeout=60)
        took.append(time.monotonic() - sent)
        codes[viewer.returncode] += 1
        left = [pid for pid in members if alive(pid)]
        survivors += len(left)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        recorded += f"recorded 3 lines to {record}".encode() in err
    expected = 128 + sig
    if codes != Counter({expected: rounds}) or survivors or recorded != rounds:
        part.fail(f"run {mode} + {sig.name}: exits {dict(codes)}, {survivors} survivors")
    part.add(
        f"`run {mode}`, {sig.name} mid-run, agent with 2 children ignoring SIGINT ({rounds} runs)",
        f"exit {expected} {codes[expected]}/{rounds}; {survivors} processes left;"
        f" recording closed {recorded}/{rounds}; signal → exit {spread(took)}",
    )


def lingering_case(part: Part, workdir: Path, rounds: int) -> None:
    """`sh -c 'sleep 120 & cat run.ndjson; exit 0'`: the run ends, the sleep is stopped."""
    run = workdir / "success.ndjson"
    with run.open("wb") as out:
        subprocess.run([PYTHON, str(AGENTS / "success.py")], stdout=out, check=True)
    after_exit, held = [], 0
    for n in range(rounds):
        pid_file, stamp = workdir / f"sleep-{n}", workdir / f"exited-{n}"
        script = (
            f"sleep 120 & echo $! > {pid_file}; cat {run};"
            f" {shlex.quote(PYTHON)} -c 'import time; print(time.time())' > {stamp}; exit 0"
        )
        done = subprocess.run(
            [PYTHON, "-m", "streamview", "run", "--json", "--", "sh", "-c", script],
            capture_output=True,
            cwd=REPO,
            env=env_for(workdir),
            timeout=120,
        )
        after_exit.append(time.time() - float(stamp.read_text()))
        sleeper = int(pid_file.read_text())
        lingered = json.loads(done.stdout)["process"]["lingered"]
        gone = wait_for(lambda: not alive(sleeper), timeout=10)  # noqa: B023
        ok = done.returncode == 0 and gone and [e["pid"] for e in lingered] == [sleeper]
        held += ok
        if not gone:
            os.kill(sleeper, signal.SIGKILL)
        if not ok:
            part.fail(f"lingering child: exit {done.returncode}, lingered {lingered}")
    part.add(
        f"`run --json -- sh -c 'sleep 120 & cat run.ndjson; exit 0'` ({rounds} runs)",
        f"{held}/{rounds} ended with exit 0, the sleep listed in `lingered` and stopped;"
        f" agent exit → streamview exit {spread(after_exit)} (--exit-grace 1 s)",
    )
    # What timeout(1) does with the same agent: it waits for its child only, and the
    # reader of the pipe waits for the sleep that still holds it.
    if shutil.which("timeout") is None:
        return
    pid_file = workdir / "sleep-timeout"
    script = f"sleep 120 & echo $! > {pid_file}; cat {run}; exit 0"
    pipeline = subprocess.Popen(
        ["sh", "-c", f"timeout 60 sh -c {shlex.quote(script)} | cat > /dev/null"],
        start_new_session=True,
    )
    try:
        pipeline.wait(timeout=5)
        ended = "ended"
    except subprocess.TimeoutExpired:
        ended = "still waiting after 5 s"
    sleeper = int(pid_file.read_text()) if pid_file.exists() else 0
    survived = sleeper and alive(sleeper)
    os.killpg(pipeline.pid, signal.SIGKILL)
    if sleeper and alive(sleeper):
        os.kill(sleeper, signal.SIGKILL)
    pipeline.wait()
    part.add(
        "the same agent under `timeout 60 … | cat`, for comparison",
        f"pipeline {ended}; the sleep {'still running' if survived else 'gone'}; nothing"
        " says what was left",
    )


def closed_output_case(part: Part, workdir: Path, rounds: int) -> None:
    """`--print failed.ndjson | head -1`: the status of the run, never 0."""
    big = workdir / "failed.ndjson"
    line = b'{"type":"assistant","message":{"content":[{"type":"text","text":"x"}]}}\n'
    big.write_bytes(b'{"type":"system","subtype":"init","session_id":"s"}\n' + line * 20_000)
    cases = {
        "`--print failed.ndjson | head -1`": f"--print {big} | head -1",
        "`cat failed.ndjson | streamview --print | head -1` (live pipe)": (
            f"--print < <(cat {big}; sleep 2) | head -1"
        ),
        "`run --print -- AGENT | head -1`": "run --print -- "
        + shlex.join(spawner(workdir / "pids-head", "work"))
        + " | head -1",
    }
    python = shlex.quote(PYTHON)
    for tried, tail in cases.items():
        codes: Counter[int] = Counter()
        took = []
        for _ in range(rounds):
            shell = f'{python} -m streamview {tail} >/dev/null; echo "${{PIPESTATUS[0]}}"'
            started = time.monotonic()
            done = subprocess.run(
                ["bash", "-c", shell],
                capture_output=True,
                text=True,
                cwd=REPO,
                env=env_for(workdir),
            )
            took.append(time.monotonic() - started)
            codes[int(done.stdout.split()[-1])] += 1
            if "Traceback" in done.stderr or 0 in codes:
                part.fail(f"{tried}: {done.stderr[-300:]}")
        statuses = ", ".join(f"{code} x{count}" for code, count in sorted(codes.items()))
        # The live pipe's time is the shell's: it waits for the producer's `sleep 2`.
        timing = "" if "live" in tried else f"; {spread(took)}"
        part.add(f"{tried} ({rounds} runs)", f"exit {statuses}; never 0{timing}")


def tmux_case(part: Part, workdir: Path) -> None:
    """The viewer: SIGTERM, SIGHUP, a killed pane; terminal state and time to exit."""
    if shutil.which("tmux") is None:
        part.add("the viewer under signals", "not measured: tmux is not installed")
        return
    sys.path.insert(0, str(REPO))
    from tests.e2e.terminal import Tmux

    for how in ("SIGTERM", "SIGHUP", "kill-pane"):
        tmux = Tmux()
        case = workdir / f"tmux-{how}"
        case.mkdir()
        pids, status = case / "pids", case / "exit"
        wrapper = case / "wrapper.py"
        wrapper.write_text(
            "import os, signal, subprocess, sys\n"
            "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
            "child = subprocess.Popen(sys.argv[3:], preexec_fn=lambda: signal.signal("
            "signal.SIGHUP, signal.SIG_DFL))\n"
            "open(sys.argv[2], 'w').write(str(child.pid))\n"
            "open(sys.argv[1], 'w').write(str(child.wait()))\n"
        )
        words = [PYTHON, str(wrapper), str(status), str(case / "pid"), PYTHON, "-m"]
        words += ["streamview", "run", "--", *spawner(pids, "work")]
        env = f"export XDG_STATE_HOME={shlex.quote(str(workdir / 'state'))} && "
        try:
            tmux.start(f"cd {shlex.quote(str(REPO))} && {env}{shlex.join(words)}")
            tmux.wait_for(lambda s: "agent running" in s and "README.md" in s)
            members = read_pids(pids)
            viewer = int((case / "pid").read_text())
            sent = time.monotonic()
            if how == "kill-pane":
                tmux.tmux("kill-pane", "-t", "0")
            else:
                os.kill(viewer, getattr(signal, how))
            wait_for(lambda: status.exists() and bool(status.read_text()))  # noqa: B023
            took = time.monotonic() - sent
            code = int(status.read_text()) if status.exists() else None
            flags = (
                ""
                if how == "kill-pane"
                else tmux.tmux(
                    "display", "-p", "#{alternate_on} #{mouse_any_flag} #{cursor_flag}"
                ).strip()
            )
            left = [pid for pid in members if alive(pid)]
        finally:
            tmux.kill()
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        expected = 128 + signal.SIGHUP if how != "SIGTERM" else 128 + signal.SIGTERM
        if code != expected or left or flags not in ("", "0 0 1"):
            part.fail(f"viewer + {how}: exit {code}, terminal {flags!r}, {len(left)} left")
        terminal = (
            "the pane is gone"
            if how == "kill-pane"
            else f"terminal `{flags}` (alternate screen, mouse, cursor)"
        )
        part.add(
            f"the viewer (`run -- AGENT`, 2 children) in tmux, {how}",
            f"exit {code}; {terminal}; {len(left)} processes left; signal → exit {took:.2f} s",
        )


def part_run_control(part: Part, workdir: Path, rounds: int) -> None:
    """Every case of this part."""
    for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
        for mode in ("--print", "--json"):
            signal_case(part, workdir, sig, mode, rounds)
    lingering_case(part, workdir, rounds)
    closed_output_case(part, workdir, rounds)
    tmux_case(part, workdir)
