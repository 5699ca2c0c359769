"""A sweep between the chunks of a long file as it is folded: what lets finished calls'
arguments go (:mod:`~streamview.core.args_store`) and moves closed blocks' text out
(:mod:`~streamview.core.block_spill`) run on the same schedule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator


def swept(chunks: Iterable[bytes], sweep: Callable[[], None], every: int) -> Iterator[bytes]:
    """``chunks``, calling ``sweep`` once ``every`` more bytes have been read and once at
    the end of a file of ``every`` bytes or more (the fold has folded the last chunk by
    the time it asks for the next one); a shorter file is never swept."""
    read = 0
    sweep_at = every
    for chunk in chunks:
        read += len(chunk)
        if read >= sweep_at:
            sweep()
            sweep_at = read + every
        yield chunk
    if read >= every:
        sweep()
