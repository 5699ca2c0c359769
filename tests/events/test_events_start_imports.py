"""``streamview --events FILE`` imports only what it uses (issue 30.8: start-up counts in
every dialect's ratio to the bare orjson loop, and ``--events`` of Claude Code's bench
file is ~0.28 s in all)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.cli.test_json_start_imports import GEMINI_RUN, bare_env

NOT_NEEDED = (
    "signal",  # its enums (~0.8 ms): the handlers are installed with _signal
    "queue",  # run's hand-over of a signal to a thread of its own
    "selectors",  # a pipe's reader
    "textual",
    "argparse",  # --events FILE is read without it (streamview.cli.plain_args)
    "streamview.cli.parsers",
    "streamview.config.settings",  # no settings file: only its path is looked up
)


def test_events_of_a_file_imports_nothing_it_does_not_use(tmp_path: Path) -> None:
    stream = tmp_path / "gemini.ndjson"
    stream.write_bytes(GEMINI_RUN)
    code = (
        "import sys\n"
        "from streamview.cli import main\n"
        f"status = main(['--events', {str(stream)!r}])\n"
        f"loaded = [m for m in {NOT_NEEDED!r} if m in sys.modules]\n"
        # read_events' Source, a union of typing's generics (~0.4 ms), made only if asked
        "made = 'Source' in vars(sys.modules['streamview.fronts.events_api'])\n"
        "print(status, loaded, made, file=sys.stderr)\n"
    )
    env = bare_env(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert b'"type":"text.delta"' in done.stdout.encode()
    assert done.stderr.splitlines()[-1] == "0 [] False"


def test_read_events_source_type_is_there_when_asked() -> None:
    """``Source``, made when first asked, is the type read_events' annotation names."""
    import typing

    import streamview.fronts.events_api as api

    source = api.Source
    assert source is api.Source
    arguments = typing.get_args(source)
    assert str in arguments and bytes in arguments and typing.IO[bytes] in arguments
    assert [t.__name__ for t in arguments if getattr(t, "_is_protocol", False)] == ["_Readable"]
    try:
        api.Sources  # type: ignore[attr-defined]  # noqa: B018
    except AttributeError as error:
        assert "Sources" in str(error)
    else:
        raise AssertionError("an unknown name must raise AttributeError")


def test_a_signal_still_ends_events_with_its_status(tmp_path: Path) -> None:
    """The handlers installed without ``signal``'s enums still stop ``--events`` and
    give 128 + the signal, ``stream.end`` written."""
    code = (
        "import os, signal, sys, threading\n"
        "from streamview.cli import main\n"
        "r, w = os.pipe()\n"
        'os.write(w, b\'{"type":"system","subtype":"init","session_id":"s"}\\n\')\n'
        "os.dup2(r, 0)\n"
        "threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()\n"
        "status = main(['--events'])\n"
        "print(status, file=sys.stderr)\n"
    )
    env = bare_env(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=30
    )
    assert done.stderr.splitlines()[-1] == "143"
    assert done.stdout.splitlines()[-1].startswith('{"type":"stream.end"')
    assert '"exit_code":143' in done.stdout.splitlines()[-1]
