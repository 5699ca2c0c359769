"""The core is pure Python: importing it never loads Textual or Rich."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import streamview.core

CORE_MODULES = sorted(
    f"streamview.core.{info.name}" for info in pkgutil.iter_modules(streamview.core.__path__)
)

PROBE = """
import importlib, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
loaded = sorted(
    m for m in sys.modules if m.split(".")[0] in ("textual", "rich")
)
print(",".join(loaded))
"""


def test_core_has_the_expected_modules() -> None:
    for name in ("events", "framing", "parse", "reader", "state", "summary", "tools"):
        assert f"streamview.core.{name}" in CORE_MODULES


def test_importing_the_core_loads_neither_textual_nor_rich() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, "streamview.core", *CORE_MODULES],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "", f"core pulled in: {completed.stdout.strip()}"


def test_the_probe_would_see_textual_if_it_were_imported() -> None:
    """Guard against a probe that cannot fail."""
    completed = subprocess.run(
        [sys.executable, "-c", PROBE, "rich.text"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "rich" in completed.stdout
