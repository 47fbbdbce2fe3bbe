"""Logging that keeps secrets out at every level, DEBUG included.

Two mechanisms, each at the depth where the leak would happen:

* Libraries that log what they carry are capped below DEBUG: aiosqlite logs every statement
  with its parameters (a saved game holds its undealt deck and its salt), httpx logs request
  URLs (the URL holds the token). Their DEBUG lines say nothing the bot's own lines do not.
* Every line, traceback included, passes a redacting formatter that replaces each registered
  secret (the token, the webhook's secret token) and its URL-encoded form, whatever logger
  wrote it: python-telegram-bot logs the parameters of every Bot API call at DEBUG.

    logs.setup("DEBUG", secrets=[config.token])
    logs.add_secret(webhook_secret)        # one learnt later
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Iterable
from urllib.parse import quote

# Loggers whose DEBUG (or INFO) lines would carry secrets or hidden state, and the lowest
# level they may log at.
CAPPED = {
    "aiosqlite": logging.INFO,  # DEBUG: each SQL statement with its parameters
    "httpx": logging.WARNING,  # INFO: each request URL, with the token in its path
    "httpcore": logging.INFO,  # DEBUG: connection bookkeeping, noise only
}
MASK = "[secret]"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"

_secrets: set[str] = set()


def add_secret(secret: str) -> None:
    """Never print `secret` (nor its URL-encoded form) in any log line from now on."""
    if len(secret) >= 8:  # a shorter string would blank out ordinary words
        _secrets.add(secret)
        _secrets.add(quote(secret, safe=""))


def redact(text: str) -> str:
    for secret in sorted(_secrets, key=len, reverse=True):
        if secret in text:
            text = text.replace(secret, MASK)
    return text


class RedactingFormatter(logging.Formatter):
    """Formats as usual, then masks every registered secret in the whole text."""

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


def setup(level: str, secrets: Iterable[str] = ()) -> None:
    """Log to stderr at `level`, with the capped libraries held at their caps."""
    for secret in secrets:
        add_secret(secret)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter(FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    for name, cap in CAPPED.items():
        logging.getLogger(name).setLevel(max(cap, logging.getLevelName(level)))
