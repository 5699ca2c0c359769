"""An agent that prints its whole run at once, a line every 50 ms, while a viewer may
still be starting, then exits 0."""

from _stream import RUN, emit  # type: ignore[import-not-found]

emit(RUN, pause=0.05)
