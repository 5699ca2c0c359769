"""The shape of the code: no import cycles anywhere, and a core that knows no UI.

Every module under ``streamview/`` is parsed with :mod:`ast`, so every import counts:
at the top, inside functions, under ``TYPE_CHECKING``. ``from package import name``
depends on the package (its ``__init__`` runs and its namespace is read) and, when
``name`` is a submodule, on that module too. ``import a.b.c`` depends on ``a.b.c``.
The runtime probe of :mod:`tests.core.test_boundary` checks what importing the core
loads; the static check here also sees imports that only run inside a function.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "streamview"
UI_LIBRARIES = ("textual", "rich", "pygments")
"""What the core must never import."""

Graph = dict[str, set[str]]


def module_files(package: Path) -> dict[str, Path]:
    """Every module under ``package`` by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_names(module: str, path: Path) -> Iterator[str]:
    """Every dotted name an import statement of the module reaches, wherever it is."""
    is_package = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")
                parent = parent[: len(parent) - node.level + (1 if is_package else 0)]
                base = ".".join([*parent, base] if base else parent)
            yield base
            for alias in node.names:
                yield f"{base}.{alias.name}"


def import_graph(package: Path) -> tuple[Graph, dict[str, set[str]]]:
    """Which of the package's modules each imports, and every name each imports."""
    modules = module_files(package)
    graph: Graph = {name: set() for name in modules}
    names: dict[str, set[str]] = {name: set() for name in modules}
    for module, path in modules.items():
        for name in imported_names(module, path):
            names[module].add(name)
            if name in modules and name != module:
                graph[module].add(name)
    return graph, names


def cycles(graph: Graph) -> list[tuple[list[str], list[str]]]:
    """Each group of modules that import each other (Tarjan's strongly connected
    components), with one cycle through it (its first module repeated at the end)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return [(cycle_in(graph, set(group)), group) for group in groups]


def cycle_in(graph: Graph, group: set[str]) -> list[str]:
    """A shortest way round from the group's first module back to itself."""
    start = min(group)
    paths = {start: [start]}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for target in sorted(graph[node] & group):
            if target == start:
                return [*paths[node], start]
            if target not in paths:
                paths[target] = [*paths[node], target]
                queue.append(target)
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover


def test_no_module_of_streamview_imports_itself_round_a_cycle() -> None:
    graph, _ = import_graph(PACKAGE)
    found = [
        " -> ".join(cycle) + f" (all of {', '.join(group)} import each other)"
        for cycle, group in cycles(graph)
    ]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_the_core_imports_no_ui_library_even_inside_a_function() -> None:
    _, names = import_graph(PACKAGE)
    offending = sorted(
        f"{module} imports {name}"
        for module, imported in names.items()
        if module.startswith("streamview.core")
        for name in imported
        if name.split(".")[0] in UI_LIBRARIES
    )
    assert not offending, "\n".join(offending)


def test_the_core_imports_nothing_of_streamview_outside_it() -> None:
    graph, _ = import_graph(PACKAGE)
    outside = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        if module.startswith("streamview.core")
        for target in targets
        if not target.startswith("streamview.core")
    )
    assert not outside, "\n".join(outside)


