"""Reading an exported page back: what tags, attributes, scripts and text it holds."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from streamview.core.html_export import to_html
from streamview.core.html_export.page import CHUNK
from streamview.core.linestore import LineStore
from streamview.core.reader import EventReader
from streamview.core.state import StreamState

_FRAME = "html head meta title style body header h1 div input span main p section h2 dl dt dd"
_CALLS = "details summary code script pre"
_MARKDOWN = "h3 h4 h5 h6 ul ol li em strong a blockquote hr br table thead tbody tr th td s"
"""What markdown-it writes for CommonMark, tables and strikethrough (raw HTML off)."""
OUR_TAGS = frozenset(f"{_FRAME} {_CALLS} {_MARKDOWN}".split())
"""Every tag the exporter writes; a tag outside this set came from the stream."""
SAFE_HREF = re.compile(r"^(https?://|mailto:|#)", re.IGNORECASE)


@dataclass
class Page:
    """What the HTML parser saw in a page."""

    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    scripts: list[tuple[dict[str, str | None], str]] = field(default_factory=list)
    text: list[str] = field(default_factory=list)

    @property
    def details(self) -> list[Any]:
        """Each call's detail sections, decoded from the page's JSON islands, in order."""
        islands = [
            (attrs["id"], body)
            for attrs, body in self.scripts
            if attrs.get("type") == "application/json"
        ]
        assert [name for name, _ in islands] == [f"c{k}" for k in range(len(islands))]
        found: list[Any] = []
        for _, body in islands:
            chunk = json.loads(body)
            assert isinstance(chunk, list) and 0 < len(chunk) <= CHUNK
            found += chunk
        return found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self._script: dict[str, str | None] | None = None
        self._body: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.page.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script, self._body = dict(attrs), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.page.scripts.append((self._script, "".join(self._body)))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._body.append(data)
        else:
            self.page.text.append(data)


def read_page(html: str) -> Page:
    """Parse ``html`` as a browser's tokenizer would split it into tags."""
    reader = _Reader()
    reader.feed(html)
    reader.close()
    return reader.page


def check_page(html: str) -> Page:
    """Assert the page holds only our tags, no handler, no unsafe link, no foreign script."""
    page = read_page(html)
    names = {tag for tag, _ in page.tags}
    assert names <= OUR_TAGS, f"tags from the stream: {sorted(names - OUR_TAGS)}"
    csp = next(a["content"] for t, a in page.tags if t == "meta" and a.get("http-equiv"))
    assert csp is not None and "default-src 'none'" in csp
    nonce = re.search(r"'nonce-([^']+)'", csp)
    assert nonce is not None
    for tag, attrs in page.tags:
        handlers = [name for name in attrs if name.startswith("on")]
        assert not handlers, (tag, attrs)
        assert "src" not in attrs and "srcset" not in attrs, (tag, attrs)
        if tag == "a":
            assert SAFE_HREF.match(attrs.get("href") or ""), attrs
            assert attrs.get("rel") == "noopener noreferrer", attrs
    code = [attrs for attrs, _ in page.scripts if attrs.get("type") != "application/json"]
    assert code == [{"nonce": nonce.group(1)}], code
    for attrs, body in page.scripts:
        if attrs.get("type") == "application/json":
            assert "<" not in body and "\u2028" not in body and "&" not in body
    return page


def export(data: bytes, agent: str | None = None, title: str = "run") -> tuple[StreamState, str]:
    """Fold ``data`` as ``--export-html`` does and render the page."""
    store = LineStore()
    reader = EventReader(store, agent=agent)
    state = StreamState(track_changes=False)
    for event in [*reader.feed(data), *reader.finish()]:
        state.apply(event)
    state.finish()
    return state, to_html(state, title=title, store=store)
