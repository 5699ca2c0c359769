"""What Rich paints for the detail's sections, as text and styles."""

from __future__ import annotations

from typing import Any

from rich.console import Console, RenderableType
from rich.segment import Segment

from streamview.ui.details.sections import Section


def segments(body: RenderableType, width: int = 120) -> list[Segment]:
    """What Rich would paint for ``body``."""
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    return list(console.render(body, console.options))


def text_of(sections: list[Section], width: int = 120) -> str:
    """The sections' titles and painted text."""
    out = []
    for section in sections:
        out.append(f"[{section.title}]")
        out.append("".join(s.text for s in segments(section.body, width)))
    return "\n".join(out)


def styled(sections: list[Section], fragment: str) -> list[Any]:
    """Styles of the painted segments whose text contains ``fragment``."""
    return [
        s.style
        for section in sections
        for s in segments(section.body)
        if fragment in s.text and s.style is not None
    ]
