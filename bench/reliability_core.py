"""Parts of the reliability campaign that need no viewer: the sanitizer on hostile text,
the core under fuzzing, hostile output through the real command, and faults."""

from __future__ import annotations

import os
import random
import re
import subprocess
import time
from collections import Counter
from pathlib import Path

import orjson

from bench.reliability_report import Part
from streamview.core.sanitize import UNSAFE_CHARS, clean, one_line
from tests.hostile import streams
from tests.hostile.checks import check_stream
from tests.hostile.corpus import ALL_TEXT, CORPUS
from tests.hostile.helpers import cli_env, command, real_captures
from tests.hostile.mutate import MUTATIONS, chunked, expected_total, mutate

UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")
SGR = re.compile(r"\x1b\[[0-9;:]*m")

REPO = Path(__file__).resolve().parents[1]


# -- 1. Sanitizer -------------------------------------------------------------------------


def random_hostile_text(rng: random.Random) -> str:
    """Text, corpus sequences, random code points and fragments glued together."""
    pieces = []
    for _ in range(rng.randint(1, 12)):
        roll = rng.random()
        if roll < 0.35:
            pieces.append(rng.choice(CORPUS).text)
        elif roll < 0.55:
            pieces.append("".join(chr(rng.randrange(0x110000)) for _ in range(rng.randint(1, 6))))
        elif roll < 0.75:
            pieces.append("".join(rng.choice("\x1b[];0123456789m?\x07\\\r\n\t") for _ in range(5)))
        else:
            pieces.append(rng.choice(["hello ", "日本語 ", "🙂", "\u200d", "\t", "\n", "—"]))
    return "".join(pieces)


def part_sanitizer(part: Part, count: int) -> None:
    rng = random.Random(1)
    bad = 0
    for _ in range(count):
        text = random_hostile_text(rng)
        for out in (clean(text), SGR.sub("", clean(text, keep_sgr=True)), one_line(text)):
            if UNSAFE.search(out) is not None:
                bad += 1
                if bad <= 5:
                    part.fail(f"unsafe output for {text!r}")
    families = {"line": "separator", "paragraph": "separator", "lone": "surrogate"}
    prefixes = (s.name.split("-")[0] for s in CORPUS)
    kinds = Counter(
        families.get(m, "OSC" if m.startswith("osc") else m.upper() if len(m) <= 3 else m)
        for m in prefixes
    )
    part.add(
        f"corpus: {len(CORPUS)} named sequences ("
        + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items()))
        + ")",
        "every one made inert alone, between text, repeated (tests/hostile/test_sanitize.py)",
    )
    part.add(
        f"{count:,} random strings (corpus pieces, random code points, escape fragments)"
        " through clean, clean(keep_sgr) and one_line",
        f"{bad} outputs with an unsafe character",
    )
    plain = "hello world, some `code` and text — 日本語\n" * 250_000
    ansi = "\x1b[32mPASSED\x1b[0m tests/test_x.py::test_%d\r\n" * 200_000
    for label, text in (("plain text", plain), ("ANSI-coloured CRLF output", ansi)):
        started = time.perf_counter()
        clean(text)
        seconds = time.perf_counter() - started
        part.add(
            f"clean() speed on {len(text) / 1e6:.0f} MB of {label}",
            f"{len(text) / 1e6 / seconds:,.0f} MB/s",
        )


# -- 2. Core fuzzing ------------------------------------------------------------------------


