"""The limit streamview chases: read a file and ``orjson.loads`` every line, nothing else.

Usage::

    python bench/bare_loop.py FILE

Prints one JSON object: ``lines`` decoded, ``seconds`` spent in the loop, and
``peak_rss_mb`` of this process. ``bench/run.py`` times the whole process from the
outside, as it times ``streamview --json``, so interpreter start-up counts for both.
"""

from __future__ import annotations

import resource
import sys
import time

import orjson


def bare_loop(path: str) -> int:
    """Decode every non-blank line of ``path``; return how many there were."""
    loads = orjson.loads
    lines = 0
    with open(path, "rb") as handle:
        for line in handle:
            if line.strip():
                loads(line)
                lines += 1
    return lines


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        sys.stderr.write("usage: python bench/bare_loop.py FILE\n")
        return 2
    began = time.perf_counter()
    lines = bare_loop(args[0])
    seconds = time.perf_counter() - began
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    sys.stdout.write(
        orjson.dumps({"lines": lines, "seconds": seconds, "peak_rss_mb": peak}).decode() + "\n"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
