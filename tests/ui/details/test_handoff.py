"""Which command hands a call to the user's editor or pager."""

from __future__ import annotations

from streamview.core import tools
from streamview.core.state import ToolCall
from streamview.ui.details.handoff import editor_command, file_of, pager_command


def test_each_editor_family_gets_the_line_its_way() -> None:
    assert editor_command("/w/a.py", 12, {"EDITOR": "vim"}) == ["vim", "+12", "/w/a.py"]
    assert editor_command("/w/a.py", 12, {"VISUAL": "code --wait", "EDITOR": "vi"}) == [
        "code",
        "--wait",
        "--goto",
        "/w/a.py:12",
    ]
    assert editor_command("/w/a.py", None, {"EDITOR": "nano"}) == ["nano", "/w/a.py"]
    assert editor_command("/w/a.py", 3, {"EDITOR": "/opt/bin/myedit"}) == [
        "/opt/bin/myedit",
        "/w/a.py",
    ]
    assert editor_command("/w/a.py", None, {}) == ["vi", "/w/a.py"]


def test_the_pager_defaults_to_less_keeping_colour() -> None:
    assert pager_command({}) == ["less", "-R"]
    assert pager_command({"PAGER": "bat --plain"}) == ["bat", "--plain"]


def test_the_file_a_call_touched_and_its_line() -> None:
    read = ToolCall(0, "r", "read", args={"path": "src/a.py", "offset": 40}, target="src/a.py")
    assert file_of(read, "/work") == ("/work/src/a.py", 40)
    edit = ToolCall(1, "e", "edit", args={"path": "/abs/b.py"}, target="/abs/b.py")
    assert file_of(edit, "/work") == ("/abs/b.py", None)
    shell = ToolCall(2, "s", "shell", args={"command": "ls"}, target="ls", status=tools.SUCCEEDED)
    assert file_of(shell, "/work") is None
