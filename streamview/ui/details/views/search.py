"""Views of the calls that search: grep matches, glob file lists, directory trees.

A long list is made into rows when shown (:class:`~streamview.ui.text.list_rows.ListRows`)
once "show all" asks for more than :data:`~streamview.ui.text.capping.MAX_ITEMS` entries.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from rich.tree import Tree

from streamview.core.sanitize import one_line
from streamview.ui.details.sections import Section, fields, raw_json, scalar
from streamview.ui.details.views.base import ToolView, as_int, as_str
from streamview.ui.text import capping
from streamview.ui.text.capping import SHOW_ALL_KEY, Capped, with_note
from streamview.ui.text.list_rows import ListBuilder


def glob_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The pattern and directory, then the files found."""
    files = payload.get("files")
    total = as_int(payload.get("totalFiles"))
    truncated = payload.get("clientTruncated") is True or payload.get("ripgrepTruncated") is True
    facts = fields(
        [
            ("pattern", as_str(args.get("globPattern")) or as_str(payload.get("pattern"))),
            ("directory", as_str(args.get("targetDirectory")) or as_str(payload.get("path"))),
            ("files", total if total is not None else None),
            ("note", "the tool cut the list" if truncated else None),
        ]
    )
    sections = [Section("search", facts)]
    if isinstance(files, list):
        sections.append(_listing("files", [str(f) for f in files], full))
    return sections


def _listing(title: str, items: list[str], full: bool) -> Section:
    if full and len(items) > capping.MAX_ITEMS:
        builder = ListBuilder()
        for item in items:
            builder.add("", one_line(item, 1000))
        return Section(title, builder.rows(), wrap=False)
    shown = items if full else items[: capping.MAX_ITEMS]
    text = "\n".join(one_line(item, 1000) for item in shown) or "none"
    capped = Capped(text, len(items) - len(shown))
    body = Text(text, style="" if items else "dim italic", end="")
    return Section(title, with_note(body, capped), capped.truncated, wrap=False)


def grep_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The pattern and where it was looked for, then the matches by file."""
    facts = fields(
        [
            ("pattern", as_str(args.get("pattern"))),
            ("path", as_str(args.get("path"))),
            ("glob", as_str(args.get("glob"))),
            ("mode", as_str(args.get("outputMode"))),
        ]
    )
    sections = [Section("search", facts)]
    results = payload.get("workspaceResults")
    if results is None:
        return [*sections, raw_json(payload, full)]
    rows = ListBuilder(_GREP_STYLES, limit=None if full else capping.MAX_ITEMS)
    _grep_lines(results, rows)
    if not len(rows):
        return [*sections, Section("matches", Text("no matches", style="dim italic"))]
    if full and len(rows) > capping.MAX_ITEMS:
        return [*sections, Section("matches", rows.rows(), wrap=False)]
    body = rows.rows().joined()
    capped = Capped("", rows.skipped)
    return [*sections, Section("matches", with_note(body, capped), capped.truncated, wrap=False)]


_GREP_STYLES = ("", "bold magenta", "bold")
"""Styles of a grep's rows: a match or other line, a file, a directory or other key."""


def _grep_lines(node: Any, out: ListBuilder, depth: int = 0) -> None:
    """Walk a ``workspaceResults`` tree of unknown exact shape into readable rows.

    Known pieces: a directory key, file entries with ``file`` and ``matches`` (each
    with ``lineNumber`` and ``content``), plain file lists. Anything else is shown as
    its key and a short JSON value. Past the builder's limit, matches and files are
    only counted.
    """
    indent = "  " * depth
    if isinstance(node, dict):
        file = as_str(node.get("file"))
        matches = node.get("matches")
        if file is not None:
            if out.full_up:
                out.skip(1 + (len(matches) if isinstance(matches, list) else 0))
                return
            out.add(indent, one_line(file, 1000), 1)
            if isinstance(matches, list):
                for match in matches:
                    _match_line(match, indent + "  ", out)
            return
        for key, value in node.items():
            if isinstance(value, dict | list):
                if key not in ("content", "matches", "files", "output"):
                    out.add(indent, one_line(str(key), 500), 2)
                    _grep_lines(value, out, depth + 1)
                else:
                    _grep_lines(value, out, depth)
            elif key not in ("totalLines", "totalMatchedLines", "clientTruncated"):
                out.add(indent, f"{one_line(str(key), 100)}: {scalar(value, 200)}")
    elif isinstance(node, list):
        for item in node:
            match = isinstance(item, dict) and ("lineNumber" in item or "content" in item)
            if out.full_up and (match or isinstance(item, str)):
                out.skip()
            elif match:
                _match_line(item, indent, out)
            elif isinstance(item, str):
                out.add(indent, one_line(item, 1000))
            else:
                _grep_lines(item, out, depth)


