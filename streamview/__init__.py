"""streamview: watch, replay and understand Cursor agent CLI stream-json runs."""

__version__ = "0.1.0"
