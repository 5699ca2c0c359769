"""The repository passes its tests alone: nothing in tests/ or bench/ reads outside it.

A fresh clone has nothing beside it (no ``../shared``): a test that reads a sibling
folder skips or fails there. The real captures the tests use are copied into
``tests/fixtures/`` with their sources named; these tests keep it that way, by reading
the code (a path built to leave the repository) and, in ``tests/conftest.py``, by
refusing at run time to open a file beside the repository.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REPO, outside_the_repository

SCANNED = ("tests", "bench", ".ci")
SIBLING = re.compile(
    r"""\.parent\s*/\s*["']shared["']"""  # REPO.parent / "shared"
    r"""|["']\.\./+shared"""  # "../shared/..."
    r"""|/work/shared"""  # the machine's reference folder
)
SELF = Path(__file__).name
"""This file, whose examples of leaks are data."""
PARENTS = re.compile(r"""Path\(__file__\)(?:\.resolve\(\))?\.parents\[(\d+)\]""")
PARENT_CHAIN = re.compile(r"""Path\(__file__\)(?:\.resolve\(\))?((?:\.parent)+)""")


def leaks(root: Path) -> list[str]:
    """``file:line: text`` for each line under ``root``'s scanned folders whose path
    leaves the repository: a sibling folder by name, or ``__file__``'s parents
    climbed above ``root``."""
    found = []
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix not in (".py", ".sh", "") or not path.is_file():
                continue
            if (path.suffix == "" and path.parent.name != ".ci") or path.name == SELF:
                continue
            depth = len(path.relative_to(root).parts) - 1  # folders between root and file
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                if line.lstrip().startswith("#"):
                    continue
                climbs = [int(n) for n in PARENTS.findall(line)]  # parents[depth] is root
                climbs += [chain.count(".parent") - 1 for chain in PARENT_CHAIN.findall(line)]
                if SIBLING.search(line) or any(up > depth for up in climbs):
                    found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_test_or_bench_script_builds_a_path_out_of_the_repository() -> None:
    assert leaks(REPO) == []


def test_the_scan_sees_a_sibling_folder_and_a_climb_past_the_root(tmp_path: Path) -> None:
    tests = tmp_path / "tests" / "cli"
    tests.mkdir(parents=True)
    (tmp_path / "bench").mkdir()
    (tmp_path / ".ci").mkdir()
    (tests / "test_a.py").write_text(
        "REPO = Path(__file__).resolve().parents[2]\n"  # the root: fine
        'CAPTURES = REPO.parent / "shared" / "samples"\n'
        "ABOVE = Path(__file__).resolve().parents[3]\n"
        "UP = Path(__file__).parent.parent.parent.parent\n"
        "# a comment naming ../shared is not a read\n"
    )
    (tmp_path / "bench" / "b.py").write_text('DATA = "../shared/samples/x.ndjson"\n')
    (tmp_path / ".ci" / "run").write_text("cp /work/shared/x .\n")
    assert [leak.split(": ")[0] for leak in leaks(tmp_path)] == [
        "tests/cli/test_a.py:2",
        "tests/cli/test_a.py:3",
        "tests/cli/test_a.py:4",
        "bench/b.py:1",
        ".ci/run:1",
    ]


def test_opening_a_file_beside_the_repository_fails_the_test() -> None:
    """The guard of tests/conftest.py: a read of ``../anything`` raises at once, with
    the path in the message, instead of skipping quietly in a fresh clone."""
    beside = REPO.parent / "shared" / "samples" / "anything.ndjson"
    assert outside_the_repository(str(beside))
    with pytest.raises(RuntimeError, match="outside the repository"):
        beside.read_bytes()
    assert not outside_the_repository(str(REPO / "tests" / "fixtures" / "x"))
    assert not outside_the_repository(str(REPO.parent / ".cache" / "x"))
    assert not outside_the_repository(str(Path(tempfile.gettempdir()) / "pytest-of-x" / "y"))
    assert not outside_the_repository(tempfile.mkdtemp())
    # The early Phoenix server's folder (tests/otlp/phoenix_server.py), whatever the
    # clone's place: a clone in /tmp has it beside itself (an INTERNALERROR before).
    assert not outside_the_repository(tempfile.mkdtemp(prefix="streamview-phoenix-"))


def test_a_clone_in_the_temporary_folder_may_use_it_but_never_shared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clone in /tmp: its siblings there are the tests' temporary folders (any
    prefix), but ``../shared`` is still refused."""
    import tests.conftest as guard

    clone = Path(tempfile.gettempdir()) / "ci-clone"
    monkeypatch.setattr(guard, "_BESIDE", str(clone.parent) + os.sep)
    monkeypatch.setattr(guard, "_SHARED", str(clone.parent / "shared") + os.sep)
    assert not guard.outside_the_repository(str(clone.parent / "streamview-phoenix-x" / "a"))
    assert not guard.outside_the_repository(str(clone.parent / "tmpabc" / "a"))
    assert guard.outside_the_repository(str(clone.parent / "shared" / "samples" / "x"))


def test_every_fixture_folder_names_its_sources() -> None:
    folders = [
        p
        for p in (REPO / "tests" / "fixtures").rglob("*")
        if p.is_dir() and any(f.is_file() for f in p.iterdir())
    ]
    unnamed = [str(p.relative_to(REPO)) for p in folders if not (p / "SOURCES.md").is_file()]
    assert unnamed == []


def test_every_real_capture_is_listed_in_its_sources() -> None:
    folder = REPO / "tests" / "fixtures" / "cursor-real"
    sources = (folder / "SOURCES.md").read_text()
    files = [p.name for p in folder.iterdir() if p.name != "SOURCES.md"]
    assert len(files) == 14
    assert [name for name in files if f"| {name} |" not in sources] == []
