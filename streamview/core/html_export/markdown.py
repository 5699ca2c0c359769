"""The answer's Markdown as HTML, from our own parse (markdown-it-py), never the stream's.

Raw HTML in the text is shown as text (``html`` off); a link is kept only when it goes
to ``http(s):``, ``mailto:`` or an anchor, and carries ``rel="noopener noreferrer"``;
an image is never loaded: it becomes a link the reader may click.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.token import Token

from streamview.core.sanitize import clean

SAFE_SCHEMES = ("http://", "https://", "mailto:")
"""Where a link from the run may lead (besides an anchor on the page)."""
REL = "noopener noreferrer"


def safe_link(url: str) -> bool:
    """Whether a link to ``url`` may be written: a web address, a mail, or an anchor."""
    lowered = url.strip().lower()
    return lowered.startswith(SAFE_SCHEMES) or lowered.startswith("#")


def _link_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    token.attrSet("rel", REL)
    rendered: str = self.renderToken(tokens, idx, options, env)
    return rendered


def _image(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = self.renderInlineAsText(token.children or [], options, env) or "image"
    label = escapeHtml(f"image: {alt}")
    if not safe_link(src):
        return f'<span class="img-link">{label}</span>'
    return f'<a class="img-link" href="{escapeHtml(src)}" rel="{REL}">{label}</a>'


def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.validateLink = safe_link  # type: ignore[method-assign]
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("image", _image)
    return md


_MD = _parser()


def render_markdown(text: str) -> str:
    """``text`` (untrusted Markdown) as HTML holding only tags markdown-it writes."""
    rendered: str = _MD.render(clean(text))
    return rendered
