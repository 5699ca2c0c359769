"""The command that opens a file in the user's editor, built so that no path taken from
a stream can be read as an option or a command.

A recorded path is untrusted: ``+:!touch /tmp/pwned`` handed to ``vim`` as it stands is
an ex command, ``-c…`` or ``--cmd…`` an option, ``--remote-send`` a key sequence sent to
a running vim. Three rules keep it a file name:

- only an absolute, normalised path is ever passed (it starts with ``/``, which no
  editor reads as an option or a ``+command``); anything else is refused, as is a path
  with a control character (a newline, an escape) or longer than the system allows;
- options are ended (``--``) for the editors known to take it, in the place each wants
  it (``micro`` reads flags with Go's ``flag`` package: a ``--`` after ``+N`` would be
  a file named ``--``, so there it comes first);
- the line is an integer streamview formats itself (``+12``, ``--goto path:12``).

No shell is involved: the command is an argument list (``$EDITOR`` itself is split
with :func:`shlex.split`, as the user wrote it).
"""

from __future__ import annotations

import os
import shlex
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

PLUS = "plus"
"""The line is an argument ``+N`` before the file."""
GOTO = "goto"
"""The line is given as ``--goto path:N`` (VS Code and its forks)."""
SUFFIX = "suffix"
"""The line is appended to the file as ``path:N`` (helix)."""

PATH_MAX = 4096
"""Longest path (bytes) Linux opens; a longer one is no file of this machine."""
NAME_MAX = 255
"""Longest file name (bytes) of one path component."""
LINE_MAX = 10_000_000
"""Largest line number passed on; a bigger one is no line of a file a person edits."""


@dataclass(frozen=True, slots=True)
class EditorFamily:
    """How one family of editors takes a file, its line and the end of options."""

    line: str | None
    """How the line is given (:data:`PLUS`, :data:`GOTO`, :data:`SUFFIX`), or ``None``."""
    ends_options: bool
    """Takes ``--`` to end its options, so every later argument is a file."""
    line_after_end: bool = False
    """``+N`` goes after ``--`` (the editor's flag parser stops at the first non-flag)."""


VI = EditorFamily(PLUS, ends_options=True)
FAMILIES: dict[str, EditorFamily] = {
    **dict.fromkeys(("vi", "vim", "nvim", "view", "gvim", "rvim", "mvim", "vim.basic"), VI),
    **dict.fromkeys(("vim.tiny", "vim.nox", "vim.gtk3", "nvi"), VI),
    "nano": EditorFamily(PLUS, ends_options=True),
    **dict.fromkeys(("emacs", "emacsclient"), EditorFamily(PLUS, ends_options=True)),
    "kak": EditorFamily(PLUS, ends_options=True),
    "micro": EditorFamily(PLUS, ends_options=True, line_after_end=True),
    **dict.fromkeys(("hx", "helix"), EditorFamily(SUFFIX, ends_options=False)),
    **dict.fromkeys(
        ("code", "code-insiders", "codium", "vscodium", "cursor", "windsurf"),
        EditorFamily(GOTO, ends_options=True),
    ),
}
"""Editors streamview knows, by the name of their program. Each was checked against
the editor itself (vim, nvim, nano, micro, kak run by hand; emacs's ``startup.el``,
VS Code's minimist arguments, helix's ``args.rs`` read): helix is given no ``--``
because some of its versions drop every file after it."""
UNKNOWN = EditorFamily(None, ends_options=False)
"""Any other editor: the path alone (absolute, so no option parser takes it for one)."""


class UnsafePath(ValueError):
    """A path streamview will not hand to a program; the message says why."""


def family_of(program: str) -> EditorFamily:
    """The family of the editor ``program`` (a name or a path to it)."""
    return FAMILIES.get(PurePosixPath(program).name, UNKNOWN)


def editor_words(environ: Mapping[str, str] | None = None) -> list[str]:
    """The user's editor as a command (``$VISUAL``, else ``$EDITOR``, else ``vi``)."""
    env = os.environ if environ is None else environ
    words = shlex.split(env.get("VISUAL") or env.get("EDITOR") or "")
    return words or ["vi"]


def safe_path(path: str) -> str:
    """``path`` as it may be handed to a program: absolute and normalised.

    Raises:
        UnsafePath: The path is relative, holds a control character, cannot be
            encoded for the file system, or is longer than the system allows.
    """
    if any(_is_control(char) for char in path):
        raise UnsafePath("the path holds a control character")
    if not path.startswith("/"):
        raise UnsafePath("the path is not absolute")
    normal = os.path.normpath(path)
    if normal.startswith("//"):  # POSIX keeps a leading "//"; it means "/" here
        normal = "/" + normal.lstrip("/")
    try:
        encoded = os.fsencode(normal)
    except UnicodeError:
        raise UnsafePath("the path cannot be encoded for this file system") from None
    if len(encoded) >= PATH_MAX or any(len(part) > NAME_MAX for part in encoded.split(b"/")):
        raise UnsafePath(f"the path is too long ({len(encoded):,} bytes)")
    return normal


def _is_control(char: str) -> bool:
    return unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp")


def editor_argv(editor: list[str], path: str, line: int | None = None) -> list[str]:
    """The argument list that opens ``path`` at ``line`` in ``editor``.

    Args:
        editor: The editor's command (:func:`editor_words`), trusted: it is the user's.
        path: The file, untrusted; checked with :func:`safe_path`.
        line: The line to open at (1-based), or ``None``.

    Raises:
        UnsafePath: ``path`` cannot be passed safely.
    """
    path = safe_path(path)
    family = family_of(editor[0])
    if not (isinstance(line, int) and 0 < line <= LINE_MAX) or isinstance(line, bool):
        line = None
    end = ["--"] if family.ends_options else []
    if line is None or family.line is None:
        return [*editor, *end, path]
    if family.line == GOTO:
        return [*editor, "--goto", *end, f"{path}:{line}"]
    if family.line == SUFFIX:
        return [*editor, *end, f"{path}:{line}"]
    if family.line_after_end:
        return [*editor, *end, f"+{line}", path]
    return [*editor, f"+{line}", *end, path]
