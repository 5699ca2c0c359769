"""The Textual viewer: thin widgets over :mod:`streamview.core`, a package per pane.

``text`` and ``feed`` are shared by every pane; ``transcript``, ``calls``, ``playback``,
``details`` and ``log`` are what a person sees; ``frame`` is the app around them.
"""

from pathlib import Path

STYLESHEET = Path(__file__).with_name("streamview.tcss")
"""The one stylesheet of the viewer, every pane's styles included."""
