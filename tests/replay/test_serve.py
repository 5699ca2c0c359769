"""--serve: the served command, and the viewer really drawn through textual-serve."""

from __future__ import annotations

import aiohttp
import pytest

from streamview.fronts.serve import serve_command, served, served_arguments
from tests.replay.served import FINAL, OUTCOME, first_screen, serving


def test_served_arguments_drop_the_serve_options() -> None:
    assert served_arguments(["--serve", "--port", "9000", "--replay", "x.ndjson"]) == [
        "--replay",
        "x.ndjson",
    ]
    assert served_arguments(["--port=9000", "--serve", "a b.ndjson"]) == ["a b.ndjson"]
    command = serve_command(["--serve", "a b.ndjson"])
    assert command.endswith("-m streamview 'a b.ndjson'")


def test_served_is_told_by_the_web_driver(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TEXTUAL_DRIVER", raising=False)
    assert not served()
    monkeypatch.setenv("TEXTUAL_DRIVER", "textual.drivers.web_driver:WebDriver")
    assert served()


async def test_the_served_viewer_draws_the_final_state() -> None:
    with serving() as served:
        async with aiohttp.ClientSession() as session:
            socket_ = await session.ws_connect(served.url("/ws") + "&width=120&height=40")
            async with socket_:
                text = await first_screen(socket_, until=OUTCOME)
    assert FINAL in text