def part_fuzz(part: Part, count: int) -> None:
    captures = [p.read_bytes() for p in real_captures()]
    if not captures:
        part.fail("real captures folder absent: tests/fixtures/cursor-real")
        return
    rng = random.Random(2)
    applied: Counter[str] = Counter()
    totals: Counter[str] = Counter()
    bytes_seen = 0
    failures = 0
    for n in range(count):
        data, names = mutate(rng.choice(captures), rng, rng.randint(1, 8))
        applied.update(names)
        chunks = chunked(data, rng, rng.randint(1, 60))
        bytes_seen += len(data)
        try:
            counts = check_stream(chunks)
            totals.update(counts)
        except Exception as error:
            failures += 1
            if failures <= 5:
                part.fail(f"input {n} ({', '.join(names)}): {type(error).__name__}: {error}")
    part.add(
        f"{count:,} mutated real captures ({len(captures)} captures; "
        f"{sum(applied.values()):,} mutations of {len(MUTATIONS)} kinds), each cut into "
        "1-60 random chunks, folded as --print and --json do",
        f"{failures} raised or broke an invariant",
    )
    part.add(
        f"{totals['total']:,} lines, {bytes_seen / 1e6:.1f} MB",
        f"{totals['events']:,} events + {totals['malformed']:,} malformed + "
        f"{totals['unknown']:,} unknown = {totals['total']:,}: every non-blank line accounted for",
    )
    part.add("mutation kinds", ", ".join(f"{k} {v:,}" for k, v in sorted(applied.items())))
    # Orderings: every capture's lines shuffled.
    shuffles = 0
    for _ in range(count // 4):
        lines = rng.choice(captures).split(b"\n")
        rng.shuffle(lines)
        data = b"\n".join(lines)
        try:
            check_stream(chunked(data, rng, rng.randint(1, 10)))
            shuffles += 1
        except Exception as error:
            part.fail(f"shuffled capture: {type(error).__name__}: {error}")
    part.add(f"{count // 4:,} real captures in random line order", f"{shuffles:,} held")
    blobs = 0
    for _ in range(count // 4):
        blob = os.urandom(rng.randint(0, 4000))
        try:
            check_stream(chunked(blob, rng, rng.randint(1, 10)))
            blobs += 1
        except Exception as error:
            part.fail(f"random bytes: {type(error).__name__}: {error}")
    part.add(f"{count // 4:,} inputs of random bytes", f"{blobs:,} held")


# -- 3. Hostile output through the real command ------------------------------------------


def part_print(part: Part, workdir: Path) -> None:
    path = workdir / "hostile.ndjson"
    parts = [
        streams.hostile_stream(f"<{s.name}>{s.text}</{s.name}>", session=f"s-{n}")
        for n, s in enumerate(CORPUS)
    ]
    parts.append(streams.hostile_stream(ALL_TEXT, session="s-all"))
    path.write_bytes(b"".join(parts))
    for mode in ("--print", "--json"):
        done = subprocess.run(
            command(mode, str(path)), capture_output=True, env=cli_env(), cwd=REPO, timeout=300
        )
        text = done.stdout.decode("utf-8", "replace")
        found = len(UNSAFE.findall(text))
        if done.returncode != 0 or found or b"Traceback" in done.stderr:
            part.fail(f"{mode}: exit {done.returncode}, {found} unsafe characters")
        part.add(
            (
                f"`{mode}` on {len(CORPUS) + 1} sessions, each sequence in all 35 string fields"
                " (init, prompt, thinking, answer, tool kinds, args, outputs, errors, call ids,"
                " approvals, notices, unknown records, result) and 4 kinds of malformed line"
            )
            if mode == "--print"
            else "`--json` on the same file",
            f"{len(done.stdout):,} bytes out, {found} unsafe characters, exit {done.returncode}",
        )
    md, svg = workdir / "out.md", workdir / "out.svg"
    done = subprocess.run(
        command("--export-markdown", str(md), "--export-svg", str(svg), str(path)),
        capture_output=True,
        env=cli_env(),
        cwd=REPO,
        timeout=300,
    )
    if done.returncode == 0 and md.exists() and svg.exists():
        from tests.hostile.safety import unsafe_in_svg

        found = len(UNSAFE.findall(md.read_text("utf-8"))) + len(
            unsafe_in_svg(svg.read_text("utf-8"))
        )
        part.add("`--export-markdown` and `--export-svg` of the same file", f"{found} unsafe")
        if found:
            part.fail("exports hold unsafe characters")
    else:
        part.fail(f"exports: exit {done.returncode}: {done.stderr[-300:]!r}")


# -- 4. Faults ------------------------------------------------------------------------------


def _run_bytes() -> bytes:
    lines = [
        streams.dumps({"type": "system", "subtype": "init", "session_id": "s", "model": "M"}),
        streams.dumps(streams.text_message("user", "go", session_id="s")),
    ]
    for n in range(200):
        call = f"c{n}"
        args = {"command": f"echo {n}"}
        lines.append(streams.dumps(streams.tool_record("started", call, "shellToolCall", args)))
        result = {"success": {"exitCode": 0, "interleavedOutput": f"{n}\n"}}
        lines.append(
            streams.dumps(streams.tool_record("completed", call, "shellToolCall", args, result))
        )
    return b"".join(lines)


def part_faults(part: Part, workdir: Path, rounds: int) -> None:
    data = _run_bytes()
    rng = random.Random(4)
    # Producer killed at a random byte: everything before is shown, the rest reported.
    held = 0
    for _ in range(rounds):
        cut = rng.randrange(1, len(data))
        sent = data[:cut]
        done = subprocess.run(
            command("--json"), input=sent, capture_output=True, env=cli_env(), cwd=REPO
        )
        ok = done.returncode == 1 and b"Traceback" not in done.stderr
        if ok:
            lines = orjson.loads(done.stdout)["lines"]
            ok = lines["total"] == expected_total(sent)
        held += ok
        if not ok:
            part.fail(f"input cut at byte {cut}: exit {done.returncode} {done.stderr[-200:]!r}")
    part.add(
        f"{rounds} runs cut at a random byte (producer killed mid-line), `--json` from a pipe",
        f"{held} gave exit 1, valid JSON, every received line counted",
    )
    # SIGPIPE: the reader leaves after a random number of bytes.
    big = workdir / "big.ndjson"
    streams.write_lines(big, streams.many_calls_stream(5_000))
    clean_exits = 0
    for _ in range(rounds):
        keep = rng.choice([1, 10, 100, 1000, 100_000])
        mode = rng.choice(["--print", "--json"])
        shell = (
            f"{' '.join(command(mode, str(big)))} | head -c {keep} >/dev/null;"
            ' echo "status=${PIPESTATUS[0]}" >&2'
        )
        done = subprocess.run(["bash", "-c", shell], capture_output=True, env=cli_env(), cwd=REPO)
        err = done.stderr.decode()
        ok = "status=0" in err and "Traceback" not in err and "Exception" not in err
        clean_exits += ok
        if not ok:
            part.fail(f"SIGPIPE {mode} after {keep} bytes: {err[-300:]}")
    part.add(
        f"{rounds} runs of `--print`/`--json file | head -c N` (N = 1 B to 100 KB)",
        f"{clean_exits} exited 0 with no traceback",
    )
    # Recording that cannot be written.
    blocker = workdir / "a-file"
    blocker.write_bytes(b"")
    targets = [Path("/dev/full"), blocker / "rec.ndjson", workdir / "no" / "dir" / "rec.ndjson"]
    honest = 0
    for target in targets:
        done = subprocess.run(
            command("--print", "--record", str(target)),
            input=data + streams.dumps({"type": "result", "subtype": "success"}),
            capture_output=True,
            env=cli_env(),
            cwd=REPO,
        )
        err = done.stderr.decode()
        ok = (
            done.returncode == 0
            and str(target) in err
            and "Traceback" not in err
            and done.stdout.count(b"\n") > 400
        )
        honest += ok
        if not ok:
            part.fail(f"recording to {target}: exit {done.returncode}: {err[-300:]}")
    part.add(
        "recording to /dev/full (disk full), under a file, into a missing directory",
        f"{honest}/{len(targets)}: one clear message naming the file, the run still shown, exit 0",
    )
    part.add(
        "also covered by tests/hostile/test_faults.py, test_tui_live.py, test_tui_faults.py,"
        " tests/replay/test_recording.py",
        "producer SIGKILLed mid-line (recording keeps every complete line), stdin closed at once"
        " and after init, silence then resume (2 s in `--print`; five minutes in the viewer,"
        " which shows the idle time and the open call), `--follow` file appended, truncated,"
        " replaced by rename, deleted and re-created, unreadable inputs, 200 KB of random"
        " bytes, the viewer resized from 1x1 to 300x100 while a pipe streams, recording to a"
        " full disk while the viewer runs (one notification, the run still shown), a"
        " read-only file system from the start or from the third line on (EROFS, simulated:"
        " root ignores permissions here; the lines before stay whole)",
    )
