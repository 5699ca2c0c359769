"""The Textual viewer: thin widgets over :mod:`streamview.core`."""
