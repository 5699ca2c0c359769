"""streamview: watch, replay and understand headless coding agents' stream-json runs.

The version below is the only place it is written (pyproject.toml reads it).
"""

__version__ = "0.1.0"
