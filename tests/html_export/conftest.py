"""A headless Chromium (Debian's, driven by Playwright) that may load nothing but files."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@dataclass
class Offline:
    """A page whose every network request fails, and what it tried."""

    page: Page
    requests: list[str] = field(default_factory=list)
    """URLs asked for, other than the page's own file."""
    dialogs: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    """Uncaught script errors and console errors (a CSP refusal is one)."""


@pytest.fixture
def offline(chromium: Browser) -> Iterator[Any]:
    """``open(path, scheme="light")``: the page loaded from ``file://``, network refused."""
    contexts = []

    def open_page(path: Path, scheme: str = "light") -> Offline:
        context = chromium.new_context(
            viewport={"width": 1100, "height": 900}, color_scheme=scheme, offline=True
        )
        contexts.append(context)
        page = context.new_page()
        seen = Offline(page)

        def refuse(route: Any) -> None:
            if route.request.url == path.as_uri():
                route.continue_()  # the page itself, from disk
                return
            seen.requests.append(route.request.url)
            route.abort()

        context.route("**/*", refuse)
        page.on("request", lambda r: r.url == path.as_uri() or seen.requests.append(r.url))
        page.on("dialog", lambda d: (seen.dialogs.append(d.message), d.dismiss()))
        page.on("pageerror", lambda e: seen.errors.append(str(e)))
        page.on("console", lambda m: m.type == "error" and seen.errors.append(m.text))
        page.goto(path.as_uri())
        return seen

    yield open_page
    for context in contexts:
        context.close()
