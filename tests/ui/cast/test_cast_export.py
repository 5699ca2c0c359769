"""``--export-cast``: the cast, played back in a terminal emulator (pyte), shows what the
viewer shows at the same replay time, on the replay's clock (speed and idle limit).

One cast of a bundled recording is made once for the module, through the command line.
"""

from __future__ import annotations

import io
import itertools
import json
import math
import re
from pathlib import Path
from typing import Any

import orjson
import pyte
import pytest

from streamview.cli.view import main_view
from streamview.core.parse import RECV_KEY
from streamview.core.reader import EventReader
from streamview.core.sanitize import UNSAFE_CHARS
from streamview.core.state import StreamState
from streamview.sources.base import FileSource
from streamview.ui.cast.export import cast_title, export_cast
from streamview.ui.cast.frames import screen_strips
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.playback.feed import PlaybackFeed
from tests.hostile.corpus import ALL_TEXT
from tests.hostile.streams import hostile_stream

from ..conftest import RECORDINGS, wait_for

RECORDING = RECORDINGS / "success-multi-tool.ndjson"
SPEED = 4.0
IDLE = 1.0
SIZE = (100, 30)
FPS = 30
"""The viewer's frames a second: an event shows at the first frame at or after it."""
FIRST_CALL_LINE = 45
"""The line (0-based) that starts the run's first tool call (an ``updateTodos``)."""

DRAWING = re.compile(r"\x1b\[(?:\d+;1H|[\d;]*m|\?25l|H|2J)")
"""The only sequences the cast writes: a line's start, colours, hiding the cursor, clearing."""
UNSAFE = re.compile(f"[{UNSAFE_CHARS}]")

Cast = tuple[dict[str, Any], list[tuple[float, str, str]]]


@pytest.fixture(scope="module")
def cast(tmp_path_factory: pytest.TempPathFactory) -> Cast:
    """The cast ``streamview RECORDING --export-cast OUT -s 4 -i 1`` writes."""
    out = tmp_path_factory.mktemp("cast") / "run.cast"
    arguments = [str(RECORDING), "--export-cast", str(out), "-s", "4", "-i", "1"]
    assert main_view(arguments) == 0  # the run succeeded
    header, *events = out.read_text(encoding="utf-8").splitlines()
    return json.loads(header), [tuple(json.loads(line)) for line in events]  # type: ignore[misc]


def replay_seconds(line: int) -> float:
    """When line ``line`` of the recording is due in the replay: arrival times, each gap
    capped at the idle limit, divided by the speed (worked out here from the file)."""
    times = [orjson.loads(raw)[RECV_KEY] for raw in RECORDING.read_bytes().splitlines()]
    gaps = (min(later - earlier, IDLE * 1000) for earlier, later in itertools.pairwise(times))
    return sum(list(gaps)[:line]) / 1000 / SPEED


def frame_at(seconds: float) -> float:
    """The viewer's first frame at or after ``seconds``."""
    return math.ceil(seconds * FPS - 1e-9) / FPS


def screen_at(cast: Cast, seconds: float) -> list[str]:
    """The emulated terminal after every frame up to ``seconds``."""
    header, events = cast
    screen = pyte.Screen(header["width"], header["height"])
    stream = pyte.Stream(screen)
    for moment, _, data in events:
        if moment > seconds + 1e-9:
            break
        stream.feed(data)
    return list(screen.display)


def test_header_and_clock_are_the_replays(cast: Cast) -> None:
    """Header fields; times from 0, never going back, ending when the replay ends at
    -s 4 -i 1 (uncapped or at speed 1 it would end much later); only the sequences
    that draw (cursor moves, colours) in the output."""
    header, events = cast
    first = orjson.loads(RECORDING.read_bytes().splitlines()[0])
    assert header["version"] == 2
    assert (header["width"], header["height"]) == SIZE
    assert header["timestamp"] == first[RECV_KEY] // 1000
    assert header["title"].startswith("streamview: tests/test_backoff.py::test_delays")
    assert header["env"]["TERM"] == "xterm-256color"
    assert header["idle_time_limit"] == IDLE
    times = [moment for moment, _, _ in events]
    assert times[0] == 0.0
    assert times == sorted(times)
    assert all(kind == "o" and data for _, kind, data in events)
    lines = len(RECORDING.read_bytes().splitlines())
    end = frame_at(replay_seconds(lines - 1))
    assert times[-1] == pytest.approx(end, abs=1e-6)
    last = orjson.loads(RECORDING.read_bytes().splitlines()[-1])
    assert end < (last[RECV_KEY] - first[RECV_KEY]) / 1000 / SPEED / 2  # the idle limit cut it
    for _, _, data in events:
        assert not UNSAFE.search(DRAWING.sub("", data))


