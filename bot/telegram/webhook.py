"""Webhook mode's settings: the secret Telegram sends back with every update, and the path served.

Telegram puts the secret given to setWebhook in the `X-Telegram-Bot-Api-Secret-Token` header of
every update it delivers; python-telegram-bot's webhook server answers 403 to a request without
it, so nobody who merely reaches the port can post updates. The secret is
SIXSHOOTER_WEBHOOK_SECRET when set, else one generated on first start and kept in the database
(`bot_meta`), so a restart registers the same one.
"""

from __future__ import annotations

import re
import secrets
import socket

from bot import logs
from bot.config import Config
from bot.storage import Storage

SECRET_KEY = "webhook_secret"


def new_secret() -> str:
    """43 characters of A-Z a-z 0-9 _ - (256 random bits), as Telegram allows."""
    return secrets.token_urlsafe(32)


async def secret(config: Config) -> str:
    """The webhook's secret, registered with bot.logs so no log line shows it."""
    value = config.webhook_secret
    if value is None:
        storage = await Storage.open(config.database)  # runs the migrations: bot_meta exists
        try:
            value = await storage.meta.get_or_create(SECRET_KEY, new_secret)
        finally:
            await storage.close()
    logs.add_secret(value)
    return value


def url_path(config: Config) -> str:
    """The webhook URL's path as python-telegram-bot's `url_path` (its server matches it as a
    regular expression, so `.`, `+` or `(` in the path are escaped)."""
    return re.escape(config.webhook_path)


def check_listen(config: Config) -> None:
    """OSError now if the webhook's address and port cannot be bound (in use, not this host's),
    rather than after setWebhook has told Telegram to deliver there."""
    family = socket.AF_INET6 if ":" in config.webhook_listen else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server will
        probe.bind((config.webhook_listen, config.webhook_port))
