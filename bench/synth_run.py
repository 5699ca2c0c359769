""":class:`Run`, the stateful writer of one CLI invocation: a simulated clock, ids, the
rules for assistant text (segments, token deltas, recaps, flushes), each record serialised
as one recording line."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import orjson
from synth_records import (
    assistant_record,
    connection_reconnecting_record,
    init_record,
    interaction_request_record,
    interaction_response_record,
    result_record,
    retry_starting_record,
    thinking_completed_record,
    thinking_delta_record,
    tool_call_completed_record,
    tool_call_started_record,
    usage_dict,
    user_record,
)
from synth_text import split_deltas
from synth_wire import JSON, CallIdStyle, IdFactory, LineSink, recording_line


@dataclass
class ToolCall:
    """A tool call between its ``started`` and ``completed`` records."""

    call_id: str
    """Opaque id shared by both records."""
    kind: str
    """Key ending in ``ToolCall``."""
    args: JSON
    """Arguments, repeated in ``completed`` unless the call was rejected."""
    started_at_ms: int
    """Value of ``startedAtMs``."""
    model_call_id: str | None
    """Model call that asked for it."""
    description: str | None = None
    """Shell description beside ``args``."""


@dataclass
class Usage:
    """Running token counts for the result's ``usage``."""

    input_tokens: int = 0
    output_tokens: int = 0
    cache_read_tokens: int = 0
    context_tokens: int = 0


