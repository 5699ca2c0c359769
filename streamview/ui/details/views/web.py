"""Views of web calls: a search's references, a fetched page's text."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from streamview.core.sanitize import one_line
from streamview.ui.details.sections import Section, fields, plain, raw_json, scalar
from streamview.ui.details.views.base import ToolView, as_str
from streamview.ui.text import capping
from streamview.ui.text.capping import cap_text, clean_capped
from streamview.ui.text.wrap import wrap_text


def web_search_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The query, then each reference: its title, its address and a passage."""
    references = payload.get("references")
    sections = [Section("search", fields([("query", as_str(args.get("searchTerm")))]))]
    if not isinstance(references, list):
        return [*sections, raw_json(payload, full)]
    parts: list[RenderableType] = []
    title = "references"
    cut = len(references) > capping.MAX_ITEMS and not full
    for number, reference in enumerate(references[: None if full else capping.MAX_ITEMS], 1):
        if not isinstance(reference, dict):
            parts.append(Text(scalar(reference)))
            continue
        head = Text(f"{number}. ", style="dim")
        head.append(one_line(as_str(reference.get("title")) or "(no title)", 300), style="bold")
        parts.append(head)
        url = as_str(reference.get("url"))
        if url:
            parts.append(Text("   " + one_line(url, 500), style="cyan"))
        chunk = as_str(reference.get("chunk"))
        if chunk and full and cap_text(chunk).truncated:  # folded when laid out
            sections.append(Section(title, Group(*parts)))
            sections.append(Section("", wrap_text(chunk, "dim", indent="   ")[0]))
            title, parts = "", []
        elif chunk:
            capped = clean_capped(cap_text(chunk, full))
            text = capped.text if full else capped.text[:1500]
            more = " …" if len(text) < len(chunk) else ""
            cut = cut or bool(more)
            parts.append(Text("   " + text.replace("\n", "\n   ") + more, style="dim"))
        parts.append(Text(""))
    if not parts and title:
        parts.append(Text("no results", style="dim italic"))
    return [*sections, Section(title, Group(*parts), cut)]


def web_fetch_view(args: dict[str, Any], payload: dict[str, Any], full: bool) -> list[Section]:
    """The page's address, then its content (Markdown, shown as text)."""
    url = as_str(payload.get("url")) or as_str(args.get("url"))
    sections = [Section("page", fields([("url", url)]))]
    markdown = as_str(payload.get("markdown"))
    if markdown is not None:
        body, cut = plain(markdown, full)
        sections.append(Section("content (markdown, as text)", body, cut))
    return sections


WEB_SEARCH = ToolView(web_search_view)
WEB_FETCH = ToolView(web_fetch_view)
