"""The viewer on a pseudo-terminal, driven as a person would: its screens told apart
by what they show, its keys taken from its own help, each key remembered with the
byte offset it was pressed at (:class:`~tests.e2e.pty_checks.KeyLog`)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.commands import viewer_help

from .pty_checks import KeyLog
from .pty_terminal import PtyTerminal, key_bytes

REPO = Path(__file__).resolve().parents[2]
ROWS, COLUMNS = 30, 110
"""The window: big enough for every screen's title and footer keys (the table's
"⏎ Details" says it has the focus), no bigger: every frame the viewer draws and the
screen model parses costs with its cells (at 40 x 140, a walk took a third more CPU)."""

SCREEN_OF_SECTION = {
    "Anywhere": "main",
    "Transcript": "main",
    "Tool calls": "table",
    "Playback (a file) and export": "main",
    "A tool call's details (enter)": "details",
    "Event log (l)": "log",
    "A line of the event log (enter there)": "logline",
    "Export dialog (x): enter saves": "export",
    "This help": "help",
    "Run summary (S)": "summary",
}
"""Where the keys of each section of the help work (a new section fails the tests
until it is added here, with a way to reach it in :meth:`Viewer.go`)."""

RECORDER = """\
import json, sys
with open(sys.argv[1], "a") as log:
    log.write(json.dumps(sys.argv[2:]) + "\\n")
if not sys.stdin.isatty():
    sys.stdin.read()
