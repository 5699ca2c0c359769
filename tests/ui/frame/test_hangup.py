"""The terminal file Textual's writer thread writes through: EIO (the terminal hung up)
is the SIGHUP the viewer missed, not a crash; the pty test is in
tests/e2e/test_hangup_pty.py."""

from __future__ import annotations

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
