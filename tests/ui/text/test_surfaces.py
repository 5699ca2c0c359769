"""Every surface that parses markup or writes the clipboard goes through
``streamview/ui/text/safe_text.py`` (issue 26: untrusted text made safe once).

Textual reads a ``str`` given to ``notify()``, to a border title or to a ``Static``
with markup on as markup: ``[/x]`` from a stream crashed the viewer and
``[@click=...]`` ran an action the stream chose. This walks the syntax tree of every
module of ``streamview/`` and lists each place that reaches such a surface another way:

- a call of ``notify(...)`` with arguments (``threading.Condition.notify()`` has none);
- an assignment to ``border_title``, ``border_subtitle`` or ``sub_title`` (or a
  ``setattr`` of one);
- any use of ``from_markup``; a ``markup=`` other than ``False``;
- a write of the clipboard (``copy_to_clipboard``);
- ``Safe(...)`` made by hand, or ``phrase(...)`` whose template is not a literal;
- a ``Static`` or ``Label`` (or a class of ours built on one) that parses markup and
  is not given one literal string.

``safe_text.py`` itself is the one place allowed to do the first four.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
PACKAGE = REPO / "streamview"
SAFE_MODULE = PACKAGE / "ui" / "text" / "safe_text.py"
TITLES = {"border_title", "border_subtitle", "sub_title"}
MARKUP_WIDGETS = {"Static", "Label"}


def _name(node: ast.expr) -> str | None:
    """``f`` for ``f(...)`` and ``x.y.f(...)``."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def markup_widgets(trees: list[ast.Module]) -> set[str]:
    """``Static``, ``Label`` and the classes of ours built on them (to a fixed point)."""
    names = set(MARKUP_WIDGETS)
    classes = [node for tree in trees for node in ast.walk(tree) if isinstance(node, ast.ClassDef)]
    grew = True
    while grew:
        grew = False
        for node in classes:
            if node.name not in names and any(_name(base) in names for base in node.bases):
                names.add(node.name)
                grew = True
    return names


def _call_problem(node: ast.Call, widgets: set[str]) -> str | None:
    name = _name(node.func)
    keywords = {keyword.arg: keyword.value for keyword in node.keywords}
    markup = keywords.get("markup")
    if markup is not None and not (isinstance(markup, ast.Constant) and markup.value is False):
        return "markup= other than False"
    if name == "notify" and (node.args or node.keywords):
        return "notify() not through toast()"
    if name == "copy_to_clipboard":
        return "clipboard written not through copy_text()"
    if name == "Safe":
        return "Safe() made by hand: use safe() or phrase()"
    if name == "phrase" and not (node.args and _literal(node.args[0])):
        return "phrase() with a template that is not a literal"
    if name == "setattr" and len(node.args) > 1:
        attribute = node.args[1]
        if isinstance(attribute, ast.Constant) and attribute.value in TITLES:
            return f"setattr of {attribute.value}"
    one_literal = len(node.args) == 1 and _literal(node.args[0])
    if name in widgets and markup is None and not one_literal:
        return f"{name}() parses markup: say markup=False"
    return None


def problems_in(tree: ast.Module, where: str, widgets: set[str] = MARKUP_WIDGETS) -> list[str]:
    """Each place in ``tree`` that reaches a markup surface or the clipboard unsafely."""
    found: list[str] = []

    def add(node: ast.AST, what: str) -> None:
        found.append(f"{where}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            problem = _call_problem(node, widgets)
            if problem:
                add(node, problem)
        elif isinstance(node, ast.Attribute) and node.attr == "from_markup":
            add(node, "from_markup")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for part in ast.walk(target):
                    if isinstance(part, ast.Attribute) and part.attr in TITLES:
                        add(node, f"{part.attr} set not through set_border_title()")
    return found


def parse(source: str) -> ast.Module:
    return ast.parse(source)


def modules() -> dict[Path, ast.Module]:
    return {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_every_surface_in_streamview_takes_safe_text_only() -> None:
    trees = modules()
    assert SAFE_MODULE in trees and len(trees) > 100
    widgets = markup_widgets(list(trees.values()))
    assert {"ProcessPanel", "PlaybackBar"} <= widgets  # ours, built on Static
    found = [
        problem
        for path, tree in trees.items()
        if path != SAFE_MODULE
        for problem in problems_in(tree, str(path.relative_to(REPO)), widgets)
    ]
    assert not found, "\n".join(found)


def test_the_safe_module_is_where_the_surfaces_are_reached() -> None:
    """The walk sees what it is meant to: the safe module itself does each of them."""
    found = "\n".join(problems_in(modules()[SAFE_MODULE], "safe_text"))
    for what in ("notify() not through toast()", "clipboard written", "border_title set"):
        assert what in found


@pytest.mark.parametrize(
    "source",
    [
        'app.notify(f"Copied {call.target}", timeout=2)',
        "self.notify(problem, severity='error')",
        'self.app.notify("literal", markup=True)',
        "table.border_title = title",
        'self.border_subtitle = f"{count} new"',
        "setattr(widget, 'border_title', text)",
        "app.sub_title = source.label",
        "Content.from_markup(text)",
        "Text.from_markup('[b]x[/b]')",
        "app.copy_to_clipboard(call.target)",
        "Safe(call.target, key)",
        'phrase(f"exported {path}")',
        "phrase(template, path=path)",
        "Static(call.target)",
        "Label(f'{kind}')",
        "Static(id='heading')",
        "Static(text, markup=flag)",
    ],
)
def test_an_unsafe_way_to_a_surface_is_found(source: str) -> None:
    assert problems_in(parse(source), "x.py"), source


@pytest.mark.parametrize(
    "source",
    [
        'toast(app, phrase("exported {path} and {svg}", path=path, svg=svg), timeout=4)',
        "toast(self, safe(problem), severity='error')",
        "set_border_title(table, safe(title))",
        "copy_text(app, call.target, phrase('{noun}', noun=noun))",
        "self._ready.notify()",
        "Static('Export to:')",
        "Static(title, id='title', markup=False)",
        "x = widget.border_title",
    ],
)
def test_a_safe_way_to_a_surface_passes(source: str) -> None:
    assert not problems_in(parse(source), "x.py"), source


def test_a_class_built_on_static_parses_markup_too() -> None:
    tree = parse("class Panel(Static): pass\nclass Bar(Panel): pass\nBar(state.stderr)\n")
    widgets = markup_widgets([tree])
    assert {"Panel", "Bar"} <= widgets
    assert problems_in(tree, "x.py", widgets) == ["x.py:3: Bar() parses markup: say markup=False"]