async def test_frames_show_what_the_viewer_shows(cast: Cast) -> None:
    """At the first frame, the frame of the first tool call and the end, the emulated
    terminal holds the viewer's own screen for that replay time (the viewer played
    here on a clock set by hand, read from what Textual paints)."""
    first_call = frame_at(replay_seconds(FIRST_CALL_LINE))
    end = cast[1][-1][0]
    before_call = screen_at(cast, first_call - 1 / FPS)
    at_call = screen_at(cast, first_call)
    assert not any("updateTodos" in row for row in before_call)
    assert any(re.search(r"1 updateTodos .*4 todos .*running", row) for row in at_call)
    assert "Cursor  GPT-5  cwd /home/dev/src/tidepool" in screen_at(cast, 0.0)[0]
    assert "✓ success in 36.5s" in screen_at(cast, end)[-2]

    now = [0.0]
    feed = PlaybackFeed(
        FileSource(RECORDING), playing=True, speed=SPEED, idle_limit=IDLE, clock=lambda: now[0]
    )
    app = StreamviewApp(FileSource(RECORDING), clock=feed.recorded_now_ms, feed=feed)
    async with app.run_test(size=SIZE) as pilot:
        app.transcript.tail_pacing = False
        for moment in (0.0, first_call, end):
            now[0] = moment + 1e-6
            app.pump()
            app.tick()
            await pilot.pause()
            await wait_for(pilot, lambda: not app.transcript.laying_out, timeout=60)
            await pilot.pause()
            painted = ["".join(text for text, _, _ in line) for line in screen_strips(app)]
            assert [row.rstrip() for row in screen_at(cast, moment)] == [
                row.rstrip() for row in painted
            ], f"at {moment:.3f} s"


def test_title_is_clean_stream_text() -> None:
    """A prompt holding escapes (a window-title OSC, a bidi override) and newlines
    gives a title of one line with none of them."""
    lines = RECORDING.read_bytes().splitlines()[:2]
    record = orjson.loads(lines[1])
    record["message"]["content"][0]["text"] = "\x1b]0;pwned\x07fix\u202e it\nnow \x1b[2J"
    state = StreamState(track_changes=False)
    reader = EventReader()
    for event in [*reader.feed(lines[0] + b"\n" + orjson.dumps(record) + b"\n"), *reader.finish()]:
        state.apply(event)
    title = cast_title(state, "run.ndjson")
    assert title.startswith("streamview: ")
    assert "fix" in title and "now" in title
    assert not re.search(r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", title)


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--size", "100by30"], "--size: not COLUMNSxROWS: '100by30' (e.g. 100x30)"),
        (["--size", "10x5"], "--size: 10x5 is out of range (40-500 columns, 10-200 rows)"),
        (["--export-cast", "{missing}/run.cast"], "cannot write {missing}/run.cast: No such file"),
    ],
)
def test_bad_size_or_path_is_one_line(
    options: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bad ``--size`` or an unwritable cast: one line on stderr, exit status 2."""
    missing = str(tmp_path / "no-such-dir")
    arguments = [str(RECORDINGS / "failure-no-result.ndjson"), "--export-cast", str(tmp_path / "a")]
    arguments += [option.replace("{missing}", missing) for option in options]
    assert main_view(arguments) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("streamview: " + said.replace("{missing}", missing))


def test_hostile_stream_reaches_the_cast_inert(tmp_path: Path) -> None:
    """Every control sequence of the hostile corpus, in every string of a run (prompt,
    answer, thinking, tool arguments and outputs, malformed lines): the cast's output
    holds only the sequences that draw the viewer, and its title no control at all."""
    path = tmp_path / "hostile.ndjson"
    path.write_bytes(hostile_stream(ALL_TEXT))
    out = io.StringIO()
    export_cast(FileSource(path), out, size=(120, 40), speed=64.0)
    header, *events = out.getvalue().splitlines()
    assert not UNSAFE.search(json.loads(header)["title"])
    drawn = "".join(json.loads(line)[2] for line in events)
    assert "PWNED" in drawn or "osc" in drawn  # the payload is on screen, as pictures
    leftover = DRAWING.sub("", drawn)
    assert not UNSAFE.search(leftover), UNSAFE.search(leftover)
