"""The main screen's footer: rebuilt only when the keys it shows change, and showing
only the keys that fit whole."""

from __future__ import annotations

from streamview.sources.base import FileSource
from streamview.ui.frame.app import StreamviewApp
from streamview.ui.frame.keys_footer import KeysFooter
from streamview.ui.playback.feed import PlaybackFeed

from ..conftest import RECORDINGS, FakeClock, ScriptedSource, lines_of, wait_for

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


async def test_a_key_that_does_not_fit_whole_is_left_out() -> None:
    """A file played back: at 100 columns the footer shows the keys up to ``, Back``
    whole and leaves out ``S Summary`` (Textual's footer cut it to ``S Summar`` once
    the summary hid ``/``). Narrower, quit, help and play/pause are kept (at 80
    columns the footer stopped after ``l Log``: a replay showed no way to pause it)
    and the others fill what is left in order; widened to 200 columns, every key is
    back."""
    source = FileSource(RECORDINGS / "success-multi-tool.ndjson")
    app = StreamviewApp(source, feed=PlaybackFeed(source, playing=False))
    async with app.run_test(size=(100, 30)) as pilot:
        footer = app.query_one(KeysFooter)

        def shown() -> list[str]:
            return [key.description for key in footer.query("FooterKey") if key.display]

        await wait_for(pilot, lambda: "Play/Pause" in shown())
        assert shown()[-3:] == ["Step", "Back", "palette"]
        app.action_run_summary()
        await wait_for(pilot, lambda: "Search" not in shown())
        await pilot.pause()
        assert shown()[-3:] == ["Step", "Back", "palette"]  # S Summary would be cut
        app.screen.dismiss()
        expected = {
            80: ["Quit", "Help", "Search", "Thinking", "Follow", "Play/Pause", "palette"],
            60: ["Quit", "Help", "Search", "Play/Pause", "palette"],
            200: [
                *("Quit", "Help", "Search", "Thinking", "Follow", "Log", "Play/Pause"),
                *("Step", "Back", "Summary", "palette"),
            ],
        }
        for width, keys in expected.items():
            await pilot.resize_terminal(width, 30)
            await wait_for(pilot, lambda keys=keys: shown() == keys)
            palette = next(k for k in footer.query("FooterKey") if k.has_class("-command-palette"))
            for key in footer.query("FooterKey"):
                if key.display and key is not palette:
                    assert key.region.right - 1 <= palette.region.x, (width, key.description)
