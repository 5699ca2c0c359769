"""A terminating signal's work that takes a lock runs off the signal handler.

``streamview run`` stops the agent when it gets SIGINT, SIGTERM or SIGHUP, under the
process source's lock. A handler runs on the main thread between two bytecodes, also
inside the code that holds that lock (the previous signal's own handler among it): a
handler that took the lock there waited for itself for ever. A fresh-clone pair at load
10 hung so, on three SIGTERMs 0.3 s apart (``test_a_second_signal_insists``).
"""

from __future__ import annotations

import os
import signal
import threading
import time

from streamview.sources import signals


def test_a_signal_that_comes_while_its_lock_is_held_is_acted_on_once_it_is_free() -> None:
    lock = threading.Lock()
    acted: list[tuple[signal.Signals, bool]] = []

    def stop_the_agent(sig: signal.Signals) -> None:
        # On the handler's own thread this waits for the main thread, which holds the
        # lock until the handler returns: it gives up after 3 s, and says so.
        got = lock.acquire(timeout=3)
        acted.append((sig, got and threading.current_thread() is not threading.main_thread()))
        if got:
            lock.release()

    received = len(signals.received)
    with signals.handed_over(stop_the_agent):
        with lock:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)  # the handler runs in here, while the lock is held
        deadline = time.monotonic() + 30
        while not acted and time.monotonic() < deadline:
            time.sleep(0.01)
    assert acted == [(signal.SIGTERM, True)]
    assert signals.received[received:] == [signal.SIGTERM]
    del signals.received[received:]
