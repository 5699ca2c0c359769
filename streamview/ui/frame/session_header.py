"""The session header: what ran, where, how, and what it was asked."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.widget import Widget

from streamview.core.dialects import label_of
from streamview.core.sanitize import one_line
from streamview.core.state import Session
from streamview.ui.text.marks import PROMPT_MARK

"""Marks the prompt (a heavy right angle)."""
KEY_SOURCE = {"login": "login", "env": "env key", "flag": "flag key"}


def shorten_middle(text: str, width: int) -> str:
    """Cut ``text`` to ``width`` characters with ``…`` in the middle (keeps a path's end)."""
    if len(text) <= width:
        return text
    keep_end = (width - 1) * 2 // 3
    keep_start = width - 1 - keep_end
    return text[:keep_start] + "…" + text[len(text) - keep_end :]


class SessionHeader(Widget):
    """Two lines from the session's ``init`` and prompt.

    The first line holds model, working directory, permission mode, key source and a
    short session id (and which session of several this is); the second the prompt,
    cut to fit.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "session-header--model",
        "session-header--label",
        "session-header--value",
        "session-header--prompt",
        "session-header--position",
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.session: Session | None = None
        self.position = (0, 0)
        """(1-based index of the session shown, number of sessions)."""
        self.ended = False
        """The input ended (with no session, the header says so instead of waiting)."""

    def show(self, session: Session | None, position: tuple[int, int]) -> None:
        """Show ``session``, the ``position[0]``-th of ``position[1]`` sessions."""
        self.session = session
        self.position = position
        self.refresh()

    def set_ended(self, ended: bool) -> None:
        """Whether the input has ended."""
        if ended != self.ended:
            self.ended = ended
            self.refresh()

    def render(self) -> Text:
        """Both lines, each cut to the width."""
        session = self.session
        width = max(10, self.content_region.width)
        model = self.get_component_rich_style("session-header--model")
        label = self.get_component_rich_style("session-header--label")
        value = self.get_component_rich_style("session-header--value")
        prompt_style = self.get_component_rich_style("session-header--prompt")
        position_style = self.get_component_rich_style("session-header--position")
        if session is None:
            if self.ended:
                return Text("no session: the stream ended before one started", style=label)
            return Text("waiting for the session to start…", style=label)
        index, count = self.position
        tag = f" {index}/{count} " if count > 1 else ""
        fields = [
            ("mode", session.permission_mode),
            ("key", KEY_SOURCE.get(session.api_key_source or "", session.api_key_source)),
            ("session", (session.session_id or "")[:8] or None),
        ]
        first = Text(no_wrap=True, overflow="ellipsis")
        if session.agent is not None:
            first.append(one_line(label_of(session.agent) or session.agent, 30), model)
            first.append("  ")
        if session.model or session.agent is None:  # Codex never names its model
            first.append(one_line(session.model or "unknown model", 40), model)
        else:
            first.rstrip()
        tail = Text(no_wrap=True)
        for name, field in fields:
            if field:
                tail.append("  ")
                tail.append(f"{name} ", label)
                tail.append(one_line(field, 40), value)
        if session.cwd:
            room = width - first.cell_len - tail.cell_len - len(tag) - 6
            if room >= 8:
                first.append("  ")
                first.append("cwd ", label)
                first.append(shorten_middle(one_line(session.cwd, 400), room), value)
        first.append_text(tail)
        room = width - len(tag)
        if first.cell_len > room:
            first.truncate(room, overflow="ellipsis")
        if tag:
            first.pad_right(room - first.cell_len)
            first.append(tag, position_style)
        second = Text(no_wrap=True, overflow="ellipsis")
        second.append(PROMPT_MARK, label)
        prompt = session.prompt
        if prompt is None:
            # Claude Code's stream never echoes the prompt; a finished run will not either.
            missing = "(the stream has no prompt)" if session.finished else "(no prompt yet)"
            second.append(missing, label)
        else:
            second.append(one_line(prompt, 400), prompt_style)
        second.truncate(width, overflow="ellipsis")
        return Text("\n").join([first, second])
