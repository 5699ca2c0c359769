"""A run that works: the whole stream, exit 0."""

from _stream import RUN, emit  # type: ignore[import-not-found]

emit(RUN)
