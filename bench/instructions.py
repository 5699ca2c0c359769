"""Instructions a line, counted by callgrind: the bare loop, the dialect's own reading,
``--json`` and ``--events``, per dialect. Load does not move them.

Usage::

    python bench/instructions.py [--data-dir /tmp/bd] [--dialects codex,kimi]
        [--lines 10000,30000]

CPU ratios (``bench/ab_dialects.py``) move 5-15 % from one run to the next on a shared
machine; instruction counts do not. Each figure is the difference between two runs of
one command, on the first ``A`` and the first ``B`` lines of the dialect's bench file
(``<dialect>_100k.ndjson`` in ``--data-dir``, as ``bench/run.py`` writes them; Cursor's
is ``events_100k.ndjson``), divided by ``B - A``: start-up (interpreter, imports) falls
out. Four commands:

- ``bare``: ``bench/bare_loop.py`` (``orjson.loads`` of every line);
- ``dialect``: :func:`dialect_loop` (each line to the dialect's ``fast_line``, the lines
  it declines to ``orjson.loads`` and its ``fast``, and those to its ``translate``):
  what the dialect's decoders and Python cost before the shared fold sees a record or
  an event, the floor of the path below it (a lower bound: what a dialect leaves for
  the fold to ask, as Kimi's results summed up when the fold settles a call, is not
  in it);
- ``--json`` and ``--events``: ``python -m streamview MODE --agent DIALECT``.

The ratios say where a dialect's cost is: ``dialect`` near ``--json`` is the dialect's
own reading, far below it the shared fold (or the lines the dialect's fast path
declines, which go the long way). Instructions are not time (the interpreter's loops
run at fewer instructions a cycle than orjson's): the CPU ratio of a run is higher.
Needs ``valgrind``; a run of every dialect takes ~15 minutes of one core.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from ab_dialects import DIALECTS, bench_file

BENCH = Path(__file__).resolve().parent
REPO = BENCH.parent
_COLLECTED = re.compile(rb"Collected : (\d+)")


def dialect_loop(name: str, path: str) -> int:
    """Read ``path`` as dialect ``name`` does before the fold: each line to its
    ``fast_line`` (with its newline when the dialect reads it so), a line declined to
    ``orjson.loads`` and the dialect's ``fast``, and one that declines to its
    ``translate`` (the events built, not applied: a translator keeps what the next
    line's reading needs); blank lines skipped, as the bare loop skips them. Returns the
    number of lines read, as the bare loop counts them."""
    import orjson

    from streamview.core.dialects import by_name
    from streamview.core.dialects.lines import translate_decoded

    dialect = by_name(name)
    if dialect is None:
        raise SystemExit(f"no dialect {name!r}")
    translator = dialect.translator()
    fast_line = getattr(translator, "fast_line", None)
    fast = translator.fast
    ended = getattr(translator, "fast_line_ended", False)
    loads = orjson.loads
    number = 0
    with open(path, "rb") as handle:
        for data in handle:
            if not data.strip():
                continue
            number += 1
            line = data if ended else data.rstrip(b"\n")
            hot = fast_line(line, number) if fast_line is not None else None
            if hot is None:
                line = line.rstrip(b"\n")
                record = loads(line)
                if record.__class__ is not dict or fast(record, number) is None:
                    translate_decoded(translator, record, line, number)
    return number


def instructions(command: list[str]) -> int:
    """Instructions ``command`` ran, all of it, as callgrind counts them."""
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONPATH=str(REPO))
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command],
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    if done.returncode not in (0, 1):  # 1: a cut file ends without its result
        raise SystemExit(f"{command} exited {done.returncode}: {done.stderr[-2000:]!r}")
    found = _COLLECTED.search(done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said no count for {command}")
    return int(found.group(1))


def per_line(command: list[str], short: Path, long: Path, lines: int) -> float:
    """Instructions a line of ``command`` (its last argument the file): the long file's
    count less the short one's, over the ``lines`` between them."""
    return (instructions([*command, str(long)]) - instructions([*command, str(short)])) / lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=BENCH / "data")
    parser.add_argument("--dialects", default=DIALECTS)
    parser.add_argument("--lines", default="10000,30000", help="A,B: the two prefixes")
    parser.add_argument(
        "--only-events", action="store_true", help="count --events alone (and the bare loop)"
    )
    parser.add_argument(
        "--dialect-loop", nargs=2, metavar=("DIALECT", "FILE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args(argv)
    if args.dialect_loop:
        dialect_loop(*args.dialect_loop)
        return 0
    first, second = (int(part) for part in args.lines.split(","))
    python = sys.executable
    print("| dialect | bare | dialect's own | ratio | `--json` | ratio | `--events` | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for dialect in args.dialects.split(","):
            path = bench_file(args.data_dir, dialect)
            if path is None:
                continue
            short, long = Path(folder, f"{dialect}-a"), Path(folder, f"{dialect}-b")
            with open(path, "rb") as source, open(short, "wb") as a, open(long, "wb") as b:
                for number, line in enumerate(source, 1):
                    if number > second:
                        break
                    if number <= first:
                        a.write(line)
                    b.write(line)
            span = second - first
            bare = per_line([python, str(BENCH / "bare_loop.py")], short, long, span)
            mode = [python, "-m", "streamview", "--agent", dialect]
            if args.only_events:
                own = json = float("nan")  # not counted: a dash in the table
            else:
                loop = [python, str(Path(__file__)), "--dialect-loop", dialect]
                own = per_line(loop, short, long, span)
                json = per_line([*mode, "--json"], short, long, span)
            events = per_line([*mode, "--events"], short, long, span)
            cells = [f"{bare:,.0f}"]
            for count in (own, json, events):
                cells += ["—", "—"] if count != count else [f"{count:,.0f}", f"{count / bare:.2f}x"]
            print(f"| {dialect} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