"""
"""A stand-in editor and pager: one JSON line of its arguments per run, then it exits."""


def help_keys() -> list[tuple[str, list[str]]]:
    """Every section of the viewer's help (its title) and the keys it lists, one key
    per item (``0-9`` as ten keys), as :func:`~.pty_terminal.key_bytes` names them."""

    class Bindings:  # what viewer_help reads of the app: its class's bindings
        BINDINGS = StreamviewApp.BINDINGS
        COMMAND_PALETTE_BINDING = StreamviewApp.COMMAND_PALETTE_BINDING

    sections = []
    for section in viewer_help(Bindings()):  # type: ignore[arg-type]
        keys: list[str] = []
        for written, _ in section.rows:
            for key in written.split("  "):
                expanded = [str(d) for d in range(10)] if key == "0-9" else [key]
                keys.extend(k for k in expanded if k not in keys)
        sections.append((section.title, keys))
    return sections


KEY_OF = {"export": "x", "help": "?", "summary": "S"}
"""The key that opens each of these screens from the main one."""


def screen_of(text: str) -> str:
    """Which of the viewer's screens ``text`` (the terminal's rows) shows."""
    if "Search for commands" in text:
        return "palette"
    if "Export the transcript" in text:
        return "export"
    if "streamview keys" in text:
        return "help"
    if "─ run summary ─" in text:
        return "summary"
    if re.search(r"\d+ malformed lines? · \d+ unknown records? · ", text):
        return "log"
    if re.match(r"\s*line \d+ · ", text):
        return "logline"
    if re.search(r"^ #\d+ ", text, re.M):
        return "details"
    footer = text.rstrip().rsplit("\n", 1)[-1]
    if "Tool calls" in text:
        return "table" if "⏎ Details" in footer else "main"
    return "unknown"


class Viewer:
    """``python -m streamview ARGS`` on a pty, with a stand-in editor and pager.

    Args:
        folder: A private folder: the viewer's cwd, settings and the editor's log.
        args: The viewer's arguments.
    """

    def __init__(self, folder: Path, args: Sequence[str]) -> None:
        self.folder = folder
        self.keys = KeyLog()
        self.editor_log = folder / "editor.log"
        recorder = folder / "recorder.py"
        recorder.write_text(RECORDER)
        tool = f"{shlex.quote(sys.executable)} {shlex.quote(str(recorder))} "
        env = dict(os.environ)
        env.update(
            PYTHONPATH=str(REPO) + os.pathsep + env.get("PYTHONPATH", ""),
            PYTHONIOENCODING="utf-8",
            XDG_CONFIG_HOME=str(folder / "config"),
            XDG_STATE_HOME=str(folder / "state"),
            EDITOR=tool + shlex.quote(str(self.editor_log)),
            VISUAL=tool + shlex.quote(str(self.editor_log)),
            PAGER=tool + shlex.quote(str(folder / "pager.log")),
        )
        env.pop("PYTHONWARNINGS", None)
        self.env = env
        self.cwd = folder / "cwd"
        self.cwd.mkdir(exist_ok=True)
        self.argv = [sys.executable, "-m", "streamview", *args]
        self.earlier = b""
        """What the viewers ended by :meth:`restart` wrote."""
        self.statuses: list[int | None] = []
        """Their exit statuses."""
        self.term = self._start()

    def _start(self) -> PtyTerminal:
        return PtyTerminal(self.argv, self.env, self.cwd, rows=ROWS, columns=COLUMNS)

    def restart(self) -> None:
        """A new viewer on the same file, after one ended (the key log goes on)."""
        self.term.close()
        self.statuses.append(self.term.process.poll())
        self.earlier += bytes(self.term.output)
        self.keys.add(len(self.earlier), "a restart of the viewer")
        self.term = self._start()
        self.loaded()

    @property
    def output(self) -> bytes:
        """Everything every viewer started here wrote to its terminal."""
        return self.earlier + bytes(self.term.output)

    def mark(self) -> int:
        """Where the output is now (across restarts)."""
        return len(self.earlier) + self.term.mark()

    @property
    def screen(self) -> str:
        """The screen on show now (:func:`screen_of`)."""
        return screen_of(self.term.text())

    def loaded(self, timeout: float = 30.0) -> None:
        """Wait until the whole file is read and shown."""
        self.term.wait_for(
            # The title counts the calls, or says the filter a person left on.
            lambda s: (
                (
                    re.search(r"Tool calls( \(\d+\)| \d+ of \d+)", s) is not None
                    or "‖ end of the run" in s  # a last session without calls
                )
                and "reading…" not in s
                and "loading…" not in s
            ),
            timeout,
            "the tool table of a file read to its end",
        )
        self.term.settle()

    def press(self, key: str, where: str = "", answer: float = 0.3) -> str:
        """Press ``key`` (a help's name) and wait for its frame; the screen after it.
        ``answer``: how long a key that may change nothing is given to draw something.

        Raises:
            AssertionError: The viewer ended (``q`` is pressed by :meth:`quit`).
        """
        self.alive_or_fail()
        self.keys.add(self.mark(), f"{key} ({where or self.screen})")
        mark = self.term.mark()
        self.term.write(key_bytes(key) if not key.startswith("super+") else super_key(key))
        self.term.settle(answer=answer)
        if key == "ctrl+z":  # the viewer stops as a shell job does: fg continues it
            self.term.continue_when_stopped()
        # o and p hand the terminal to the editor or pager for a while: once back, its
        # frame is drawn anew (a second settle after every key cost 0.3 s of waiting
        # for an answer that never came: a third of the pty tests' time).
        if key != "q" and self.term.back_from_suspend(mark):
            self.term.settle()
        if key != "q":
            self.alive_or_fail()
        return self.screen

    def alive_or_fail(self) -> None:
        """Fail, naming the last key, if the viewer has ended."""
        if not self.term.alive():
            last = self.keys.entries[-1][1] if self.keys.entries else "none"
            raise AssertionError(
                f"the viewer ended with status {self.term.process.poll()} after {last!r}"
            )

    def paste(self, text: str, what: str) -> None:
        """Paste ``text`` (remembered as ``what`` in the key log)."""
        self.keys.add(self.mark(), f"paste of {what} ({self.screen})")
        self.term.paste(text)
        self.term.settle()

    def click_live_markup(self, word: str = "SHOTCLICK") -> bool:
        """Click ``word`` where the screen shows it without the markup around it (the
        stream's ``[@click=...]`` was parsed into a live action); whether it did."""
        for y, line in enumerate(self.term.text().split("\n")):
            for match in re.finditer(word, line):
                if line[max(0, match.start() - 1) : match.start()] != "]":
                    self.keys.add(self.mark(), f"click on a live {word} (row {y})")
                    self.term.click(match.start() + 4, y)
                    self.term.settle()
                    self.alive_or_fail()
                    return True
        return False

    def back_to(self, screen: str = "main") -> None:
        """Escape until ``screen`` shows (``main`` and ``table`` are one screen)."""
        same = {"main", "table"} if screen in ("main", "table") else {screen}
        for _ in range(5):
            before = self.screen
            if before in same or not self.term.alive():
                return
            self.press("escape")
            # A loaded machine may answer after the settle gave up waiting: the screen
            # read then was the old one, and more escapes went out than were needed
            # (CI saw five escapes leave the export dialog behind, and q never sent).
            with contextlib.suppress(AssertionError):
                self.term.wait_for(lambda s, was=before: screen_of(s) != was, 3, "escape")
        raise AssertionError(
            f"escape never led back to {screen}: on {self.screen}\n{self.term.text()}"
        )

    def go(self, screen: str) -> None:
        """Reach ``screen`` from wherever the viewer is (if not there already)."""
        if self.screen == screen:
            return
        self.back_to("main")
        if screen == "main":
            if self.screen == "table":
                self.press("shift+tab")
            return
        if screen in ("table", "details"):
            self.focus_table()
            self.first_row()
            if screen == "details":
                self.open_details()
        elif screen in ("log", "logline"):
            self.press_for("l", "log")
            if screen == "logline":
                self.first_row()
                self.press("enter")
        elif screen in KEY_OF:
            self.press_for(KEY_OF[screen], screen)
        self.reached(screen)

    def press_for(self, key: str, screen: str) -> None:
        """``key`` until ``screen`` shows, three times at most. An escape the way back
        sent may still sit in Textual's input parser when the screen it waited for was
        drawn by something else (an export ending): the next key then arrives with it
        and reads as alt+key, which nothing binds. Pair K (K2 round 2, load 9) lost an
        ``l`` after the export so, in two agents' walks, the log never showing in 20 s."""
        for _ in range(3):
            self.press(key)
            with contextlib.suppress(AssertionError):
                self.term.wait_for(lambda s: screen_of(s) == screen, 8, f"the {screen} screen")
            if self.screen == screen:
                return

    def open_details(self) -> None:
        """``enter`` on the table until the details show: at load 9 a fresh-clone pair saw
        the enter pressed right after an escape closed the details lost (the table was
        on screen 20 s later, its footer saying ``⏎ Details``)."""
        for _ in range(3):
            self.press("enter")
            with contextlib.suppress(AssertionError):
                self.term.wait_for(lambda s: screen_of(s) != "table", 8, "the details screen")
            if self.screen != "table":
                return

    def first_row(self) -> None:
        """``home`` on the focused list. Most often its cursor is there already and
        nothing is drawn: the key is not given the 0.3 s a key that changes something
        may take to answer (three per walk). The keys pressed next go to the same list,
        after this one; what they open is waited for."""
        self.press("home", answer=0.1)

    def focus_table(self) -> None:
        """Give the tool table the focus: a click on its column headings (tab goes
        round panes and boxes in an order that depends on what is open)."""
        for _ in range(3):
            if self.screen == "table":
                return
            heading = self.term.find(" # kind")
            if heading is None:
                self.press("tab")
            else:
                self.keys.add(self.mark(), "click on the table's headings (main)")
                self.term.click(heading[0] + 1, heading[1])
                self.term.settle()
            with contextlib.suppress(AssertionError):
                self.term.wait_for(lambda s: screen_of(s) == "table", 8, "the table screen")
            # Read from a frame a later one moved (a search's, at load 10), the headings'
            # place was a row's: the click opened that call. Back, and click again.
            if self.screen not in ("main", "table"):
                self.back_to("main")
        self.reached("table")

    def reached(self, screen: str) -> None:
        """Wait until ``screen`` shows (``main``: the main screen, either pane focused)."""
        wanted = {"main", "table"} if screen == "main" else {screen}
        self.term.wait_for(lambda s: screen_of(s) in wanted, 20, f"the {screen} screen")

    def quit(self, timeout: float = 30.0) -> int | None:
        """Back to the main screen, ``q``; the exit status (``None``: still running)."""
        for _ in range(2):
            if not self.term.alive():
                break
            # Stuck: q is pressed all the same, and the status says the rest.
            with contextlib.suppress(AssertionError):
                self.back_to("main")
                self.press("q")
            # A screen that came up late (x's dialog, at load 5) took the q as text:
            # the screen is read again and the way back taken once more.
            code = self.term.wait_exit(timeout / 2)
            if code is not None:
                return code
        return self.term.wait_exit(timeout / 2)

    def editor_runs(self) -> list[list[str]]:
        """The arguments of every run of the stand-in editor."""
        if not self.editor_log.exists():
            return []
        return [json.loads(line) for line in self.editor_log.read_text().splitlines()]

    def close(self) -> None:
        """Kill the viewer if it still runs."""
        self.term.close()


def super_key(key: str) -> bytes:
    """``super+c`` in the kitty keyboard protocol, which Textual turns on (``ESC[>25u``)."""
    return f"\x1b[{ord(key[-1])};9u".encode()
