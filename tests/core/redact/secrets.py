"""Thirty kinds of real-looking (fake, random) secrets, and recordings of every agent
seeded with them in prompts, arguments, outputs, diffs and file names."""

from __future__ import annotations

import hashlib
import random
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

AGENTS_DIR = DIALECTS = Path(__file__).resolve().parents[2] / "fixtures" / "dialects"
HOME = "/home/mallory-the-dev"
"""A home directory the seeded paths live under (it must come out as ~)."""

_rng = random.Random(29)
_ALNUM = string.ascii_letters + string.digits
_HEX = "0123456789abcdef"


def _pick(alphabet: str, n: int) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


@dataclass(frozen=True)
class Secret:
    """A secret as it is seeded (``text``), and the random part that must not leak."""

    kind: str
    text: str
    core: str


def _secret(kind: str, prefix: str, core: str, suffix: str = "") -> Secret:
    return Secret(kind, prefix + core + suffix, core)


def _pem() -> Secret:
    body = _pick(_ALNUM + "+/", 64 * 6)
    lines = "\n".join(body[i : i + 64] for i in range(0, len(body), 64))
    text = f"-----BEGIN RSA PRIVATE KEY-----\n{lines}\n-----END RSA PRIVATE KEY-----"
    return Secret("private-key", text, body)


def _jwt() -> Secret:
    head = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
    payload = "eyJ" + _pick(_ALNUM, 40)
    sig = _pick(_ALNUM + "_-", 43)
    return Secret("jwt", f"{head}.{payload}.{sig}", payload[3:] + sig)


def _openai() -> Secret:
    a, b = _pick(_ALNUM, 20), _pick(_ALNUM, 20)
    return Secret("openai-api-key", f"sk-{a}T3BlbkFJ{b}", a + b)


SECRETS: tuple[Secret, ...] = (
    _secret("aws-access-token", "AKIA", _pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)),
    _secret("github-pat", "ghp_", _pick(_ALNUM, 36)),
    _secret("github-fine-grained-pat", "github_pat_", _pick(_ALNUM + "_", 82)),
    _secret("github-oauth", "gho_", _pick(_ALNUM, 36)),
    _secret("github-app-token", "ghs_", _pick(_ALNUM, 36)),
    _secret("gitlab-pat", "glpat-", _pick(_ALNUM, 20)),
    _secret("slack-bot-token", "xoxb-1234567890-1234567890-", _pick(_ALNUM, 24)),
    _secret("slack-webhook-url", "https://hooks.slack.com/services/", _pick(_ALNUM, 44)),
    _secret("stripe-access-token", "sk_live_", _pick(_ALNUM, 24)),
    _openai(),
    _secret("anthropic-api-key", "sk-ant-api03-", _pick(_ALNUM, 93), "AA"),
    _secret("gcp-api-key", "AIza", _pick(_ALNUM, 35)),
    _pem(),
    _jwt(),
    _secret("npm-access-token", "npm_", _pick(_ALNUM.lower(), 36)),
    _secret("pypi-upload-token", "pypi-AgEIcHlwaS5vcmc", _pick(_ALNUM, 60)),
    _secret("twilio-api-key", "SK", _pick(_HEX, 32)),
    _secret("sendgrid-api-token", "SG.", _pick(_ALNUM, 66)),
    _secret("huggingface-access-token", "hf_", _pick(string.ascii_letters, 34)),
    _secret("digitalocean-pat", "dop_v1_", _pick(_HEX, 64)),
    _secret("shopify-access-token", "shpat_", _pick(_HEX, 32)),
    _secret("generic-api-key", 'api_secret = "', _pick(_ALNUM, 32), '"'),
    _secret(
        "heroku-api-key",
        "HEROKU_API_KEY=",
        f"{_pick(_HEX, 8)}-{_pick(_HEX, 4)}-{_pick(_HEX, 4)}-{_pick(_HEX, 4)}-{_pick(_HEX, 12)}",
    ),
    _secret("databricks-api-token", "dapi", _pick(_HEX, 32)),
    _secret("doppler-api-token", "dp.pt.", _pick(_ALNUM, 43)),
    _secret("linear-api-key", "lin_api_", _pick(_ALNUM, 40)),
    _secret("postman-api-token", "PMAK-", f"{_pick(_HEX, 24)}-{_pick(_HEX, 34)}"),
    _secret("url-password", "postgres://admin:", _pick(_ALNUM, 24), "@db.internal:5432/app"),
    _secret("square-access-token", "sq0atp-", _pick(_ALNUM, 22)),
    _secret("telegram-bot-api-token", "telegram_bot_token = 123456789:AA", _pick(_ALNUM, 33)),
)

assert len({secret.kind for secret in SECRETS}) == 30


def _choose(text: str, salt: str) -> Secret:
    """The secret a string gets: the same string always gets the same one."""
    digest = hashlib.blake2b((salt + text).encode(), digest_size=4).digest()
    return SECRETS[int.from_bytes(digest, "big") % len(SECRETS)]


FILE_NAMES = tuple(s for s in SECRETS if not any(c in s.text for c in '/ :"\n'))
"""The secrets a file name can hold as they are."""


def _choose_file_name(text: str) -> str:
    digest = hashlib.blake2b(text.encode(), digest_size=4).digest()
    return FILE_NAMES[int.from_bytes(digest, "big") % len(FILE_NAMES)].text


def _seed_string(text: str) -> str:
    """``text`` with a secret in it: prose, commands, outputs and diffs get one whole
    and one wrapped across two lines; a path gets one in a file name under HOME."""
    if " " in text or "\n" in text:
        whole = _choose(text, "whole").text
        cut = _choose(text, "wrapped").text
        middle = len(cut) // 2
        return f"{text} {whole} \n{cut[:middle]}\n{cut[middle:]}\n+token = {whole}\n"
    if ("/" in text and not text.startswith(("http", "/"))) or text.startswith("/"):
        name = _choose_file_name(text)
        return f"{HOME}/{name}/{text.lstrip('/')}"
    return text


def _seed(value: Any) -> Any:
    if isinstance(value, str):
        return _seed_string(value)
    if isinstance(value, list):
        return [_seed(item) for item in value]
    if isinstance(value, dict):
        return {key: _seed(item) for key, item in value.items()}
    return value


def seeded(path: Path) -> bytes:
    """The recording ``path`` with secrets in every string that holds text."""
    out = []
    for line in path.read_bytes().splitlines():
        try:
            out.append(orjson.dumps(_seed(orjson.loads(line))))
        except orjson.JSONDecodeError:
            out.append(line)
    return b"\n".join(out) + b"\n"


def one_recording_per_agent() -> dict[str, Path]:
    """A recording of each agent: its ``success-tools`` fixture when it has one."""
    chosen = {}
    for folder in sorted(p for p in DIALECTS.iterdir() if p.is_dir()):
        files = sorted(p for p in folder.iterdir() if p.suffix in (".jsonl", ".ndjson"))
        named = [p for p in files if p.stem.startswith("success")]
        chosen[folder.name] = (named or files)[0]
    return chosen


def leaks(output: str) -> list[str]:
    """The kinds of secret whose random part (or any 12 characters of it) ``output``
    holds, whitespace and line breaks taken out (a secret split across lines or SVG
    rows is found too), and the seeded home directory if it is there."""
    flat = "".join(output.split())
    found = []
    for secret in SECRETS:
        core = "".join(secret.core.split())
        windows = (core[i : i + 12] for i in range(0, max(1, len(core) - 11), 4))
        if any(window in flat for window in windows):
            found.append(secret.kind)
    if HOME in output:
        found.append("home")
    return found
