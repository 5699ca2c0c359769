"""The terminal file Textual's writer thread writes through: EIO (the terminal hung up)
is the SIGHUP the viewer missed, not a crash; the pty test is in
tests/e2e/test_hangup_pty.py."""

from __future__ import annotations

import asyncio
import errno
import io
import signal
from collections.abc import Iterator

import pytest
from textual.drivers.headless_driver import HeadlessDriver
from textual.drivers.linux_driver import LinuxDriver

from streamview.ui.frame.hangup import TerminalFile, hangup_aware


class DeadTerminal(io.StringIO):
    """A terminal whose writes fail with ``code`` once ``gone`` is set."""

    def __init__(self, code: int = errno.EIO) -> None:
        super().__init__()
        self.code = code
        self.gone = False

    def write(self, text: str) -> int:
        if self.gone:
            raise OSError(self.code, "Input/output error")
        return super().write(text)

    def flush(self) -> None:
        if self.gone:
            raise OSError(self.code, "Input/output error")


@pytest.fixture
def hangups() -> Iterator[list[int]]:
    """The SIGHUPs this process got while the test ran."""
    got: list[int] = []
    previous = signal.signal(signal.SIGHUP, lambda signum, frame: got.append(signum))
    try:
        yield got
    finally:
        signal.signal(signal.SIGHUP, previous)


def test_eio_raises_sighup_once_and_later_writes_are_dropped(hangups: list[int]) -> None:
    terminal = DeadTerminal()
    file = TerminalFile(terminal)  # type: ignore[arg-type]
    assert file.write("frame 1") == 7
    terminal.gone = True
    assert file.write("frame 2") == 7  # the writer thread lives on
    file.flush()
    assert file.write("frame 3") == 7
    assert hangups == [signal.SIGHUP]
    assert file.hung_up
    assert terminal.getvalue() == "frame 1"


def test_any_other_write_error_is_raised(hangups: list[int]) -> None:
    terminal = DeadTerminal(errno.ENOSPC)
    file = TerminalFile(terminal)  # type: ignore[arg-type]
    terminal.gone = True
    with pytest.raises(OSError, match="Input/output"):
        file.write("frame")
    assert not hangups and not file.hung_up


def test_only_the_terminal_driver_is_wrapped() -> None:
    assert hangup_aware(HeadlessDriver) is HeadlessDriver  # tests, and served browsers
    wrapped = hangup_aware(LinuxDriver)
    assert issubclass(wrapped, LinuxDriver) and wrapped is not LinuxDriver


def test_a_sigcont_takes_the_terminal_again_unless_the_viewer_leaves_unsuspended(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Textual's driver takes the terminal again on every SIGCONT. One that came as the
    viewer left (a killed tmux pane sends SIGHUP and SIGCONT) started an input thread
    nobody stopped: the process spun on the dead terminal for ever (seen in tmux, 90 %
    of a core 15 minutes on). The wrapped driver lets that one be; after its own
    SIGTSTP, and while the viewer runs, it resumes as Textual's does."""
    resumed: list[str] = []
    monkeypatch.setattr(
        LinuxDriver, "_sigcont_application", lambda self, *_: resumed.append("resumed")
    )

    class App:  # what the driver reads of its app here
        _exit = False

    app = App()

    async def made() -> LinuxDriver:  # a driver is made in its app's event loop
        return hangup_aware(LinuxDriver)(app, debug=False, mouse=False)  # type: ignore[arg-type,return-value]

    saved = {sig: signal.getsignal(sig) for sig in (signal.SIGTSTP, signal.SIGCONT)}
    try:
        driver = asyncio.run(made())
    finally:
        for sig, action in saved.items():  # the driver's __init__ set its own
            signal.signal(sig, action)
    driver._must_signal_resume = False
    driver._sigcont_application()
    assert resumed == ["resumed"], "running: as Textual's"
    app._exit = True
    driver._sigcont_application()
    assert resumed == ["resumed"], "leaving, not suspended: let be"
    driver._must_signal_resume = True
    driver._sigcont_application()
    assert resumed == ["resumed", "resumed"], "back from its own SIGTSTP: resumed"
