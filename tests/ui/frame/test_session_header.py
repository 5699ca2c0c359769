"""The session header: fields, cutting to the width, the i/n tag."""

from __future__ import annotations

from textual.app import App, ComposeResult

from streamview.core.state import Session
from streamview.ui.frame.session_header import PROMPT_MARK, SessionHeader, shorten_middle


class HeaderApp(App[None]):
    """Just the header."""

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")


def make_session(**fields: object) -> Session:
    """A session from ``init`` fields."""
    session = Session(index=0, session_id="28ada7b4-f779-4c22-ae9f-1396dc582cd4")
    session.model = "GPT-5 Mini"
    session.cwd = "/home/dev/src/a/very/long/path/to/the/project/tidepool"
    session.permission_mode = "default"
    session.api_key_source = "login"
    session.prompt = "Fix the flaky test\nand explain why it failed"
    for name, value in fields.items():
        setattr(session, name, value)
    return session


async def render_lines(session: Session | None, width: int, position=(1, 1)) -> list[str]:  # type: ignore[no-untyped-def]
    app = HeaderApp()
    async with app.run_test(size=(width, 4)) as pilot:
        header = app.query_one(SessionHeader)
        header.show(session, position)
        await pilot.pause()
        return [header.render_line(y).text.strip() for y in range(2)]


async def test_everything_fits_on_a_wide_terminal() -> None:
    first, second = await render_lines(make_session(), 160)
    assert first == (
        "GPT-5 Mini  cwd /home/dev/src/a/very/long/path/to/the/project/tidepool"
        "  mode default  key login  session 28ada7b4"
    )
    assert second == PROMPT_MARK + "Fix the flaky test↵and explain why it failed"


async def test_narrow_terminal_shortens_the_cwd_in_the_middle_and_keeps_the_rest() -> None:
    first, second = await render_lines(make_session(), 80, position=(2, 3))
    assert len(first) == 79  # the whole width, but the space after the tag
    assert first.startswith("GPT-5 Mini  cwd /home…")
    assert "…" in first and "tidepool" in first
    assert first.endswith("session 28ada7b4 2/3")
    assert second == PROMPT_MARK + "Fix the flaky test↵and explain why it failed"


async def test_missing_fields_and_hostile_text() -> None:
    session = make_session(model=None, cwd=None, prompt=None, permission_mode="\x1b[2Jx")
    first, second = await render_lines(session, 100)
    assert first.startswith("unknown model  mode ␛[2Jx  key login")
    assert second == PROMPT_MARK + "(no prompt yet)"
    assert (await render_lines(None, 100))[0] == "waiting for the session to start…"


def test_shorten_middle_keeps_both_ends() -> None:
    assert shorten_middle("/a/b/c/d/e/f/g/h", 10) == "/a/…/f/g/h"
    assert shorten_middle("short", 10) == "short"