def _match_line(match: Any, indent: str, out: ListBuilder) -> None:
    if not isinstance(match, dict):
        out.add(indent, scalar(match, 500))
        return
    number = as_int(match.get("lineNumber"))
    content = match.get("content")
    mark = f"{number}: " if number is not None else ""
    out.add(
        indent,
        one_line(content, 500) if isinstance(content, str) else scalar(match, 500),
        mark=mark,
    )


def ls_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The directory tree, drawn as a tree (as rows when long and shown in full)."""
    root = payload.get("directoryTreeRoot")
    if not isinstance(root, dict):
        return [raw_json(payload, full)]
    label = as_str(root.get("absPath")) or as_str(args.get("path")) or "."
    if full:
        rows = ListBuilder(_LS_STYLES)
        rows.add("", one_line(label, 500), 1)
        _ls_rows(root, rows, "")
        if len(rows) > capping.MAX_ITEMS:
            return [Section("tree", rows.rows(), wrap=False)]
    tree = Tree(Text(one_line(label, 500), style="bold"))
    budget = [10**9 if full else capping.MAX_ITEMS]
    _ls_tree(root, tree, budget)
    sections = [Section("tree", tree)]
    if budget[0] < 0:
        sections.append(
            Section(
                "",
                Text(
                    f"… more entries (press {SHOW_ALL_KEY} to show all)",
                    style="italic yellow",
                ),
                True,
            )
        )
    return sections


def _ls_tree(node: dict[str, Any], tree: Tree, budget: list[int]) -> None:
    dirs = node.get("childrenDirs") or node.get("directories") or []
    files = node.get("childrenFiles") or node.get("files") or []
    for child in dirs if isinstance(dirs, list) else []:
        budget[0] -= 1
        if budget[0] < 0:
            return
        if not isinstance(child, dict):
            tree.add(Text(scalar(child, 200)))
            continue
        name = (
            as_str(child.get("name"))
            or (as_str(child.get("absPath")) or "?").rstrip("/").rsplit("/", 1)[-1]
        )
        branch = tree.add(Text(one_line(name, 300) + "/", style="bold blue"))
        _ls_tree(child, branch, budget)
    for child in files if isinstance(files, list) else []:
        budget[0] -= 1
        if budget[0] < 0:
            return
        file_name = as_str(child.get("name")) if isinstance(child, dict) else as_str(child)
        tree.add(Text(one_line(file_name or scalar(child, 200), 300)))


_LS_STYLES = ("", "bold", "bold blue")
"""Styles of a directory tree's rows: a file, the root, a directory."""
_GUIDES = ("├── ", "└── ", "│   ", "    ")
"""The lines Rich's :class:`~rich.tree.Tree` draws: a child, the last child, and
what goes under each."""


TREE_LEAD_CHARS = 160
"""Characters of tree guides before an entry: deeper entries show the last ones after
``…`` (a hostile tree 500 levels deep would otherwise make rows of 2,000 guides)."""


def _ls_rows(node: dict[str, Any], out: ListBuilder, lead: str) -> None:
    """The entries under ``node`` as rows drawn as Rich draws a tree (every entry)."""
    if len(lead) > TREE_LEAD_CHARS:
        lead = "…" + lead[len(lead) - TREE_LEAD_CHARS + 1 :]
    dirs = node.get("childrenDirs") or node.get("directories") or []
    files = node.get("childrenFiles") or node.get("files") or []
    children = [
        *(dirs if isinstance(dirs, list) else []),
        *(("file", child) for child in (files if isinstance(files, list) else [])),
    ]
    last = len(children) - 1
    for number, child in enumerate(children):
        guide, under = (_GUIDES[1], _GUIDES[3]) if number == last else (_GUIDES[0], _GUIDES[2])
        if isinstance(child, tuple):
            file = child[1]
            name = as_str(file.get("name")) if isinstance(file, dict) else as_str(file)
            out.add(lead + guide, one_line(name or scalar(file, 200), 300))
        elif not isinstance(child, dict):
            out.add(lead + guide, scalar(child, 200))
        else:
            name = (
                as_str(child.get("name"))
                or (as_str(child.get("absPath")) or "?").rstrip("/").rsplit("/", 1)[-1]
            )
            out.add(lead + guide, one_line(name, 300) + "/", 2)
            _ls_rows(child, out, lead + under)


GLOB = ToolView(glob_view)
GREP = ToolView(grep_view)
LS = ToolView(ls_view)
