"""A finished run as one self-contained HTML page (``--export-html``)."""

from __future__ import annotations

from streamview.core.html_export.page import json_island, to_html

__all__ = ["json_island", "to_html"]
