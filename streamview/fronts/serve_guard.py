"""Who may open a served viewer: the checks ``--serve`` makes on every request.

A served viewer shows a recording (its code, paths, keys) and takes keys, so a page on
another site must not be able to open its websocket, a name that a DNS rebinding
attack points at the machine must not reach it, and a person must hold the secret
token the command printed. Each check is a plain function of the request's headers,
here, so the server (:mod:`streamview.fronts.serve_server`) only asks and refuses.

- ``Host``: a name or address the server is served as: ``localhost``, a loopback
  address, the ``--host`` value, the ``--public-url``'s host, and when listening on
  every interface (``0.0.0.0``, ``::``) any address literal and this machine's names.
  A rebinding attack reaches the server under the attacker's own name: refused.
- ``Origin`` (when a browser sends one): the page's own origin, ``http://`` and the
  ``Host`` it used, or the ``--public-url``'s origin.
- The token: ``?token=`` in the printed address, or the cookie the page sets.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

WILDCARD_HOSTS = ("0.0.0.0", "::", "")
"""``--host`` values that listen on every interface."""
LOCAL_NAMES = ("localhost",)
TOKEN_PARAMETER = "token"
DEFAULT_MAX_VIEWERS = 4
"""Viewers served at once unless the settings or ``--max-viewers`` say otherwise."""


def new_token() -> str:
    """A fresh secret for one ``--serve`` (URL-safe, 192 bits)."""
    return secrets.token_urlsafe(24)


def split_host(header: str) -> tuple[str, int | None] | None:
    """``(name, port)`` of a ``Host`` header (``[::1]:8000`` gives ``("::1", 8000)``),
    the name lowercased; ``None`` for a header that is not one."""
    try:
        parts = urlsplit(f"//{header.strip()}")
        name, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not name or parts.username is not None or parts.path or parts.query:
        return None
    return name.rstrip("."), port


def as_address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    """``name`` as an IP address, or ``None`` for a name."""
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def url_host(header_name: str, port: int | None, scheme: str = "http") -> str:
    """The ``host[:port]`` part of a URL for ``header_name`` (an IPv6 address bracketed,
    the scheme's default port left out)."""
    address = as_address(header_name)
    name = f"[{header_name}]" if address is not None and address.version == 6 else header_name
    default = 443 if scheme in ("https", "wss") else 80
    return name if port is None or port == default else f"{name}:{port}"


def origin_of(url: str) -> tuple[str, str, int] | None:
    """``(scheme, host, port)`` of an ``Origin`` or URL (default port filled in)."""
    try:
        parts = urlsplit(url.strip())
        scheme, name, port = parts.scheme.lower(), parts.hostname, parts.port
    except ValueError:
        return None
    if scheme not in ("http", "https") or not name:
        return None
    return scheme, name.rstrip("."), port or (443 if scheme == "https" else 80)


def check_public_url(url: str) -> str | None:
    """Why ``url`` cannot be a ``--public-url`` (it must be ``http(s)://host[:port][/path]``),
    or ``None``."""
    parts = urlsplit(url)
    if origin_of(url) is None:
        return f"--public-url: not an http(s) address: {url!r}"
    if parts.query or parts.fragment or parts.username is not None:
        return f"--public-url: an address without a query, fragment or user: {url!r}"
    return None


@dataclass(frozen=True)
class Gate:
    """The checks for one ``--serve``: where it listens, its token, its public address."""

    host: str
    """The ``--host`` value the server listens on."""
    port: int
    token: str = field(default_factory=new_token, repr=False)
    public_url: str | None = None
    """The address a proxy serves it as (``--public-url``), if any."""
    max_viewers: int = DEFAULT_MAX_VIEWERS

    @property
    def cookie_name(self) -> str:
        """The cookie holding the token (one per port: cookies ignore ports)."""
        return f"streamview-token-{self.port}"

    def listens_everywhere(self) -> bool:
        """Whether the server listens on every interface (``--host 0.0.0.0``)."""
        return self.host.strip("[]") in WILDCARD_HOSTS

    @cached_property
    def served_names(self) -> frozenset[str]:
        """The names (not addresses) the server answers to (looked up once: ``getfqdn``
        may ask a name server)."""
        names = {*LOCAL_NAMES, self.host.strip("[]").lower()}
        if self.public_url is not None and (public := origin_of(self.public_url)):
            names.add(public[1])
        if self.listens_everywhere():
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        return frozenset(names - {""})

    def host_allowed(self, header: str | None) -> bool:
        """Whether a request's ``Host`` names this server (not a rebinding attacker's)."""
        if not header or (parsed := split_host(header)) is None:
            return False
        name, _ = parsed
        if name in self.served_names:
            return True
        address = as_address(name)
        if address is None:
            return False
        bound = as_address(self.host.strip("[]"))
        return self.listens_everywhere() or address.is_loopback or address == bound

    def origin_allowed(self, origin: str | None, host_header: str) -> bool:
        """Whether a request's ``Origin`` is the served page's own (none: not a browser's
        cross-site request, allowed; the token still decides)."""
        if origin is None:
            return True
        given = origin_of(origin)
        if given is None:  # "null" (a sandboxed frame, a file:// page) or garbage
            return False
        own = {origin_of(f"http://{host_header}")}
        if self.public_url is not None:
            own.add(origin_of(self.public_url))
        return given in own

    def token_matches(self, given: str | None) -> bool:
        """Whether ``given`` is this server's token (compared in constant time)."""
        return given is not None and secrets.compare_digest(given.encode(), self.token.encode())

    def base_url(self, host_header: str) -> str:
        """Where the page's scripts and websocket are: the ``--public-url``, else the
        address the browser used (its validated ``Host``), never ``0.0.0.0``."""
        if self.public_url is not None:
            return self.public_url.rstrip("/")
        return f"http://{host_header.strip()}"

    def printed_url(self, local: bool = False) -> str:
        """The address the command prints, token included (``local``: as this machine
        opens it, ``localhost``)."""
        if self.public_url is not None and not local:
            base = self.public_url.rstrip("/")
        else:
            name = "localhost" if local else self.host.strip("[]")
            if self.listens_everywhere() and not local:
                name = socket.gethostname()
            base = f"http://{url_host(name, self.port)}"
        return f"{base}/?{TOKEN_PARAMETER}={self.token}"


def websocket_url(base: str) -> str:
    """The websocket address under ``base`` (``http`` becomes ``ws``, ``https`` ``wss``)."""
    scheme, rest = base.split(":", 1)
    return ("wss:" if scheme == "https" else "ws:") + rest + "/ws"
