"""The ``--serve`` web server: textual-serve's, with its doors checked.

textual-serve's :class:`~textual_serve.server.Server` serves a page that draws a
terminal, and starts one process per websocket. This one also refuses (before any
process starts) a request whose ``Host`` or ``Origin`` is not its own or that lacks the
token (:class:`~streamview.fronts.serve_guard.Gate`), and a viewer beyond the cap; writes the
page's addresses from the address the browser used (or ``--public-url``), not the one
it listens on; loads the fonts textual-serve ships, not a public font service's; and
ends each viewer's process when its socket closes, or when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import aiohttp_jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from streamview.fronts.serve_guard import TOKEN_PARAMETER, Gate, websocket_url

log = logging.getLogger("streamview.fronts.serve")

PAGE = "serve_page.html"
QUIT_GRACE = 3.0
"""Seconds a viewer has to quit after its socket closed, before it is terminated."""
KILL_GRACE = 2.0
"""Seconds after SIGTERM before SIGKILL."""
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ViewerService(AppService):
    """One viewer process behind one websocket, started without a shell and always
    ended: quit asked, then SIGTERM, then SIGKILL."""

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = list(argv)

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Any:
        """Start the viewer (``argv`` as is: no shell between)."""
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the viewer to quit and wait; end it if it does not."""
        process, task = self._process, self._task
        if process is None:
            return
        if task is not None:
            with contextlib.suppress(Exception):
                await self._download_manager.cancel_app_downloads(
                    app_service_id=self.app_service_id
                )
            with contextlib.suppress(Exception):
                await self.send_meta({"type": "quit"})
        if not await _exited(process, QUIT_GRACE):
            with contextlib.suppress(ProcessLookupError):
                process.terminate()
            if not await _exited(process, KILL_GRACE):
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
                await process.wait()
        if task is not None:
            with contextlib.suppress(Exception):
                await task
        self._task = None


async def _exited(process: asyncio.subprocess.Process, seconds: float) -> bool:
    """Whether ``process`` ends within ``seconds``."""
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        return False
    return True


class ViewerServer(Server):
    """textual-serve's server with the checks of :class:`Gate` and a cap on viewers."""

    def __init__(self, argv: Sequence[str], gate: Gate) -> None:
        super().__init__(
            " ".join(argv),
            host=gate.host,
            port=gate.port,
            title="streamview",
            templates_path=Path(__file__).resolve().parent,
        )
        self.argv = list(argv)
        self.gate = gate
        self.viewers = 0
        """Viewers running now (counted before their process starts)."""
        self.sockets: set[web.WebSocketResponse] = set()

    async def _make_app(self) -> web.Application:
        """textual-serve's routes behind the ``Host`` check."""
        app = await super()._make_app()
        app.middlewares.append(self._check_host)
        return app

    @web.middleware
    async def _check_host(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Refuse every request (page, socket, static file) to a name not this server's."""
        if not self.gate.host_allowed(request.headers.get("Host")):
            return refusal(
                421,
                "streamview: refused: this server is not served under that name (its Host "
                "header); open the address streamview printed",
            )
        return await handler(request)

    def _refused(self, request: web.Request) -> web.Response | None:
        """The refusal of a request from a foreign page or without the token, if it is one."""
        host = request.headers.get("Host", "")
        if not self.gate.origin_allowed(request.headers.get("Origin"), host):
            return refusal(403, "streamview: refused: a request from another site's page")
        given = request.query.get(TOKEN_PARAMETER) or request.cookies.get(self.gate.cookie_name)
        if not self.gate.token_matches(given):
            return refusal(
                403,
                "streamview: refused: this address needs the token streamview printed "
                "(open http://HOST:PORT/?token=... as printed when it started)",
            )
        return None

    def _full(self) -> str | None:
        """Why no viewer can start now (the cap reached), or ``None``."""
        if self.viewers < self.gate.max_viewers:
            return None
        tabs = f"{self.viewers} viewer{'s' if self.viewers != 1 else ''}"
        return (
            f"streamview: {tabs} open already, the most this server allows "
            "(--max-viewers): close a tab, then try again"
        )

    async def on_startup(self, app: web.Application) -> None:
        """Print nothing: :func:`serve` says where it serves once it listens."""

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every socket, so each viewer's process is ended before the server exits."""
        for socket_ in list(self.sockets):
            await socket_.close(code=WSCloseCode.GOING_AWAY, message=b"streamview stopped")

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The page, with addresses as the browser used them; sets the token's cookie."""
        refused = self._refused(request)
        if refused is not None:
            return refused
        full = self._full()
        if full is not None:
            return refusal(503, full)
        base = self.gate.base_url(request.headers["Host"])
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": websocket_url(base),
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": "streamview"},
        }
        response = aiohttp_jinja2.render_template(PAGE, request, context)
        response.set_cookie(
            self.gate.cookie_name, self.gate.token, httponly=True, samesite="Strict", path="/"
        )
        response.headers.update(PAGE_HEADERS)
        return response

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        """A file a viewer hands to the browser (``x``): for the token's holder only."""
        refused = self._refused(request)
        if refused is not None:
            return refused
        return await super().handle_download(request)

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One viewer per socket, within the cap; its process ends when the socket does."""
        refused = self._refused(request)
        if refused is not None:
            raise web.HTTPForbidden(text=refused.text)
        websocket = web.WebSocketResponse(heartbeat=15)
        full = self._full()
        if full is not None:
            await websocket.prepare(request)
            await websocket.send_bytes(f"\r\n  {full}\r\n".encode())
            await websocket.close(code=WSCloseCode.TRY_AGAIN_LATER, message=full.encode()[:120])
            return websocket
        self.viewers += 1  # taken with no await since the check: two sockets cannot race
        service = ViewerService(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
        )
        try:
            await websocket.prepare(request)
            self.sockets.add(websocket)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as error:  # a broken socket or a viewer that could not start
            log.warning("streamview: a served viewer failed: %s", error)
        finally:
            self.sockets.discard(websocket)
            try:
                await asyncio.shield(service.stop())
            finally:
                self.viewers -= 1
        return websocket

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        """textual-serve's, ignoring a malformed message instead of ending the socket."""
        async for message in websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = message.json()
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
                if kind == "stdin" and isinstance(data, str):
                    await app_service.send_bytes(data.encode("utf-8"))
                elif kind == "resize" and isinstance(data, dict):
                    await app_service.set_terminal_size(int(data["width"]), int(data["height"]))
                elif kind == "ping":
                    await websocket.send_json(["pong", data])
                elif kind == "blur":
                    await app_service.blur()
                elif kind == "focus":
                    await app_service.focus()
            except (ValueError, TypeError, KeyError, IndexError):
                continue

    async def run(self, listening: Callable[[], None]) -> None:
        """Serve until SIGINT or SIGTERM; ``listening`` is called once the port is open."""
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signal_number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signal_number, stop.set)
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.gate.host or None, self.gate.port).start()
            listening()
            await stop.wait()
        finally:
            await runner.cleanup()


PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
}
"""The page is not kept, leaks its token-bearing address to no one, and is not framed."""


def refusal(status: int, message: str) -> web.Response:
    """A plain-text refusal (shown as is in the browser)."""
    return web.Response(status=status, text=message + "\n", headers=PAGE_HEADERS)
