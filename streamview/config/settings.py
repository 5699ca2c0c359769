"""What the viewer remembers between runs: the theme, whether thinking is shown, and the
tool-call filter of the last run filtered, in a small TOML file in the user's config
directory; and what the person wrote there themselves: the cwd map (``[cwd_map]``,
``"/recorded/dir" = "/local/checkout"``) where ``o`` looks for a recorded path.

Command-line flags win over it. A file that cannot be read is reported once and the
defaults are used; one that cannot be written is left as it was (the viewer goes on).
A file that cannot be parsed is never replaced silently: before the viewer writes its
settings over it, the file is kept beside it (``settings.toml.broken-…``) and the
viewer says where.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

# Where the file is, apart: a run with none need not make Settings (cli/limits.py).
from streamview.config.settings_file import settings_path as settings_path
from streamview.config.user_dirs import make_user_directory
from streamview.core.local_paths import not_a_file

MAX_BYTES = 1 << 20
"""The biggest settings file read (a real one is a few hundred bytes): ``/dev/zero``
named as the settings took 7.7 GB in 15 s before the first frame."""


class NotSettings(ValueError):
    """The settings path is not a file that can be settings; the message says why."""


def read_settings(path: Path) -> bytes:
    """The bytes of a settings file: a regular file of at most :data:`MAX_BYTES`.

    Raises:
        FileNotFoundError: There is none.
        NotSettings: It is a FIFO (reading it would wait for a writer), a device, a
            directory, or bigger than :data:`MAX_BYTES`.
        OSError: It cannot be read.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO: no wait for a writer
    try:
        what = not_a_file(str(path), os.fstat(fd).st_mode)
        if what is not None:
            raise NotSettings(f"it is {what}, not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES:
            chunk = os.read(fd, MAX_BYTES + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_BYTES:
            raise NotSettings(f"it is over {MAX_BYTES >> 20} MiB, not a settings file")
        return b"".join(chunks)
    finally:
        os.close(fd)


@dataclass
class Settings:
    """The remembered choices (``None``/empty: not chosen yet)."""

    theme: str | None = None
    show_thinking: bool = True
    filter_status: str | None = None
    filter_kind: str | None = None
    filter_text: str = ""
    cwd_map: dict[str, str] = field(default_factory=dict)
    """Recorded directories and the local checkouts they stand for (``--cwd-map``)."""
    kept_as: Path | None = field(default=None, compare=False)
    """Where the last save kept a settings file it could not parse, if it did."""
    max_line: str | None = None
    """The longest line read whole (``64M``; ``--max-line`` wins): see the README."""
    filter_run: str = ""
    """The file the filter was set on: it is shown filtered again, no other run is."""
    max_viewers: int = 4
    """Browser tabs ``--serve`` gives a viewer at once (``--max-viewers`` wins)."""
    sessions_bell: bool = True
    """``streamview sessions`` rings the bell when a live run finishes or waits for you."""

    @classmethod
    def load(cls, path: Path | None = None) -> tuple[Settings, str | None]:
        """The settings in ``path``, and why they could not be read (else ``None``)."""
        path = path or settings_path()
        try:
            raw = read_settings(path)
        except FileNotFoundError:
            return cls(), None
        except NotSettings as error:
            return cls(), f"ignoring {path}: {error} (nothing is saved over it)"
        except OSError as error:
            return cls(), (
                f"ignoring {path}: {error} (a change of settings keeps it as {path.name}.broken-…)"
            )
        import tomllib  # only for a file there is: most runs have none (2 ms of imports)

        try:
            data = tomllib.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            return cls(), (
                f"ignoring {path}: {error} (a change of settings keeps it as {path.name}.broken-…)"
            )
        settings = cls()
        for known in fields(cls):
            value = data.get(known.name)
            default = getattr(settings, known.name)
            if isinstance(default, dict):
                if isinstance(value, dict):
                    pairs = {k: v for k, v in value.items() if isinstance(v, str)}
                    setattr(settings, known.name, pairs)
            elif type(default) is int:  # a count: a whole number above 0 (not a bool)
                if type(value) is int and value > 0:
                    setattr(settings, known.name, value)
            elif isinstance(value, bool) if isinstance(default, bool) else isinstance(value, str):
                setattr(settings, known.name, value)
        return settings, None

    def save(self, path: Path | None = None) -> str | None:
        """Write the settings; why that failed, or ``None``."""
        path = path or settings_path()
        lines = ["# streamview's settings: written by the viewer, flags win over them"]
        tables: list[str] = []
        for name, value in asdict(self).items():
            if isinstance(value, bool):
                lines.append(f"{name} = {'true' if value else 'false'}")
            elif isinstance(value, str):
                lines.append(f"{name} = {_toml_string(value)}")
            elif isinstance(value, int):
                lines.append(f"{name} = {value}")
            elif isinstance(value, dict) and value:
                tables += ["", f"[{name}]"]
                tables += [f"{_toml_string(k)} = {_toml_string(v)}" for k, v in value.items()]
        lines += tables
        self.kept_as = None
        try:
            make_user_directory(path.parent, "XDG_CONFIG_HOME")
            self.kept_as = keep_if_broken(path)
        except NotSettings as error:
            return f"not saving settings to {path}: {error}"
        except OSError as error:
            return f"cannot save settings to {path}: {error.strerror or error}"
        try:
            temporary = path.with_suffix(".tmp")
            temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        except OSError as error:
            return f"cannot save settings to {path}: {error.strerror or error}"
        return None


def keep_if_broken(path: Path) -> Path | None:
    """Move a settings file that does not parse aside (its name and the time, never over
    another file), so writing new settings loses nothing; where it went, or ``None``.

    Raises:
        OSError: The file could not be moved (then nothing is written over it).
        NotSettings: It is no settings file (:func:`read_settings`): nothing may be
            written over it.
    """
    try:
        data = read_settings(path)
    except FileNotFoundError:
        return None
    import tomllib

    try:
        tomllib.loads(data.decode("utf-8"))
        return None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError):
        pass
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for attempt in range(1000):
        kept = path.with_name(f"{path.name}.broken-{stamp}" + (f"-{attempt}" if attempt else ""))
        try:
            with open(kept, "xb") as backup:  # "x": never over an earlier backup
                backup.write(data)
        except FileExistsError:
            continue
        return kept
    raise FileExistsError(f"no free name for a backup of {path}")


def _toml_string(value: str) -> str:
    """A TOML basic string (quotes, backslashes and controls escaped)."""
    out = []
    for char in value:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'
