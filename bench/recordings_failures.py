"""The demo recordings where things go wrong: a run that loses its backend (no
``result``, an error on stderr) and a run whose tool calls are denied."""

from __future__ import annotations

import synth  # bench/ is a folder of scripts, not a package
from recordings_calls import GPT, new_run, start_shell, think
from recordings_tidepool import BACKOFF_AFTER, CWD, E, p


def failure_no_result() -> list[bytes]:
    """GPT-5 Mini loses its backend while the test suite runs; no ``result`` line."""
    lines: list[bytes] = []
    run = new_run(33, lines, 1789655021772, model="GPT-5 Mini", call_id_style="openai")
    run.init()
    run.user("Run the full test suite with coverage and tell me which modules are below 80%.")
    run.wait(2480)
    think(
        run,
        "I need to run pytest with coverage over the package, then read the report and list "
        "the modules under 80 percent.",
        GPT,
    )
    m0 = run.model_call()
    run.say("Checking how coverage is configured first.", model_call_id=m0)
    pyproject = (
        '[tool.coverage.run]\nsource = ["tidepool"]\nbranch = true\n\n'
        "[tool.coverage.report]\nshow_missing = true\nskip_covered = true\n"
    )
    run.tool(
        "readToolCall",
        synth.read_args(p("pyproject.toml"), offset=41, limit=8),
        synth.read_success(p("pyproject.toml"), pyproject, start_line=41),
        model_call_id=m0,
        duration_ms=188,
    )
    run.wait(1610)
    m1 = run.model_call()
    run.say("Running the suite with coverage; this takes a little while.", model_call_id=m1)
    start_shell(
        run,
        m1,
        "uv run pytest --cov=tidepool --cov-report=term-missing",
        "Run the test suite with coverage",
        timeout=600000,
    )
    # The backend drops while the command runs; the CLI retries, then gives up.
    run.wait(14230)
    run.reconnect(3, resume=False)
    return lines


FAILURE_STDERR = (
    f"{E}31mError:{E}39m lost connection to the Cursor backend and could not reconnect "
    "after 3 attempts\n"
    f"  {E}2mConnectError: [unavailable] read ECONNRESET "
    f"({synth.DEFAULT_ENDPOINT}){E}22m\n"
)


def denied_tools() -> list[bytes]:
    """Denials: web fetch via interaction_query, shell with empty reason, web search
    completed with no started, a question skipped; ends in ``result/success``."""
    lines: list[bytes] = []
    run = new_run(44, lines, 1789656402907, model="GPT-5 Mini", call_id_style="openai")
    run.init()
    run.user(
        "Does the tenacity library recommend full jitter or equal jitter? Compare with our "
        "Backoff class. Reply with DONE at the end."
    )
    run.wait(1870)
    think(run, "I should fetch the tenacity docs page about wait strategies.", GPT)
    m0 = run.model_call()
    run.say("Fetching the tenacity documentation.", model_call_id=m0)
    url = "https://tenacity.readthedocs.io/en/latest/api.html"
    call_id = run.ids.call_id("openai")
    args = synth.web_fetch_args(url, call_id)
    call = run.start_tool("webFetchToolCall", args, call_id=call_id, model_call_id=m0)
    run.ask(
        "webFetchRequestQuery", {"args": args, "skipApproval": False}, synth.rejected(), delay_ms=1
    )
    run.finish_tool(call, synth.rejected(), duration_ms=241, include_args=False)
    run.wait(1330)
    m1 = run.model_call()
    run.say("Web fetch was blocked; trying curl instead.", model_call_id=m1)
    command = f"curl -sL {url} | grep -i -A3 'wait_random_exponential'"
    call = start_shell(run, m1, command, "Fetch tenacity docs and find the jitter strategy")
    run.finish_tool(call, synth.shell_rejected(command, CWD), duration_ms=1099, include_args=False)
    run.wait(2210)
    think(run, "Both blocked. A web search might still work.", GPT)
    m2 = run.model_call()
    call_id = run.ids.call_id("openai")
    args = synth.web_search_args("tenacity wait_random_exponential full jitter", call_id)
    call = run.start_tool("webSearchToolCall", args, call_id=call_id, model_call_id=m2, emit=False)
    run.ask("webSearchRequestQuery", {"args": args}, synth.rejected())
    run.finish_tool(call, synth.rejected(), duration_ms=59, include_args=False)
    run.wait(1760)
    m3 = run.model_call()
    call_id = run.ids.call_id("openai")
    q_args = synth.ask_question_args(
        "Network access is blocked",
        [
            {
                "id": "source",
                "prompt": "Answer from memory of the tenacity docs, or stop here?",
                "options": [
                    {"id": "memory", "label": "Answer from memory"},
                    {"id": "stop", "label": "Stop"},
                ],
                "allowMultiple": False,
            }
        ],
    )
    run.ask(
        "askQuestionInteractionQuery",
        {"args": q_args, "toolCallId": call_id},
        {"result": synth.rejected(synth.ASK_SKIPPED)},
    )
    run.wait(140)
    call = run.start_tool("askQuestionToolCall", q_args, call_id=call_id, model_call_id=m3)
    run.finish_tool(call, synth.rejected(synth.ASK_SKIPPED), duration_ms=201)
    run.wait(1480)
    m4 = run.model_call()
    run.say("I'll compare with our implementation from the code.", model_call_id=m4)
    run.tool(
        "readToolCall",
        synth.read_args(p("src/tidepool/backoff.py")),
        synth.read_success(p("src/tidepool/backoff.py"), BACKOFF_AFTER),
        model_call_id=m4,
        duration_ms=164,
    )
    run.wait(2050)
    think(run, "Answer from knowledge and the code; mention that network tools were denied.", GPT)
    run.say(
        "I could not reach the docs: the web fetch, `curl` and the web search were all "
        "denied, so this is from memory of tenacity's API.\n\n"
        "- tenacity's `wait_random_exponential` implements **full jitter**: the wait is "
        "drawn uniformly from `[0, min(max, multiplier * 2 ** n)]`.\n"
        "- Our `Backoff` uses an *additive* jitter: `raw + uniform(0, raw * jitter)`, then "
        "clamps to `cap`. It never waits less than `raw`, so retries spread out less than "
        "with full jitter.\n\n"
        "DONE",
        model_call_id=None,
    )
    run.result()
    return lines
