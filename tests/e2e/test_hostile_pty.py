"""Issue 26, end to end: the real viewer on a pseudo-terminal, fed every agent's
hostile stream, every key of its help pressed on every screen; then the bytes it wrote
to the terminal are searched for what the stream must never get there.

Not tmux (which is a terminal itself and keeps an OSC 52 or a DCS to itself): a bare
pty (:mod:`tests.e2e.pty_terminal`), every byte kept. What must not be there
(:mod:`tests.e2e.pty_checks`): a terminal string (OSC, DCS, APC...) carrying the
stream's marker, an OSC 52 whose text holds a control character, an OSC 8 link Textual
does not send itself, a DCS, a DSR query or a paste end more often than on a benign
stream, a raw C1 control, a traceback. And: a click on the stream's ``@click`` markup,
if a screen made it live, must not have overwritten the victim file; ``$EDITOR`` gets
one absolute argument; ``q`` exits 0. Each failure names the key and the bytes.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest

from streamview.core.dialects import SESSION_FILES

from .hostile_agents import (
    AGENTS,
    VICTIM,
    benign_agent_stream,
    hostile_agent_stream,
    marker,
    osc52_marker,
    payload,
)
from .pty_checks import copied_texts, problems
from .pty_viewer import SCREEN_OF_SECTION, Viewer, help_keys

pytestmark = pytest.mark.timeout(120)

CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f]")
BASELINE_AGENT = "claude"
"""The agent whose untouched fixture, driven the same way, shows what Textual sends."""


def victim_folder(folder: Path) -> Path:
    """A folder holding the file a live ``@click=app.screenshot`` would overwrite."""
    victims = folder / "victims"
    victims.mkdir(exist_ok=True)
    (victims / VICTIM).write_text("the victim's own text\n")
    return victims


def export_path(folder: Path, agent: str, victims: Path) -> Path:
    """A path for ``x`` with markup that would crash (``[/x]``) or act if parsed, and
    the agent's marker. Its folders exist. (No control character: see :func:`pasted`.)"""
    name = (
        f"export [/x] [@click=app.screenshot('{VICTIM}','{victims}')]SHOTCLICK[/]"
        f" {marker(agent)}.md"
    )
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def pasted(text: str) -> str:
    """``text`` as the tests paste it into the viewer: its markup stays, its control
    characters go. A paste holding ``ESC ]`` or a C1 control leaves Textual's input
    parser waiting for the paste's end (every key after it is swallowed: seen with
    Textual 8.2), and one holding ``ESC[201~`` ends there: neither says anything
    about streamview's own handling of the text."""
    return CONTROLS.sub("", text)


Step = tuple[str, Callable[[Viewer], None]]
"""One thing a person does: its name (for failures), and the doing."""


def route(hostile: str, path: Path) -> list[Step]:
    """Every screen, with the keys that put stream text on new surfaces: ``/`` with
    hostile text, ``c`` (toast, clipboard), ``K``/``F`` (the table's title), ``\\``
    with hostile text, ``o`` (the editor), ``x`` with a hostile path, a line of the event
    log, a call's details and ``r`` (raw JSON, nested 900 deep) last, as on today's
    code it may not come back.

    Args:
        hostile: The text pasted into the filter and the search.
        path: The path typed for the export.
    """

    def copy_target(viewer: Viewer) -> None:
        viewer.go("table")
        viewer.press("c")
        viewer.click_live_markup()

    def filter_by_kind(viewer: Viewer) -> None:
        viewer.go("table")
        for key in ("K", "K", "F"):
            viewer.press(key)
            viewer.click_live_markup()
        viewer.press("escape")

    def filter_by_text(viewer: Viewer) -> None:
        viewer.go("table")
        viewer.press("\\")
        viewer.paste(hostile, "a hostile filter")
        viewer.press("enter")
        viewer.click_live_markup()
        viewer.press("\\")
        viewer.press("ctrl+u")
        viewer.press("enter")

    def search(viewer: Viewer) -> None:
        viewer.go("main")
        viewer.press("/")
        viewer.paste(hostile, "a hostile search")
        viewer.press("enter")
        viewer.click_live_markup()

    def hand_over(viewer: Viewer) -> None:
        viewer.go("table")
        viewer.press("o")

    def export(viewer: Viewer) -> None:
        viewer.go("export")
        viewer.press("ctrl+u")
        viewer.paste(str(path), "an export path")
        viewer.press("enter")
        viewer.click_live_markup()

    def log_line(viewer: Viewer) -> None:
        viewer.go("logline")
        viewer.press("c")

    def raw_json(viewer: Viewer) -> None:
        viewer.go("details")
        viewer.press("c")
        viewer.press("r")

    # The search first: the main screen is where the viewer starts, and the table's
    # four steps then follow one another with one way there (each way from the main
    # screen to the table is a click, a key and two frames more to draw and read).
    return [
        ("/ with hostile text", search),
        ("c on a call", copy_target),
        ("K K F on the table", filter_by_kind),
        ("\\ with hostile text", filter_by_text),
        ("o on a call", hand_over),
        ("x with a hostile path", export),
        ("c on a line of the event log", log_line),
        ("c and r in a call's details", raw_json),
    ]


