"""``streamview sessions`` on a pipe and with ``--json``: one run a line, newest activity
first, filtered by agent, project and text."""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson
import pytest

from streamview.cli import main, sessions
from streamview.runs.session_discovery import RunEntry


def run_json(capsys: pytest.CaptureFixture[str], *options: str) -> list[dict[str, object]]:
    assert main(["sessions", "--json", *options]) == 0
    return [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_json_newest_activity_first(
    home: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every run, one object a line, by last activity; the recording and the --dir job
    among the sessions, with the fields a script reads."""
    runs = run_json(capsys, "--dir", str(tmp_path / "jobs"))
    order = ("recording", "opencode", "cursor", "gemini", "codex", "claude", "job", "opencode-db")
    assert [run["path"] for run in runs] == [str(home[name]) for name in order]
    first = runs[0]
    assert (first["agent"], first["source"], first["calls"]) == ("Claude Code", "recording", 8)
    assert runs[-2]["source"] == "folder"
    # The Claude session's calls are counted by the claude-session dialect (it holds none).
    assert runs[-3]["title"] == "Fix the cart total" and runs[-3]["calls"] == 0
    assert (runs[-1]["agent"], runs[-1]["title"]) == ("opencode", None)
    assert set(first) >= {"project", "started", "last_activity", "size", "live", "tokens"}


def test_filters(home: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--agent takes a part of the agent's name, --project of its directory, --grep of
    its title, project or path; together they all apply."""
    jobs = ("--dir", str(tmp_path / "jobs"))
    assert [run["path"] for run in run_json(capsys, *jobs, "--agent", "claude")] == [
        str(home["recording"]),
        str(home["claude"]),
    ]
    for notes in ("~/NOTES", str(tmp_path / "home" / "notes")):  # as typed, or as the shell made it
        assert [run["path"] for run in run_json(capsys, "--project", notes)] == [
            str(home["opencode"])
        ]
    assert [run["path"] for run in run_json(capsys, "--grep", "health")] == [str(home["codex"])]
    assert run_json(capsys, "--agent", "codex", "--grep", "cart") == []


def test_pipe_lines_and_a_missing_dir(
    home: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a pipe, one tab-separated line a run, unknown values a dash; a --dir that is
    not there is one line on stderr and status 2."""
    assert main(["sessions", "--agent", "gemini"]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    fields = line.split("\t")
    assert fields[1:4] == ["Gemini CLI", "-", "-"]
    assert fields[-2:] == ["explain the build", str(home["gemini"])]
    assert main(["sessions", "--dir", str(tmp_path / "nowhere")]) == 2
    assert capsys.readouterr().err.strip().endswith("not a folder")


def test_a_database_is_listed_but_not_opened(home: dict[str, Path]) -> None:
    """opencode's database is a run of the list, but the viewer is not started on it:
    the list comes back saying why."""
    (entry,) = [e for e in discover_all() if e.path == home["opencode-db"]]
    code, note = sessions.open_entry(entry, None, lambda: None)
    assert code == 2
    assert note is not None and "opencode.db" in note


def discover_all() -> list[RunEntry]:
    from streamview.runs.session_discovery import discover

    return discover()


def test_enter_opens_a_live_run_followed(
    home: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live run opens as ``streamview FILE --follow``, a finished one as
    ``streamview FILE``, each in the viewer whose Escape goes back to the list."""
    from dataclasses import replace

    from streamview.cli import view as view_module
    from streamview.ui.sessions.viewer import ListedViewerApp

    opened: list[tuple[argparse.Namespace, object]] = []

    def fake_view(source: object, args: argparse.Namespace, app_class: object = None) -> int:
        opened.append((args, app_class))
        return 0

    monkeypatch.setattr(view_module, "view", fake_view)
    (codex,) = [e for e in discover_all() if e.path == home["codex"]]
    for entry in (replace(codex, live=True), replace(codex, live=False)):
        assert sessions.open_entry(entry, None, lambda: None) == (0, None)
    assert [(args.input, args.follow) for args, _ in opened] == [
        (str(home["codex"]), True),
        (str(home["codex"]), False),
    ]
    assert all(getattr(app, "func", None) is ListedViewerApp for _, app in opened)


def test_the_places_a_list_that_finds_nothing_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Each agent's folder where its settings put it, the recordings and each --dir,
    the home written ~ (the list shows them when it finds no run)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CODEX_HOME", "/elsewhere/codex")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    places = sessions.looked_in(argparse.Namespace(dir=[str(tmp_path / "jobs")]))
    assert places[0] == "~/.claude/projects (Claude Code)"
    assert "/elsewhere/codex/sessions (Codex)" in places
    assert places[-2] == "~/state/streamview/runs (what streamview run records)"
    assert places[-1] == "~/jobs (--dir)"
