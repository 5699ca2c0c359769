"""Hostile copies of every agent's fixtures, for the pseudo-terminal tests.

Each agent's ``success-tools`` fixture (``tests/fixtures/dialects``) is rewritten with
:func:`payload` appended to every string value (and inside strings that hold JSON, as
Cline's ``text`` and Kimi's ``arguments`` do), except the few keys a dialect reads its
record kinds from; every tool call's arguments gain a value nested 900 deep; the
longest string grows to 10 MB. The payload carries one unique marker per agent in each
sequence that must never reach a terminal live: an OSC 52 clipboard write (the marker
in base64), an OSC 8 link, a DCS string, the DSR queries, C1 controls, the bracketed
paste end, and Rich markup that would crash (``[/x]``) or act (``@click``) if parsed.
A line that is not JSON and a record of no known kind give the event log lines to show.
"""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import orjson

from streamview.core.dialects import REGISTRY

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "dialects"
AGENTS = tuple(name for name, _ in REGISTRY)
"""Every dialect streamview reads (its registry), so a new agent is tested too."""

STRUCTURAL = frozenset({"type", "subtype", "role", "ask", "say"})
"""Keys whose value says what a record is: changed, the record would be another kind
(found by folding each fixture with and without the payload in each key)."""
ARGUMENT_KEYS = frozenset({"input", "arguments", "args", "parameters", "tool_input"})
"""Keys under which the dialects put a tool call's arguments."""
DEPTH = 900
"""How deep the arguments nest: valid JSON, under the parser's limit (issue 26.4)."""
HUGE = 10_000_000
"""The size of the one huge line."""
VICTIM = "victim.txt"
"""The file a live ``@click=app.screenshot(...)`` in the stream would overwrite."""


def marker(agent: str) -> str:
    """The unique text an agent's payload carries: found in output, it came from there."""
    return f"SVPWN{agent.upper()}"


def osc52_marker(agent: str) -> bytes:
    """The base64 of :func:`marker`, as it appears inside the payload's OSC 52."""
    return base64.b64encode(marker(agent).encode())


def payload(agent: str, victim_dir: Path) -> str:
    """The hostile text appended to every string of ``agent``'s stream."""
    mark = marker(agent)
    clip = osc52_marker(agent).decode()
    return (
        f" \x1b]52;c;{clip}\x07"
        f" \x1b]8;;https://evil.example/{mark}\x1b\\link-{mark}\x1b]8;;\x1b\\"
        f" \x1bP1$r{mark}\x1b\\ \x1b[6n \x1b[5n"
        f" \u009b2J \u0090q{mark}\u009c \u009d0;{mark}\u009c"
        " \x1b[201~ [/x] [@click=app.quit]QUITCLICK[/]"
        f" [@click=app.screenshot('{VICTIM}','{victim_dir}')]SHOTCLICK[/]"
    )


DEEP = "\u0000deep\u0000"
"""Where the deep value goes: a placeholder replaced once the record is written (orjson
writes at most 255 levels)."""
DEEP_JSON = b'"\\u0000deep\\u0000"'
DEEP_RAW = b"[" * DEPTH + b'"bottom"' + b"]" * DEPTH


def dumps(value: Any) -> bytes:
    """``value`` as JSON, with the placeholder :data:`DEEP` written nested deep."""
    return orjson.dumps(value).replace(DEEP_JSON, DEEP_RAW)


def fixture_of(agent: str) -> Path:
    """The agent's fixture with tool calls (``success-tools``, else its first)."""
    folder = FIXTURES / agent
    chosen = folder / "success-tools.jsonl"
    if chosen.exists():
        return chosen
    return sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".ndjson"))[0]


def _poison(value: Any, text: str, deep: bool, key: str | None = None) -> Any:
    """``value`` with ``text`` after every string, arguments nested deep (if ``deep``)."""
    if isinstance(value, str):
        inner = _json_inside(value)
        if inner is not None:
            poisoned = _poison(inner, text, deep, key)
            if isinstance(poisoned, dict) and deep:
                poisoned["nested"] = DEEP
            return dumps(poisoned).decode()
        return value if key in STRUCTURAL else value + text
    if isinstance(value, dict):
        out = {name: _poison(item, text, deep, name) for name, item in value.items()}
        if key in ARGUMENT_KEYS and deep:
            out["nested"] = DEEP
        return out
    if isinstance(value, list):
        return [_poison(item, text, deep, key) for item in value]
    return value


def _json_inside(text: str) -> Any:
    """The object or array a string holds as JSON, else ``None``."""
    if not text.startswith(("{", "[")):
        return None
    try:
        found = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return found if isinstance(found, dict | list) else None


def _names_a_record(path: list[Any]) -> bool:
    """Whether the string at ``path`` is a record's type or an id (``session_id``,
    ``sessionID``, ``id``...): grown, the longest line had a session id of its own, and
    the stream rightly folded into three sessions (the line's and the id's on either side)."""
    name = str(path[-1]).lower() if path else ""
    return name == "type" or name.endswith("id")


def _grow_longest(record: Any, text: str) -> Any:
    """``record`` with its longest string grown to :data:`HUGE` characters."""
    paths: list[tuple[int, list[Any]]] = []

    def walk(value: Any, path: list[Any]) -> None:
        if isinstance(value, str) and value != DEEP and not _names_a_record(path):
            paths.append((len(value), path))
        elif isinstance(value, dict):
            for name, item in value.items():
                walk(item, [*path, name])
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, [*path, index])

    walk(record, [])
    if not paths:
        return record
    _, path = max(paths, key=lambda found: found[0])
    holder = record
    for step in path[:-1]:
        holder = holder[step]
    old = holder[path[-1]]
    holder[path[-1]] = old + ("x" * 999 + "\n") * (HUGE // 1000) + text
    return record


def hostile_agent_stream(agent: str, victim_dir: Path) -> bytes:
    """``agent``'s fixture made hostile (see the module's docstring)."""
    return agent_stream(agent, payload(agent, victim_dir), deep=True, huge=True)


def benign_agent_stream(agent: str) -> bytes:
    """``agent``'s fixture shaped as the hostile one (an odd line and record for the
    event log) with plain text instead of the payload, and nothing deep or huge: the
    baseline of what Textual itself writes on the same screens."""
    return agent_stream(agent, " benign words", deep=False, huge=False)


def agent_stream(agent: str, text: str, *, deep: bool, huge: bool) -> bytes:
    """``agent``'s fixture with ``text`` in every string (see the module's docstring)."""
    lines = fixture_of(agent).read_bytes().splitlines()
    records: list[Any] = []
    for line in lines:
        try:
            records.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            records.append(line)
    longest = max(range(len(lines)), key=lambda n: len(lines[n]))
    out: list[bytes] = []
    for number, record in enumerate(records):
        if isinstance(record, bytes):
            out.append(record)
            continue
        poisoned = _poison(record, text, deep)
        if number == longest and huge:
            poisoned = _grow_longest(poisoned, text)
        out.append(dumps(poisoned))
    # For the event log: a line that is not JSON, and a record no dialect knows.
    odd = [b"not json " + text.encode(), orjson.dumps({"type": f"mystery{text}", "x": text})]
    return b"\n".join([*out[:1], *odd, *out[1:]]) + b"\n"
