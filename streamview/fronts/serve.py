"""``--serve``: the viewer in a web browser, for presentations (textual-serve).

textual-serve starts one ``streamview`` process per browser tab, with the same
arguments minus ``--serve``/``--port``, and draws its screen in the page; keys work
as in a terminal. The served process has no terminal on stdout, so it is told apart
by the driver textual-serve sets (:func:`served`).

Only the person holding the printed address (its secret token) gets a viewer, from
the page's own origin, under a name the server is served as, and no more than
``--max-viewers`` at once (:mod:`streamview.fronts.serve_guard`,
:mod:`streamview.fronts.serve_server`).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import shlex
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

DEFAULT_PORT = 8000
WEB_DRIVER_SUFFIX = ":WebDriver"
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
SERVER_OPTIONS = ("--port", "--host", "--public-url", "--max-viewers")
"""Options of the server, with a value, that the served viewer is not given."""


def served() -> bool:
    """Whether this process is the viewer behind a textual-serve page."""
    return os.environ.get("TEXTUAL_DRIVER", "").endswith(WEB_DRIVER_SUFFIX)


def served_arguments(arguments: Sequence[str]) -> list[str]:
    """``arguments`` without ``--serve`` and the server's options (and their values)."""
    out: list[str] = []
    skip_value = False
    for argument in arguments:
        if skip_value:
            skip_value = False
            continue
        if argument == "--serve" or argument.startswith(tuple(f"{o}=" for o in SERVER_OPTIONS)):
            continue
        if argument in SERVER_OPTIONS:
            skip_value = True
            continue
        out.append(argument)
    return out


def serve_command(arguments: Sequence[str]) -> str:
    """The shell command each browser tab runs."""
    return shlex.join(serve_argv(arguments))


def serve_argv(arguments: Sequence[str]) -> list[str]:
    """The command each browser tab runs, as its arguments."""
    return [sys.executable, "-m", "streamview", *served_arguments(arguments)]


def serve(
    arguments: Sequence[str],
    host: str = "localhost",
    port: int = DEFAULT_PORT,
    public_url: str | None = None,
    max_viewers: int | None = None,
) -> int:
    """Serve the viewer on ``http://host:port`` until interrupted.

    Args:
        arguments: The command line streamview was given (``--serve`` included).
        host: Interface to listen on.
        port: Port to listen on.
        public_url: The address a proxy serves it as, if any (the page's addresses).
        max_viewers: Viewers at once (``None``: the settings', else 4).

    Returns:
        The exit status.
    """
    try:
        from streamview.fronts.serve_server import ViewerServer
    except ImportError:
        sys.stderr.write(f"streamview: --serve needs textual-serve: {install_hint()}\n")
        return 2
    from streamview.fronts.serve_guard import Gate, check_public_url

    problem = None if public_url is None else check_public_url(public_url)
    if problem is not None:
        sys.stderr.write(f"streamview: {problem}\n")
        return 2
    problem = cannot_listen(host, port)
    if problem is not None:
        sys.stderr.write(f"streamview: cannot serve on {host}:{port}: {problem}\n")
        return 2
    gate = Gate(host, port, public_url=public_url, max_viewers=max_viewers or settings_cap())
    server = ViewerServer(serve_argv(arguments), gate)

    def listening() -> None:
        exposed = ""  # behind a proxy (--public-url), only its address makes the page work
        if host not in LOCAL_HOSTS and public_url is None:
            exposed = f" (reachable from other machines; here: {gate.printed_url(local=True)})"
        sys.stderr.write(
            f"streamview: serving on {gate.printed_url()}{exposed}\n"
            f"streamview: the token in that address lets a browser in; at most "
            f"{gate.max_viewers} viewer{'s' if gate.max_viewers != 1 else ''} at once "
            "(Ctrl+C stops)\n"
        )
        sys.stderr.flush()

    try:
        with contextlib.suppress(KeyboardInterrupt):  # a Ctrl+C before the handler is set
            asyncio.run(server.run(listening))
    except OSError as error:  # lost a race for the port, or the interface went away
        sys.stderr.write(f"streamview: cannot serve on {host}:{port}: {error.strerror or error}\n")
        return 2
    return 0


def settings_cap() -> int:
    """The ``max_viewers`` setting (4 unless the settings file says otherwise)."""
    from streamview.config.settings import Settings

    settings, _ = Settings.load()
    return settings.max_viewers


def install_hint(
    package_root: Path | None = None,
    extra: str = "serve",
    requirement: str = "'textual-serve>=1.1'",
) -> str:
    """How to install an extra (textual-serve by default) into the Python running streamview.

    From a checkout (``pyproject.toml`` beside the package), the checkout's own ``serve``
    extra, installed editable: the name ``streamview`` on the package index is another
    project, so ``pip install 'streamview[serve]'`` would fetch that. Otherwise the
    dependency itself (``requirement``).
    """
    root = package_root or Path(__file__).resolve().parents[2]
    python = shlex.quote(sys.executable)
    pyproject = root / "pyproject.toml"
    if pyproject.is_file() and 'name = "streamview"' in pyproject.read_text(encoding="utf-8"):
        return f"{python} -m pip install -e {shlex.quote(str(root) + f'[{extra}]')}"
    return f"{python} -m pip install {requirement}"


def cannot_listen(host: str, port: int) -> str | None:
    """Why a server could not listen on ``host:port`` (in use, no such interface), or ``None``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        return f"unknown host ({error.strerror or error})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return "the port is in use (pick another with --port)"
            return error.strerror or str(error)
    return None
