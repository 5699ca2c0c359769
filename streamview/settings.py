"""What the viewer remembers between runs: the theme, whether thinking is shown, and the
tool-call filter of the last run filtered, in a small TOML file in the user's config
directory.

Command-line flags win over it. A file that cannot be read is reported once and the
defaults are used; one that cannot be written is left as it was (the viewer goes on).
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import asdict, dataclass, fields
from pathlib import Path


def settings_path() -> Path:
    """``~/.config/streamview/settings.toml`` on Linux (``$XDG_CONFIG_HOME`` honoured)."""
    from platformdirs import user_config_dir

    return Path(user_config_dir("streamview")) / "settings.toml"


@dataclass
class Settings:
    """The remembered choices (``None``/empty: not chosen yet)."""

    theme: str | None = None
    show_thinking: bool = True
    filter_status: str | None = None
    filter_kind: str | None = None
    filter_text: str = ""
    filter_run: str = ""
    """The file the filter was set on: it is shown filtered again, no other run is."""

    @classmethod
    def load(cls, path: Path | None = None) -> tuple[Settings, str | None]:
        """The settings in ``path``, and why they could not be read (else ``None``)."""
        path = path or settings_path()
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(), None
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            return cls(), f"ignoring {path}: {error}"
        settings = cls()
        for field in fields(cls):
            value = data.get(field.name)
            default = getattr(settings, field.name)
            if isinstance(value, bool) if isinstance(default, bool) else isinstance(value, str):
                setattr(settings, field.name, value)
        return settings, None

    def save(self, path: Path | None = None) -> str | None:
        """Write the settings; why that failed, or ``None``."""
        path = path or settings_path()
        lines = ["# streamview's settings: written by the viewer, flags win over them"]
        for name, value in asdict(self).items():
            if isinstance(value, bool):
                lines.append(f"{name} = {'true' if value else 'false'}")
            elif isinstance(value, str):
                lines.append(f"{name} = {_toml_string(value)}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text("\n".join(lines) + "\n", encoding="utf-8")
            os.replace(temporary, path)
        except OSError as error:
            return f"cannot save settings to {path}: {error.strerror or error}"
        return None


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
