"""Builders for synthetic Cursor agent CLI ``--output-format stream-json`` output.

Everything here imitates real captures (``shared/samples/cursor-real/``) byte for
byte in style: the same key names in the same order, ``orjson`` output with no
spaces, ``session_id`` on every record, ``timestamp_ms`` exactly where real builds
put it, ``call_id`` values of both observed shapes (``call_...\\nfc_...`` with a real
newline, and ``tool_<uuid>``), tool calls with their bookkeeping siblings
(``hookAdditionalContexts``, ``toolCallId``, ``startedAtMs``/``completedAtMs`` as
strings) and ``result`` records with ``usage``.

This module only gathers the names; scripts and tests ``import synth`` and never
need to know where each lives. The layers, each in its own module:

* :mod:`synth_wire`: the JSON alias, the recording's arrival stamp, ids;
* :mod:`synth_text`: token-sized deltas, unified diffs, shell command parsing;
* :mod:`synth_records`: pure record builders (``init_record``, ``assistant_record``,
  ``tool_call_started_record``, ...) that return plain dicts in CLI key order;
* :mod:`synth_payloads_files` and :mod:`synth_payloads_commands`: tool payload
  builders (``read_args``/``read_success``, ``shell_args``/``shell_result``,
  ``edit_success`` with a real unified diff, ...);
* :mod:`synth_run`: :class:`Run`, a stateful writer for one CLI invocation that owns a
  simulated clock, ids and the rules for assistant text (segments, token deltas, recaps
  and flushes), and serialises every record as one recording line: the stream-json
  line with ``"streamview_recv_ms":<epoch ms>`` appended as its last key;
* :mod:`synth_project`, :mod:`synth_prose`: believable content (a small Python package,
  pytest runs with ANSI colours, diffs, web results);
* :mod:`synth_session` and :mod:`synth_scenarios`: :class:`RandomSession`, a random run
  for benchmarks.

All randomness comes from a caller-supplied ``random.Random``, so the same seed always
yields the same bytes.
"""

from __future__ import annotations

from synth_payloads_commands import (
    ASK_SKIPPED,
    TODO_STATUS,
    ask_question_args,
    mcp_args,
    mcp_success,
    rejected,
    shell_args,
    shell_rejected,
    shell_result,
    todos,
    update_todos_args,
    update_todos_success,
    web_fetch_args,
    web_fetch_success,
    web_search_args,
    web_search_success,
)
from synth_payloads_files import (
    delete_args,
    delete_success,
    edit_args,
    edit_success,
    error_result,
    glob_args,
    glob_success,
    grep_args,
    grep_success,
    ls_args,
    ls_success,
    ls_tree,
    read_args,
    read_success,
    sem_search_args,
    sem_search_success,
    write_args,
    write_success,
)
from synth_project import (
    IRREGULAR,
    MODULES,
    NOUNS,
    TYPES,
    VERBS,
    FakeProject,
    SourceFile,
    capitalise,
    past_participle,
)
from synth_prose import (
    BOLD,
    ESC,
    GREEN,
    RED,
    RESET,
    YELLOW,
    final_answer,
    git_status_output,
    pre_tool_text,
    pytest_output,
    ruff_output,
    search_refs,
    thinking_text,
    web_markdown,
)
from synth_records import (
    assistant_record,
    connection_reconnecting_record,
    init_record,
    interaction_request_record,
    interaction_response_record,
    response_type_for,
    result_record,
    retry_starting_record,
    thinking_completed_record,
    thinking_delta_record,
    tool_call_completed_record,
    tool_call_started_record,
    usage_dict,
    user_record,
)
from synth_run import Run, ToolCall, Usage
from synth_scenarios import ToolScenarios
from synth_session import PARALLEL_KINDS, PARALLEL_WEIGHTS, TOOL_WEIGHTS, RandomSession
from synth_text import parse_shell, split_deltas, unified_diff
from synth_wire import (
    DEFAULT_ENDPOINT,
    JSON,
    RECV_KEY,
    CallIdStyle,
    IdFactory,
    LineSink,
    add_recv,
    recording_line,
)

__all__ = [
    "ASK_SKIPPED",
    "BOLD",
    "DEFAULT_ENDPOINT",
    "ESC",
    "GREEN",
    "IRREGULAR",
    "JSON",
    "MODULES",
    "NOUNS",
    "PARALLEL_KINDS",
    "PARALLEL_WEIGHTS",
    "RECV_KEY",
    "RED",
    "RESET",
    "TODO_STATUS",
    "TOOL_WEIGHTS",
    "TYPES",
    "VERBS",
    "YELLOW",
    "CallIdStyle",
    "FakeProject",
    "IdFactory",
    "LineSink",
    "RandomSession",
    "Run",
    "SourceFile",
    "ToolCall",
    "ToolScenarios",
    "Usage",
    "add_recv",
    "ask_question_args",
    "assistant_record",
    "capitalise",
    "connection_reconnecting_record",
    "delete_args",
    "delete_success",
    "edit_args",
    "edit_success",
    "error_result",
    "final_answer",
    "git_status_output",
    "glob_args",
    "glob_success",
    "grep_args",
    "grep_success",
    "init_record",
    "interaction_request_record",
    "interaction_response_record",
    "ls_args",
    "ls_success",
    "ls_tree",
    "mcp_args",
    "mcp_success",
    "parse_shell",
    "past_participle",
    "pre_tool_text",
    "pytest_output",
    "read_args",
    "read_success",
    "recording_line",
    "rejected",
    "response_type_for",
    "result_record",
    "retry_starting_record",
    "ruff_output",
    "search_refs",
    "sem_search_args",
    "sem_search_success",
    "shell_args",
    "shell_rejected",
    "shell_result",
    "split_deltas",
    "thinking_completed_record",
    "thinking_delta_record",
    "thinking_text",
    "todos",
    "tool_call_completed_record",
    "tool_call_started_record",
    "unified_diff",
    "update_todos_args",
    "update_todos_success",
    "usage_dict",
    "user_record",
    "web_fetch_args",
    "web_fetch_success",
    "web_markdown",
    "web_search_args",
    "web_search_success",
    "write_args",
    "write_success",
]