@pytest.fixture
def tangled(tmp_path: Path) -> Path:
    """A package whose imports go round in every hidden way the real check must see."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg.a import thing\n",
        "a.py": "def thing():\n    from pkg import b\n    return b\n",
        "b.py": ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .sub.c import C\n"),
        "sub/__init__.py": "",
        "sub/c.py": "from .. import a\nimport rich.text\n",
        "d.py": "import pkg.a\n",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    return package


def test_the_check_sees_cycles_through_functions_type_checking_and_relative_imports(
    tangled: Path,
) -> None:
    graph, names = import_graph(tangled)
    assert graph["pkg.sub.c"] == {"pkg", "pkg.a"}  # "from .. import a"
    assert "rich.text" in names["pkg.sub.c"]
    [(cycle, group)] = cycles(graph)
    assert group == ["pkg", "pkg.a", "pkg.b", "pkg.sub.c"]  # not pkg.d: nothing imports it
    assert cycle == ["pkg", "pkg.a", "pkg"]


MAX_LINES = 500
"""No module over this: one that grows past it has grown a second reason to change."""

SIZED = ("streamview", "bench", "tests")
"""Where the limit holds: the package, the benchmark scripts and the tests."""

BEING_SPLIT: dict[str, str] = {}
"""Files over the limit that someone is splitting now, with who and when; each must still
be over it (a file split since fails the check below until its entry goes)."""


def python_sizes(root: Path = ROOT) -> dict[str, int]:
    """Lines of every ``.py`` file under :data:`SIZED`, by path from the repository."""
    return {
        path.relative_to(root).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for folder in SIZED
        for path in sorted((root / folder).rglob("*.py"))
    }


def test_no_module_is_over_five_hundred_lines() -> None:
    sizes = python_sizes()
    for folder, least in (("streamview/", 50), ("bench/", 20), ("tests/", 100)):
        assert sum(name.startswith(folder) for name in sizes) > least  # the walk found it
    too_long = {
        name: lines
        for name, lines in sizes.items()
        if lines > MAX_LINES and name not in BEING_SPLIT
    }
    assert not too_long, f"split these: {too_long}"


def test_every_file_being_split_is_still_too_long() -> None:
    sizes = python_sizes()
    done = [name for name in BEING_SPLIT if sizes.get(name, 0) <= MAX_LINES]
    assert not done, f"split or gone, take them out of BEING_SPLIT: {done}"


def test_the_size_check_sees_a_long_test_and_a_long_bench_script(tmp_path: Path) -> None:
    for folder in SIZED:
        (tmp_path / folder / "sub").mkdir(parents=True)
        (tmp_path / folder / "sub" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "tests" / "sub" / "test_long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "bench" / "long.py").write_text("\n" * (MAX_LINES + 1))
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "long.py").write_text("x = 1\n" * 900)
    sizes = python_sizes(tmp_path)
    assert {name for name, lines in sizes.items() if lines > MAX_LINES} == {
        "tests/sub/test_long.py",
        "bench/long.py",
    }
    assert sizes["streamview/sub/short.py"] == MAX_LINES


UI_LAYERS: tuple[tuple[str, ...], ...] = (
    ("cast", "sessions"),  # the cast runs the app; the list of runs opens it
    ("frame",),
    ("log",),
    ("details",),
    ("transcript", "calls", "playback"),
    ("text", "feed"),
)
"""``streamview/ui``'s packages from the top down: a package imports only packages of
lower layers (the cast export runs the app, the sessions list the viewer; the app's
frame everything, the panes the shared text and the reader)."""


def ui_layer_breaches(graph: Graph, root: str = "streamview.ui") -> list[str]:
    """Every import between ``root``'s packages that does not run downward, as
    ``"a.b imports c.d (playback may not import frame)"``; a package not in
    :data:`UI_LAYERS` is a breach of its own (its place must be decided)."""
    rank = {name: level for level, names in enumerate(UI_LAYERS) for name in names}
    prefix = root + "."

    def package(module: str) -> str | None:
        return module[len(prefix) :].split(".")[0] if module.startswith(prefix) else None

    breaches = []
    for module, targets in sorted(graph.items()):
        source = package(module)
        if source is None:
            continue
        if source not in rank:
            breaches.append(f"{module}: {source} has no place in UI_LAYERS")
            continue
        for target in sorted(targets):
            imported = package(target)
            if imported is None or imported == source:
                continue
            if imported not in rank or rank[imported] <= rank[source]:
                breaches.append(f"{module} imports {target} ({source} may not import {imported})")
    return breaches


def test_imports_between_the_ui_packages_run_downward_only() -> None:
    graph, _ = import_graph(PACKAGE)
    packages = {path.parent.name for path in (PACKAGE / "ui").glob("*/__init__.py")}
    assert packages == {name for names in UI_LAYERS for name in names}
    breaches = ui_layer_breaches(graph)
    assert not breaches, "\n".join(breaches)


def test_the_layer_check_sees_upward_and_sideways_imports(tmp_path: Path) -> None:
    """The playback bar opening the export dialog (an import of the frame), as
    ``ui/controls.py`` did, and a pane importing another pane of its layer are caught;
    the frame importing a pane and a pane importing the shared text are not."""
    ui = tmp_path / "pkg" / "ui"
    for name in ("frame", "playback", "calls", "text"):
        (ui / name).mkdir(parents=True)
        (ui / name / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (ui / "__init__.py").write_text("", encoding="utf-8")
    files = {
        "frame/app.py": "from pkg.ui.playback.controls import bar\n",
        "playback/controls.py": (
            "from pkg.ui.text import style\n"
            "def bar():\n    from pkg.ui.frame.export_dialog import ExportDialog\n"
        ),
        "frame/export_dialog.py": "ExportDialog = object\n",
        "calls/table.py": "from ..playback import controls\n",
        "text/style.py": "",
    }
    for name, text in files.items():
        (ui / name).write_text(text, encoding="utf-8")
    graph, _ = import_graph(tmp_path / "pkg")
    assert ui_layer_breaches(graph, root="pkg.ui") == [
        "pkg.ui.calls.table imports pkg.ui.playback (calls may not import playback)",
        "pkg.ui.calls.table imports pkg.ui.playback.controls (calls may not import playback)",
        "pkg.ui.playback.controls imports pkg.ui.frame.export_dialog "
        "(playback may not import frame)",
    ]


def test_the_ui_is_arranged_by_pane_and_its_tests_mirror_it() -> None:
    """Issue 21.13: a newcomer finds a pane's files in its package, not among 43 files
    on one level; each pane's tests are under ``tests/ui/<pane>/``; the package holds
    no test-only helper (they live under ``tests/``)."""
    ui = PACKAGE / "ui"
    loose = sorted(p.name for p in ui.glob("*.py") if p.name != "__init__.py")
    assert not loose, f"modules outside a pane's package: {loose}"
    panes = {path.parent.name for path in ui.glob("*/__init__.py")}
    tests_ui = ROOT / "tests" / "ui"
    missing = sorted(pane for pane in panes if not any((tests_ui / pane).glob("test_*.py")))
    assert not missing, f"panes with no tests under tests/ui/<pane>/: {missing}"
    loose_tests = sorted(p.name for p in tests_ui.glob("test_*.py"))
    assert not loose_tests, f"UI tests outside a pane's folder: {loose_tests}"
    graph, _ = import_graph(PACKAGE)
    helpers = {name for name in graph if name.rsplit(".", 1)[-1] in {"safety", "testing"}}
    assert not helpers, f"test-only helpers inside the package: {sorted(helpers)}"


FLOORS: tuple[str, ...] = ("cli", "ui", "fronts", "runs", "sources", "config", "core")
"""``streamview``'s packages from the top down (issue 27.6): the command line; the
viewer; what a run becomes without it (printing, events, serving, traces); the runs on
this machine (recordings, session discovery); where a run's bytes come from (pipe, file,
follow, replay, the agent's process, session files); the person's settings; the model.
A floor imports only floors below it."""

ROOT_MODULES = {"streamview", "streamview.__main__"}
"""The only modules at the package root: the public face (``read_events``, the
version) and ``python -m streamview``."""


def floor_breaches(graph: Graph, root: str = "streamview") -> list[str]:
    """Every import from one floor to a floor not below it, and every module that
    sits on no floor, as ``"a.b imports c.d (runs may not import ui)"``."""
    rank = {name: level for level, name in enumerate(FLOORS)}
    prefix = root + "."

    def floor(module: str) -> str | None:
        return module[len(prefix) :].split(".")[0] if module.startswith(prefix) else None

    breaches = []
    for module, targets in sorted(graph.items()):
        if module == root or module == f"{root}.__main__":
            continue
        source = floor(module)
        if source not in rank:
            breaches.append(f"{module}: on no floor (FLOORS names the packages)")
            continue
        for target in sorted(targets):
            imported = floor(target)
            if imported is None or imported == source:
                continue
            if imported not in rank or rank[imported] <= rank[source]:
                breaches.append(f"{module} imports {target} ({source} may not import {imported})")
    return breaches


def test_the_package_root_holds_floors_not_loose_modules() -> None:
    """A reader sees from the tree where a run comes in (sources), where it is kept
    (runs) and where it goes out (fronts, ui, cli); nothing else sits at the root."""
    graph, _ = import_graph(PACKAGE)
    top = {m for m in graph if m.count(".") == 1 and m.split(".")[1] not in FLOORS}
    assert top | {"streamview"} == ROOT_MODULES
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert packages == set(FLOORS)
    breaches = floor_breaches(graph)
    assert not breaches, "\n".join(breaches)


def test_the_floor_check_sees_an_import_that_runs_back_up(tmp_path: Path) -> None:
    """The process source importing the recorder (the arrow the sketch in
    ``package-root.md`` named), a loose module and the root's own imports."""
    package = tmp_path / "pkg"
    for name in ("sources", "runs", "core"):
        (package / name).mkdir(parents=True)
        (package / name / "__init__.py").write_text("", encoding="utf-8")
    files = {
        "__init__.py": "from pkg.runs import recording\n",
        "loose.py": "",
        "sources/process.py": "from pkg.runs.recording import Recorder\n",
        "runs/recording.py": "from pkg.sources import base\nfrom pkg.core import model\n",
        "sources/base.py": "import pkg.core.model\n",
        "core/model.py": "",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    graph, _ = import_graph(package)
    assert floor_breaches(graph, root="pkg") == [
        "pkg.loose: on no floor (FLOORS names the packages)",
        "pkg.sources.process imports pkg.runs.recording (sources may not import runs)",
    ]