def run_steps(viewer: Viewer, steps: list[Step], found: list[str], restarts: int = 4) -> None:
    """Do ``steps`` in order; a step that fails is said in ``found``, and a viewer that
    ended is started again (at most ``restarts`` times), so one crash hides no other."""
    viewer.loaded()
    for name, step in steps:
        try:
            step(viewer)
        except AssertionError as error:
            found.append(f"{name}: {error}")
            if viewer.term.alive():
                continue
            if not restarts:
                found.append("too many crashes: the rest was not tried")
                return
            restarts -= 1
            try:
                viewer.restart()
            except AssertionError as again:
                found.append(f"started again after {name!r}: {again}")
                return


def start_run_status(viewer: Viewer) -> subprocess.Popen[bytes]:
    """``--json`` on the viewer's input, started now: it reads the stream while the
    walk waits on the viewer's frames (run after the walk, it added its whole time to
    a test already the longest of the suite); :func:`run_status` reads its answer."""
    return subprocess.Popen(
        [*viewer.argv, "--json"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=viewer.env,
        cwd=viewer.cwd,
    )


def run_status(viewer: Viewer, started: subprocess.Popen[bytes] | None = None) -> int:
    """The exit status the README documents for the viewer's input (``q`` hands on the
    run's own: 0 success, 1 failed or no result), as ``--json`` reports it (from
    ``started``, a :func:`start_run_status` of it, if given)."""
    process = started if started is not None else start_run_status(viewer)
    try:
        _, error = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode in (0, 1), error.decode(errors="replace")[-500:]
    return process.returncode


def verdict(
    viewer: Viewer,
    agent: str,
    victims: Path,
    baseline: bytes,
    started: subprocess.Popen[bytes] | None = None,
) -> list[str]:
    """Quit, then everything wrong with what the viewer did (empty: nothing);
    ``started``: the :func:`start_run_status` of its input, if one runs already."""
    status = viewer.quit()
    output = viewer.output
    found = problems(
        output,
        viewer.keys,
        [marker(agent).encode(), osc52_marker(agent), b"evil.example"],
        baseline,
    )
    if status is None:
        last = [label for _, label in viewer.keys.entries[-4:]]
        found.append(
            f"the viewer did not exit after q (last keys: {last!r}); screen:\n{viewer.term.text()}"
        )
    else:
        documented = run_status(viewer, started)
        if status != documented:
            found.append(f"exit status {status} after q, not the run's own {documented}")
    if (victims / VICTIM).read_text() != "the victim's own text\n":
        found.append(f"{victims / VICTIM} was overwritten: a click ran the stream's action")
    for argv in viewer.editor_runs():
        if len(argv) != 1 or not argv[0].startswith("/"):
            found.append(f"the editor got {argv!r}, not one absolute path")
    return found


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """What the viewer writes for the benign fixture, driven as the hostile ones are."""
    folder = tmp_path_factory.mktemp("baseline")
    victim_folder(folder)
    stream = folder / f"{BASELINE_AGENT}-benign.jsonl"
    stream.write_bytes(benign_agent_stream(BASELINE_AGENT))
    viewer = Viewer(folder, ["--agent", BASELINE_AGENT, str(stream)])
    try:
        found: list[str] = []
        run_steps(viewer, route("benign words", folder / "export.md"), found)
        assert found == []
        assert viewer.quit() == 0
        return viewer.output
    finally:
        viewer.close()


def test_the_baseline_is_clean(baseline: bytes) -> None:
    """The benign run wrote no marker, and each copy it made is plain text."""
    assert marker(BASELINE_AGENT).encode() not in baseline
    assert b"Traceback" not in baseline
    assert all("\x1b" not in text for text in copied_texts(baseline))


HEADLESS = tuple(agent for agent in AGENTS if agent not in SESSION_FILES)
"""The headless streams. The viewer never asks which agent a run came from: the session
files' dialects are checked through ``--print`` and ``--events``, where their parsing
is what differs (``tests/hostile/test_every_dialect_inert.py``), at a tenth of the cost."""


HALVES = {"search-and-table": slice(0, 4), "screens": slice(4, None)}
"""The route in two walks of one viewer each: the whole route took 7.5 s at load 1 and
16.5 s beside CPU hogs, over the suite's ~15 s for one test (issue 30.7). The first
half is the search and the table's four steps, the second the other screens."""


@pytest.mark.parametrize("half", HALVES)
@pytest.mark.parametrize("agent", HEADLESS)
def test_a_hostile_stream_reaches_the_terminal_inert(
    agent: str, half: str, tmp_path: Path, baseline: bytes
) -> None:
    """Each agent's fixture with escapes and markup in every string, arguments nested
    900 deep and a 10 MB line: through every screen, nothing live reaches the terminal."""
    victims = victim_folder(tmp_path)
    stream = tmp_path / f"{agent}-hostile.jsonl"
    stream.write_bytes(hostile_agent_stream(agent, victims))
    viewer = Viewer(tmp_path, ["--agent", agent, str(stream)])
    started = start_run_status(viewer)
    try:
        found: list[str] = []
        hostile = pasted(payload(agent, victims))
        steps = route(hostile, export_path(tmp_path, agent, victims))[HALVES[half]]
        run_steps(viewer, steps, found)
        found += verdict(viewer, agent, victims, baseline, started)
    finally:
        viewer.close()
        if started.poll() is None:
            started.kill()
            started.wait()
    assert not found, f"{agent}: {len(found)} problems\n" + "\n".join(found)


WALK = 8
"""Keys walked by one viewer at most: a key that changes nothing costs its 0.3 s wait,
and the help's longest section (22 keys) took 8.5 s at load 1, twice that beside CPU
hogs (issue 30.7)."""


def help_walks() -> list[tuple[str, list[str]]]:
    """Each help section's keys, in walks of at most :data:`WALK` (a title each)."""
    walks = []
    for title, keys in help_keys():
        count = -(-len(keys) // WALK)
        size = -(-len(keys) // count)
        for part in range(count):
            walks.append((title, keys[part * size : (part + 1) * size]))
    return walks


SECTIONS = help_walks()


def test_the_walks_press_every_key_of_the_help() -> None:
    walked: dict[str, list[str]] = {}
    for title, keys in SECTIONS:
        assert 0 < len(keys) <= WALK
        walked.setdefault(title, []).extend(keys)
    assert walked == dict(help_keys())


@pytest.mark.parametrize(
    "section",
    SECTIONS,
    ids=[f"{title} {', '.join(keys[:1])}..{keys[-1]}" for title, keys in SECTIONS],
)
def test_every_key_of_the_help_on_a_hostile_stream(
    section: tuple[str, list[str]], tmp_path: Path, baseline: bytes
) -> None:
    """Every key one section of the help lists (a walk of them), pressed where it
    works (back there after each key that leaves), on Claude Code's hostile stream;
    ``q`` last."""
    title, keys = section
    assert title in SCREEN_OF_SECTION, f"a help section this test cannot reach: {title!r}"
    screen = SCREEN_OF_SECTION[title]
    agent = BASELINE_AGENT
    victims = victim_folder(tmp_path)
    stream = tmp_path / f"{agent}-hostile.jsonl"
    stream.write_bytes(hostile_agent_stream(agent, victims))
    viewer = Viewer(tmp_path, ["--agent", agent, str(stream)])
    hostile = pasted(payload(agent, victims))
    path = export_path(tmp_path, agent, victims)

    def press(key: str) -> Callable[[Viewer], None]:
        def step(viewer: Viewer) -> None:
            viewer.go(screen)
            after = viewer.press(key, screen)
            viewer.click_live_markup()
            if after == "export":  # x: a hostile path
                viewer.press("ctrl+u")
                viewer.paste(str(path), "a hostile export path")
                viewer.press("enter")
            elif key in ("/", "\\") and after in ("main", "table"):  # a hostile query
                viewer.paste(hostile, f"hostile text after {key}")
                viewer.press("enter")
            viewer.click_live_markup()

        return step

    def quit_here(viewer: Viewer) -> None:
        viewer.go(screen)
        viewer.press("q", screen)

    steps = [(f"{key!r} on {screen}", press(key)) for key in keys if key != "q"]
    if "q" in keys:
        steps.append((f"'q' on {screen}", quit_here))
    started = start_run_status(viewer)
    try:
        found: list[str] = []
        run_steps(viewer, steps, found)
        found += verdict(viewer, agent, victims, baseline, started)
    finally:
        viewer.close()
        if started.poll() is None:
            started.kill()
            started.wait()
    assert not found, f"{title}: {len(found)} problems\n" + "\n".join(found)


def read_call(call_id: str, path: Path) -> list[bytes]:
    """A Cursor read of ``path``, started and completed, as NDJSON lines."""
    args = {"path": str(path)}
    result = {"success": {"content": "x = 1\n", "totalLines": 1}}
    return [
        orjson.dumps({"type": "tool_call", "subtype": subtype, "call_id": call_id, **body})
        for subtype, body in (
            ("started", {"tool_call": {"readToolCall": {"args": args}}}),
            ("completed", {"tool_call": {"readToolCall": {"args": args, "result": result}}}),
        )
    ]


def test_o_hands_a_file_named_with_markup_over_as_one_absolute_argument(
    tmp_path: Path, baseline: bytes
) -> None:
    """``o`` on a read of a file whose folders hold ``[/x]`` and ``@click`` markup runs
    the editor with that one absolute path; on a missing file named so, it says so and
    runs nothing. Neither crashes the viewer or makes the markup live."""
    victims = victim_folder(tmp_path)
    here = tmp_path / "src [" / "x] [@click=app.quit]QUITCLICK[" / "] code.py"
    here.parent.mkdir(parents=True)
    here.write_text("x = 1\n")
    gone = (
        tmp_path / "gone [" / f"x] [@click=app.screenshot('{VICTIM}','{victims}')]SHOTCLICK[/].py"
    )
    init = {"type": "system", "subtype": "init", "session_id": "s", "cwd": str(tmp_path)}
    result = {"type": "result", "subtype": "success", "duration_ms": 5, "result": "done"}
    stream = tmp_path / "markup-paths.ndjson"
    lines = [orjson.dumps(init), *read_call("c1", here), *read_call("c2", gone)]
    stream.write_bytes(b"\n".join([*lines, orjson.dumps(result)]) + b"\n")
    viewer = Viewer(tmp_path, ["--agent", "cursor", str(stream)])

    def open_here(viewer: Viewer) -> None:
        viewer.go("table")
        viewer.press("o")
        viewer.term.wait_for(lambda _: viewer.editor_runs() != [], 10, "a run of the editor")
        viewer.click_live_markup("QUITCLICK")

    def open_gone(viewer: Viewer) -> None:
        viewer.go("table")
        viewer.press("down")
        viewer.press("o")
        # "... is not on this machine (--cwd-map ...)": the toast wraps its words where
        # the long path ends, so one word of it is looked for, found nowhere else.
        viewer.term.wait_for(lambda s: "machine" in s, 10, "why nothing opened")
        viewer.click_live_markup()

    try:
        found: list[str] = []
        run_steps(
            viewer, [("o on the file", open_here), ("o on the missing one", open_gone)], found
        )
        found += verdict(viewer, "cursor", victims, baseline)
        runs = viewer.editor_runs()
    finally:
        viewer.close()
    if runs != [[str(here)]]:
        found.append(f"the editor ran {runs!r}, not once with {str(here)!r}")
    assert not found, f"{len(found)} problems\n" + "\n".join(found)
