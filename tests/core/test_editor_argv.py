"""The editor's command: a path from a stream is always an absolute file name after
the end of options, never an option or an editor command; and a recorded path is
looked up on this machine (cwd map, as recorded, under the current directory)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from streamview.core.diff_paths import first_changed_line, relative_headers
from streamview.core.editor_argv import (
    FAMILIES,
    GOTO,
    PATH_MAX,
    SUFFIX,
    UnsafePath,
    editor_argv,
    editor_words,
    family_of,
    safe_path,
)
from streamview.core.local_paths import locate, parse_cwd_map

HOSTILE = [
    "+:!touch /tmp/pwned",
    "+!touch pwned",
    "-c:!touch pwned",
    "--cmd=!touch pwned",
    "--remote-send=:!touch pwned<CR>",
    "-",
    "--",
    "$(touch pwned)",
    "`touch pwned`",
    "a; touch pwned",
    "../../../../etc/passwd",
]
"""Relative paths a stream may hold that an editor would read as something else."""


def test_each_family_gets_the_line_and_the_end_of_options_its_way() -> None:
    assert editor_argv(["vim"], "/w/a.py", 12) == ["vim", "+12", "--", "/w/a.py"]
    assert editor_argv(["/usr/bin/nvim"], "/w/a.py", None) == ["/usr/bin/nvim", "--", "/w/a.py"]
    assert editor_argv(["nano"], "/w/a.py", 3) == ["nano", "+3", "--", "/w/a.py"]
    assert editor_argv(["emacsclient", "-t"], "/w/a.py", 3) == [
        "emacsclient",
        "-t",
        "+3",
        "--",
        "/w/a.py",
    ]
    assert editor_argv(["kak"], "/w/a.py", 3) == ["kak", "+3", "--", "/w/a.py"]
    # micro reads flags with Go's flag package: a "--" after "+3" would be a file.
    assert editor_argv(["micro"], "/w/a.py", 3) == ["micro", "--", "+3", "/w/a.py"]
    assert editor_argv(["hx"], "/w/a.py", 3) == ["hx", "/w/a.py:3"]
    assert editor_argv(["code", "--wait"], "/w/a.py", 12) == [
        "code",
        "--wait",
        "--goto",
        "--",
        "/w/a.py:12",
    ]
    assert editor_argv(["/opt/bin/myedit"], "/w/a.py", 3) == ["/opt/bin/myedit", "/w/a.py"]


def test_the_editor_comes_from_visual_then_editor_then_vi() -> None:
    assert editor_words({"VISUAL": "code --wait", "EDITOR": "vi"}) == ["code", "--wait"]
    assert editor_words({"EDITOR": "'/opt/my editor/ed' -x"}) == ["/opt/my editor/ed", "-x"]
    assert editor_words({"EDITOR": "  "}) == ["vi"]
    assert editor_words({}) == ["vi"]


@pytest.mark.parametrize("path", HOSTILE)
def test_a_relative_path_is_never_handed_over(path: str) -> None:
    with pytest.raises(UnsafePath, match="not absolute"):
        editor_argv(["vim"], path, None)


@pytest.mark.parametrize("path", HOSTILE)
@pytest.mark.parametrize("editor", sorted(FAMILIES))
def test_a_hostile_name_made_absolute_is_one_file_after_the_options(editor: str, path: str) -> None:
    absolute = os.path.normpath("/work/" + path)
    argv = editor_argv([editor], "/work/" + path, 7)
    family = family_of(editor)
    last = argv[-1]
    name = last.rsplit(":", 1)[0] if family.line in (GOTO, SUFFIX) else last
    assert name == absolute and name.startswith("/")
    if family.ends_options:
        assert argv.index("--") < len(argv) - 1
        assert "--" not in argv[argv.index("--") + 1 : -1] or family.line_after_end
    assert [word for word in argv[1:] if word.startswith("+")] in ([], ["+7"])


@pytest.mark.parametrize(
    "path",
    [
        "/work/a\nb.py",
        "/work/a\rb.py",
        "/work/\x1b]52;c;aGk=\x07.py",
        "/work/a\x00b",
        "/work/a\u2028b",
        "/work/\u202eyp.exe",
        "/work/\x85x",
        "/work/\ud800",
    ],
)
def test_control_characters_and_unencodable_paths_are_refused(path: str) -> None:
    with pytest.raises(UnsafePath):
        safe_path(path)


def test_a_path_longer_than_the_system_allows_is_refused() -> None:
    with pytest.raises(UnsafePath, match="too long"):
        safe_path("/w/" + "x" * 300)
    with pytest.raises(UnsafePath, match="too long"):
        safe_path("/w" + "/abc" * (PATH_MAX // 4))
    assert safe_path("/w/" + "x" * 255) == "/w/" + "x" * 255


def test_paths_are_normalised() -> None:
    assert safe_path("//w/./a/../b.py") == "/w/b.py"
    assert safe_path("/w/$(touch x)") == "/w/$(touch x)"  # no shell: a name like any other


def test_lines_that_are_not_line_numbers_are_dropped() -> None:
    assert editor_argv(["vim"], "/a", 0) == ["vim", "--", "/a"]
    assert editor_argv(["vim"], "/a", -3) == ["vim", "--", "/a"]
    assert editor_argv(["vim"], "/a", True) == ["vim", "--", "/a"]
    assert editor_argv(["vim"], "/a", 10**12) == ["vim", "--", "/a"]


def test_the_cwd_map_wins_then_the_recorded_path_then_the_current_checkout(
    tmp_path: Path,
) -> None:
    checkout = tmp_path / "tidepool"
    (checkout / "src").mkdir(parents=True)
    (checkout / "src" / "app.py").write_text("x\n")
    recorded = "/home/dev/src/tidepool"
    # Not here, no map, another current directory: not found.
    missing = locate("/home/dev/src/tidepool/src/app.py", recorded, (), str(tmp_path))
    assert missing.path is None and missing.recorded == "/home/dev/src/tidepool/src/app.py"
    # The guess: the part below the recorded cwd exists under the current directory.
    guessed = locate("src/app.py", recorded, (), str(checkout))
    assert (guessed.path, guessed.how) == (str(checkout / "src" / "app.py"), "guessed")
    # A map names the checkout (the longest OLD wins).
    pairs = [("/home/dev", "/nowhere"), ("/home/dev/src/tidepool", str(checkout))]
    mapped = locate("/home/dev/src/tidepool/src/app.py", recorded, pairs, str(tmp_path))
    assert (mapped.path, mapped.how) == (str(checkout / "src" / "app.py"), "mapped")
    # A map to where the file is not: says where it looked.
    wrong = locate("/home/dev/x.py", None, pairs, str(tmp_path))
    assert wrong.path is None and wrong.tried == "/nowhere/x.py"
    # A directory is found, and said to be one.
    listed = locate(str(checkout / "src"), None, (), str(tmp_path))
    assert listed.is_dir and listed.path == str(checkout / "src")
    # A relative path with no recorded cwd is taken from the current directory.
    here = locate("src/app.py", None, (), str(checkout))
    assert (here.path, here.how) == (str(checkout / "src" / "app.py"), "")


def test_cwd_map_pairs_are_absolute_directories() -> None:
    assert parse_cwd_map("/home/dev/src/=/work//src") == ("/home/dev/src", "/work/src")
    for bad in ("/a", "=/b", "/a=", "a=/b", "/a=b"):
        with pytest.raises(ValueError):
            parse_cwd_map(bad)


def test_diff_headers_are_made_relative_to_the_session() -> None:
    cursor = "--- a//w/p/src/x.py\n+++ b//w/p/src/x.py\n@@ -1,2 +1,2 @@\n-a\n+b\n c"
    assert relative_headers(cursor, "/w/p").split("\n")[:2] == [
        "--- a/src/x.py",
        "+++ b/src/x.py",
    ]
    claude = "--- a/w/p/x.py\n+++ b/w/p/x.py\n@@ -1 +1 @@\n-a\n+b"
    assert relative_headers(claude, "/w/p/").startswith("--- a/x.py\n+++ b/x.py\n")
    # Outside the cwd the path stays absolute, without the doubled slash.
    assert relative_headers("--- a//etc/x\n+++ b//etc/x", "/w/p") == "--- a/etc/x\n+++ b/etc/x"
    new_file = "--- /dev/null\n+++ b//w/p/n.txt\n@@ -0,0 +1 @@\n+DONE"
    assert relative_headers(new_file, "/w/p").split("\n")[:2] == ["--- /dev/null", "+++ b/n.txt"]
    # A removed line reading "-- a//w/p/x" is part of the hunk, not a header.
    sql = "--- a//w/p/q.sql\n+++ b//w/p/q.sql\n@@ -1,2 +1,1 @@\n--- a//w/p/x\n keep"
    assert relative_headers(sql, "/w/p").split("\n")[3] == "--- a//w/p/x"


def test_a_git_diff_header_is_made_relative_too_and_git_applies_the_patch(
    tmp_path: Path,
) -> None:
    """Copilot's diffs start ``diff --git a/work/app/x.py b/work/app/x.py``: left alone,
    ``git apply`` finds its names disagree with the rewritten ``---``/``+++`` lines."""
    recorded = (
        "diff --git a/w/p/src/x.py b/w/p/src/x.py\n"
        "index 0000000..0000000 100644\n"
        "--- a/w/p/src/x.py\n+++ b/w/p/src/x.py\n@@ -1,2 +1,3 @@\n a\n+b\n c\n"
    )
    made = relative_headers(recorded, "/w/p")
    assert made.split("\n")[0] == "diff --git a/src/x.py b/src/x.py"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "x.py").write_text("a\nc\n")
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for patch, applies in ((made, True), (recorded, False)):
        (tmp_path / "change.patch").write_text(patch)
        checked = subprocess.run(
            ["git", "apply", "--check", "change.patch"], cwd=tmp_path, capture_output=True
        )
        assert (checked.returncode == 0) is applies, checked.stderr


def test_the_first_changed_line_of_an_edit() -> None:
    diff = "--- a/x\n+++ b/x\n@@ -20,7 +20,8 @@\n c\n c\n c\n-old\n+new\n c"
    assert first_changed_line(diff) == 23
    assert first_changed_line("--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x") == 1
    assert first_changed_line("no diff at all") is None
