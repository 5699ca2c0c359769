"""Text helpers for synthetic streams: token-sized deltas, the CLI's unified diffs and
its ``parsingResult`` of a shell command line."""

from __future__ import annotations

import difflib
import random
import re
import shlex

from synth_wire import JSON

_PIECES = re.compile(r"\s*\S+|\s+")


def split_deltas(text: str, rng: random.Random, *, max_words: int = 3) -> list[str]:
    """Cut text into token-sized fragments the way streamed deltas look.

    Fragments keep their leading whitespace, hold 1 to ``max_words`` words, and long
    words are now and then split inside (``"wh"`` + ``"ispers"``), as real output does.

    Args:
        text: The full text.
        rng: Source of randomness.
        max_words: Most words per fragment.

    Returns:
        Fragments whose concatenation is exactly ``text``.
    """
    pieces = _PIECES.findall(text)
    out: list[str] = []
    i = 0
    n = len(pieces)
    while i < n:
        k = rng.randint(1, max_words)
        chunk = "".join(pieces[i : i + k])
        i += k
        if len(chunk) > 9 and rng.random() < 0.2:
            cut = rng.randint(2, len(chunk) - 2)
            out.append(chunk[:cut])
            out.append(chunk[cut:])
        else:
            out.append(chunk)
    return out


def unified_diff(path: str, before: str | None, after: str, *, context: int = 3) -> str:
    """Build a ``diffString`` as the CLI prints it.

    Headers are ``--- a/<path>`` and ``+++ b/<path>`` (so absolute paths give
    ``a//home/...``), a created file diffs against ``/dev/null``, and the text has no
    trailing newline.

    Args:
        path: Absolute path of the file.
        before: Previous contents, or None for a new file.
        after: New contents.
        context: Lines of context around each hunk.

    Returns:
        The unified diff.
    """
    new_lines = after.splitlines()
    if not before:
        count = "" if len(new_lines) == 1 else f",{len(new_lines)}"
        body = "\n".join("+" + line for line in new_lines)
        return f"--- /dev/null\n+++ b/{path}\n@@ -1,0 +1{count} @@\n{body}"
    diff = difflib.unified_diff(
        before.splitlines(), new_lines, f"a/{path}", f"b/{path}", lineterm="", n=context
    )
    return "\n".join(diff)


def parse_shell(command: str) -> JSON:
    """Approximate the CLI's ``parsingResult`` for a shell command line.

    Args:
        command: The command line.

    Returns:
        A dict with ``simpleCommands`` and ``parsingResult`` in CLI key order.
    """
    lexer = shlex.shlex(command, posix=False, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return {
            "simpleCommands": [],
            "parsingResult": {"parsingFailed": True, "executableCommands": []},
        }
    commands: list[JSON] = []
    current: list[str] = []

    def close() -> None:
        if not current:
            return
        args = [{"type": _arg_type(tok), "value": tok} for tok in current[1:]]
        commands.append({"name": current[0], "args": args, "fullText": " ".join(current)})
        current.clear()

    for tok in tokens:
        if tok in {"|", "||", "&&", ";", "&"}:
            close()
        else:
            current.append(tok)
    close()
    return {
        "simpleCommands": [c["name"] for c in commands],
        "parsingResult": {
            "parsingFailed": False,
            "executableCommands": commands,
            "hasRedirects": False,
            "hasCommandSubstitution": "$(" in command or "`" in command,
            "redirects": [],
        },
    }


def _arg_type(token: str) -> str:
    if re.fullmatch(r"-?\d+(\.\d+)?", token):
        return "number"
    if token.startswith("'"):
        return "raw_string"
    if token.startswith('"'):
        return "string"
    return "word"
