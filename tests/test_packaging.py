"""The package as a newcomer's tools see it: a clean wheel, honest metadata.

The wheel is built from the files git tracks (a fresh clone's), with ``python -m
build`` in its own isolated environment, as a packager would.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

import streamview

REPO = Path(__file__).resolve().parents[1]


def pyproject() -> dict[str, object]:
    with (REPO / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)


def test_the_version_is_written_once() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert "version" not in project and "version" in project["dynamic"]
    tool = pyproject()["tool"]
    assert isinstance(tool, dict)
    assert tool["setuptools"]["dynamic"]["version"] == {"attr": "streamview.__version__"}


def test_licence_is_an_spdx_expression_with_its_file() -> None:
    project = pyproject()["project"]
    assert isinstance(project, dict)
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert "MIT License" in (REPO / "LICENSE").read_text()
    build = pyproject()["build-system"]
    assert isinstance(build, dict)
    assert not any(name.startswith("wheel") for name in build["requires"])


def test_every_third_party_import_of_the_package_is_declared() -> None:
    """pygments is imported directly: it must not come only through rich."""
    import ast

    declared = {
        requirement.split(">")[0].split("<")[0].split("[")[0].strip().replace("-", "_")
        for requirement in pyproject()["project"]["dependencies"]  # type: ignore[index]
    }
    # The serve extra: --serve says how to install it when missing; so does --otlp of
    # the otlp extra (the OpenTelemetry SDK).
    optional = {"textual_serve", "aiohttp", "aiohttp_jinja2", "opentelemetry"}
    stdlib = set(sys.stdlib_module_names)
    imported = set()
    for path in (REPO / "streamview").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
    third_party = imported - stdlib - {"streamview"} - optional
    aliases = {"markdown_it": "markdown_it_py"}
    assert {aliases.get(name, name) for name in third_party} <= declared


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_fresh_clone_builds_a_wheel_with_no_warning(tmp_path: Path) -> None:
    pytest.importorskip("build")
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(REPO), str(clone)], check=True)
    # The working tree's pyproject and LICENSE, committed or not, are what is tested.
    for name in ("pyproject.toml", "LICENSE", "README.md"):
        shutil.copy(REPO / name, clone / name)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path / "dist"), "."],
        cwd=clone,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-3000:]
    warnings = [line for line in output.splitlines() if "warn" in line.lower()]
    assert not warnings, "\n".join(warnings)
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(archive.read(metadata_name))
    assert metadata["Version"] == streamview.__version__
    assert metadata["License-Expression"] == "MIT"
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "streamview/ui/streamview.tcss" in names
    assert "streamview/schema/events.v1.json" in names  # --events' contract, for programs
    classifiers = metadata.get_all("Classifier") or []
    assert "Environment :: Console" in classifiers
    assert any(c.startswith("Programming Language :: Python :: 3.") for c in classifiers)
    assert any(r.startswith("pygments") for r in metadata.get_all("Requires-Dist") or [])
