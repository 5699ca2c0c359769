"""The lines the fake agents print: a short, real-looking stream-json run."""

from __future__ import annotations

import sys
import time

SESSION = "0d1e2f3a-0000-4000-8000-000000000001"
INIT = (
    '{"type":"system","subtype":"init","apiKeySource":"login","cwd":"/tmp/project",'
    f'"session_id":"{SESSION}","model":"Fake 1","permissionMode":"default"}}'
)
USER = (
    '{"type":"user","message":{"role":"user","content":[{"type":"text","text":"say hi"}]},'
    f'"session_id":"{SESSION}"}}'
)
STARTED = (
    '{"type":"tool_call","subtype":"started","call_id":"tool_1","tool_call":'
    '{"readToolCall":{"args":{"path":"README.md"}}},'
    f'"session_id":"{SESSION}","timestamp_ms":1770000000100}}'
)
COMPLETED = (
    '{"type":"tool_call","subtype":"completed","call_id":"tool_1","tool_call":'
    '{"readToolCall":{"args":{"path":"README.md"},"result":{"success":'
    '{"content":"hi","totalLines":1}}}},'
    f'"session_id":"{SESSION}","timestamp_ms":1770000000200}}'
)
ANSWER = (
    '{"type":"assistant","message":{"role":"assistant","content":'
    f'[{{"type":"text","text":"Hi \\u2014 done."}}]}},"session_id":"{SESSION}"}}'
)
RESULT = (
    '{"type":"result","subtype":"success","duration_ms":300,"duration_api_ms":300,'
    f'"is_error":false,"result":"Hi \\u2014 done.","session_id":"{SESSION}",'
    '"request_id":"req-1"}'
)
RUN = [INIT, USER, STARTED, COMPLETED, ANSWER, RESULT]


def emit(lines: list[str], pause: float = 0.02) -> None:
    """Print each line, flushed, with a short pause between them."""
    for line in lines:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
        time.sleep(pause)
