"""The main screen's footer: rebuilt only when the keys it shows change."""

from __future__ import annotations

from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.keys_footer import KeysFooter

from ..conftest import FakeClock, ScriptedSource, lines_of, wait_for

PROBE_43 = "hcn_2026.09.15_probe-43_partial-output-tool-turn.ndjson"
THINKING = "hcn_2026.09.10_probe-11_partial-output-with-thinking-composer.ndjson"


async def test_the_footer_is_rebuilt_only_when_its_keys_change() -> None:
    """Asking again with the same keys keeps the footer's widgets; a second session
    brings the session keys, in a new footer."""
    first = lines_of(PROBE_43)
    source = ScriptedSource(first)
    app = StreamviewApp(source, clock=FakeClock())
    async with app.run_test(size=(160, 30)) as pilot:
        await wait_for(pilot, lambda: app.state.counts.total == len(first))
        footer = app.query_one(KeysFooter)
        before = list(footer.query("FooterKey"))
        assert before
        assert not any(key.action == "previous_session" for key in before)
        app.refresh_bindings()
        await pilot.pause()
        await pilot.pause()
        assert list(footer.query("FooterKey")) == before  # the same widgets: not rebuilt
        source.push(b"".join(lines_of(THINKING)[:3]))
        await wait_for(pilot, lambda: app.session_index == 1)
        await pilot.pause()
        after = list(footer.query("FooterKey"))
        assert any(key.action == "previous_session" for key in after)
        assert {key.action for key in before} < {key.action for key in after}