@dataclass
class Run:
    """Writes one CLI invocation (one ``session_id``) as recording lines.

    The run keeps a simulated CLI clock, ``now`` (epoch ms), that only moves forward.
    Every record is stamped with ``streamview_recv_ms`` a few ms after the CLI time it
    describes, never earlier than the previous line, so arrival times are
    non-decreasing and consistent with ``timestamp_ms``.
    """

    rng: random.Random
    """All randomness (ids, pacing, latency)."""
    sink: LineSink
    """Where finished lines go."""
    start_ms: int
    """CLI clock at ``init``."""
    cwd: str = "/home/dev/src/tidepool"
    """Workspace directory."""
    model: str = "Composer 2.5 Fast"
    """Display name in ``init``."""
    partial: bool = False
    """Whether the run used ``--stream-partial-output``."""
    call_id_style: CallIdStyle = "tool"
    """Shape of the call ids."""
    permission_mode: str = "default"
    """``permissionMode`` in ``init``."""
    with_usage: bool = True
    """Whether ``result`` carries ``usage`` (newer builds)."""
    token_gap_ms: tuple[int, int] = (0, 30)
    """Range of milliseconds between two token deltas."""
    ids: IdFactory = field(init=False)
    session_id: str = field(init=False)
    request_id: str = field(init=False)
    now: int = field(init=False)
    last_recv: int = field(init=False)
    count: int = field(init=False, default=0)
    segments: list[str] = field(init=False, default_factory=list)
    usage: Usage = field(init=False, default_factory=Usage)
    _model_calls: int = field(init=False, default=0)
    _query_ids: int = field(init=False, default=0)

    def __post_init__(self) -> None:
        """Draw the session and request ids and set the clocks."""
        self.ids = IdFactory(self.rng)
        self.session_id = self.ids.uuid()
        self.request_id = self.ids.uuid()
        self.now = self.start_ms
        self.last_recv = self.start_ms

    # -- plumbing ----------------------------------------------------------------------

    def emit(self, record: JSON, at: int | None = None) -> None:
        """Write one record.

        Args:
            record: The stream-json record.
            at: CLI time the record describes; defaults to ``now``.
        """
        moment = self.now if at is None else at
        recv = max(self.last_recv, moment + self.rng.randint(0, 3))
        self.last_recv = recv
        self.count += 1
        self.sink(recording_line(record, recv))

    def wait(self, ms: int) -> None:
        """Advance the CLI clock (silence, model latency, a running tool)."""
        self.now += max(0, ms)

    def model_call(self) -> str:
        """Start a new model call and return its ``model_call_id``."""
        mcid = self.ids.model_call_id(self.request_id, self._model_calls)
        self._model_calls += 1
        self.usage.input_tokens += 1200 + self.usage.context_tokens // 6
        self.usage.cache_read_tokens += self.usage.context_tokens
        return mcid

    # -- records -----------------------------------------------------------------------

    def init(self) -> None:
        """Emit ``system/init``."""
        self.emit(
            init_record(self.session_id, self.cwd, self.model, permission_mode=self.permission_mode)
        )

    def user(self, prompt: str) -> None:
        """Emit the ``user`` record."""
        self.wait(self.rng.randint(1, 6))
        self.emit(user_record(self.session_id, prompt))
        self.usage.input_tokens += 6000 + len(prompt) // 4
        self.usage.context_tokens += 8000 + len(prompt) // 4

    def think(self, text: str, *, max_words: int = 3, gap_ms: tuple[int, int] = (0, 8)) -> None:
        """Emit one thinking block: deltas, then ``thinking/completed``.

        Args:
            text: The whole thinking text.
            max_words: Most words per delta.
            gap_ms: Range of ms between deltas.
        """
        for piece in split_deltas(text, self.rng, max_words=max_words):
            self.wait(self.rng.randint(*gap_ms))
            self.emit(thinking_delta_record(self.session_id, piece, self.now))
        self.wait(self.rng.randint(0, 20))
        self.emit(thinking_completed_record(self.session_id, self.now))
        self.usage.output_tokens += len(text) // 4 + 1

    def say(self, text: str, *, model_call_id: str | None, max_words: int = 2) -> None:
        """Emit one assistant segment by the rules of the run's mode.

        Without partial output: one record; before a tool call (``model_call_id``
        given) it carries ``model_call_id`` and ``timestamp_ms``, the final one
        neither. With partial output: token deltas with ``timestamp_ms``, then a recap
        (``model_call_id`` + ``timestamp_ms``) before a tool call, or a flush (neither)
        at the end of the turn.

        Args:
            text: The segment's text.
            model_call_id: Model call of a segment that precedes tool calls; None for
                the final answer.
            max_words: Most words per delta.
        """
        self.segments.append(text)
        self.usage.output_tokens += len(text) // 4 + 1
        self.usage.context_tokens += len(text) // 4
        sid = self.session_id
        if self.partial:
            for piece in split_deltas(text, self.rng, max_words=max_words):
                self.wait(self.rng.randint(*self.token_gap_ms))
                self.emit(assistant_record(sid, piece, timestamp_ms=self.now))
        else:
            lo, hi = self.token_gap_ms
            self.wait(len(text) // 4 * (lo + hi) // 2)
        if model_call_id is not None:
            self.wait(self.rng.randint(0, 3))
            self.emit(
                assistant_record(sid, text, model_call_id=model_call_id, timestamp_ms=self.now)
            )
        else:
            self.wait(self.rng.randint(20, 400))
            self.emit(assistant_record(sid, text))

    def start_tool(
        self,
        kind: str,
        args: JSON,
        *,
        model_call_id: str | None,
        call_id: str | None = None,
        description: str | None = None,
        emit: bool = True,
    ) -> ToolCall:
        """Emit ``tool_call/started`` (or only open the call when ``emit`` is False).

        The record's ``timestamp_ms`` is the model's decision time (``now``); the tool
        itself starts some tens of ms later (``startedAtMs``), as in real output.

        Args:
            kind: Tool key, e.g. ``grepToolCall``.
            args: Arguments.
            model_call_id: Model call that asked for the tool.
            call_id: Use this id instead of drawing one.
            description: Shell description beside ``args``.
            emit: False for a call whose ``started`` never appears (a denied search).

        Returns:
            The open call.
        """
        cid = call_id or self.ids.call_id(self.call_id_style)
        call = ToolCall(
            cid, kind, args, self.now + self.rng.randint(14, 210), model_call_id, description
        )
        if emit:
            self.emit(
                tool_call_started_record(
                    self.session_id,
                    cid,
                    kind,
                    args,
                    started_at_ms=call.started_at_ms,
                    timestamp_ms=self.now,
                    model_call_id=model_call_id,
                    description=description,
                )
            )
        return call

    def finish_tool(
        self, call: ToolCall, result: JSON, *, duration_ms: int, include_args: bool = True
    ) -> None:
        """Emit ``tool_call/completed`` after the tool ran for ``duration_ms``.

        Args:
            call: The open call.
            result: The result union.
            duration_ms: How long the tool ran.
            include_args: False to omit ``args`` (rejected calls do).
        """
        completed = max(call.started_at_ms + duration_ms, self.now)
        stamp = max(call.started_at_ms, completed - self.rng.randint(2, 200))
        self.now = max(self.now, completed)
        self.emit(
            tool_call_completed_record(
                self.session_id,
                call.call_id,
                call.kind,
                call.args if include_args else None,
                result,
                started_at_ms=call.started_at_ms,
                completed_at_ms=completed,
                timestamp_ms=stamp,
                model_call_id=call.model_call_id,
                description=call.description,
            ),
            at=completed,
        )
        self.usage.context_tokens += min(len(orjson.dumps(result)) // 4, 12000)

    def tool(
        self,
        kind: str,
        args: JSON,
        result: JSON,
        *,
        model_call_id: str | None,
        duration_ms: int,
        description: str | None = None,
    ) -> ToolCall:
        """Emit a whole sequential tool call: ``started``, the wait, ``completed``."""
        call = self.start_tool(kind, args, model_call_id=model_call_id, description=description)
        self.finish_tool(call, result, duration_ms=duration_ms)
        return call

    def ask(self, query_type: str, body: JSON, response: JSON, *, delay_ms: int = 1) -> int:
        """Emit an ``interaction_query`` request/response pair.

        Args:
            query_type: E.g. ``webFetchRequestQuery``.
            body: The query payload.
            response: E.g. ``{"approved": {}}``.
            delay_ms: Time the user (or policy) took to answer.

        Returns:
            The query id used.
        """
        qid = self._query_ids
        self._query_ids += 1
        self.emit(interaction_request_record(self.session_id, query_type, qid, body, self.now))
        self.wait(delay_ms)
        self.emit(interaction_response_record(self.session_id, query_type, qid, response, self.now))
        return qid

    def reconnect(self, attempts: int = 1, *, resume: bool = True) -> None:
        """Emit a lost connection: ``connection/reconnecting`` then ``retry/starting``.

        Args:
            attempts: How many reconnect attempts to show.
            resume: Emit ``retry/starting`` after the last attempt.
        """
        for attempt in range(1, attempts + 1):
            self.emit(connection_reconnecting_record(self.session_id, self.now, attempt))
            self.wait(self.rng.randint(900, 2600) * attempt)
        if resume:
            self.emit(retry_starting_record(self.session_id, self.now, attempts))

    def result(self) -> None:
        """Emit ``result/success`` with the concatenated text and cumulative usage."""
        self.wait(self.rng.randint(5, 60))
        u = self.usage
        usage = (
            usage_dict(u.input_tokens, u.output_tokens, u.cache_read_tokens)
            if self.with_usage
            else None
        )
        self.emit(
            result_record(
                self.session_id,
                duration_ms=self.now - self.start_ms + self.rng.randint(300, 1500),
                result="".join(self.segments),
                request_id=self.request_id,
                usage=usage,
            )
        )
