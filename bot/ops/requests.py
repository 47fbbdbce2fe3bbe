"""The one place that sees every Bot API call: the bot's request class (bot.telegram.http), counted.

`MeteredRequest` is the bot's request class (bot.app gives it to the builder for sends and
for getUpdates). Each call is counted by its method (the URL's last segment, never the token's)
and its outcome: "ok", "retry_after" for a 429, else the error class python-telegram-bot raises
for the HTTP status (bad_request, forbidden, invalid_token, conflict, server_error, ...) or for
the transport (timed_out, network_error).
"""

from __future__ import annotations

from typing import Any

from telegram.error import TimedOut

from bot.ops import metrics
from bot.telegram.http import AiohttpRequest

# HTTP status -> the error class python-telegram-bot turns it into (snake_case).
_STATUS = {400: "bad_request", 401: "invalid_token", 403: "forbidden", 404: "invalid_token",
           409: "conflict", 429: "retry_after", 502: "network_error"}


def outcome_of(status: int) -> str:
    if 200 <= status < 300:
        return "ok"
    if status in _STATUS:
        return _STATUS[status]
    return "server_error" if status >= 500 else "error"


class MeteredRequest(AiohttpRequest):
    async def do_request(self, url: str, method: str, *args: Any,
                         **kwargs: Any) -> tuple[int, bytes]:
        """The request (python-telegram-bot's arguments, passed on), counted."""
        name = metrics.method_of(url)
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
        except TimedOut:
            metrics.bot_api_call(name, "timed_out")
            raise
        except Exception:
            metrics.bot_api_call(name, "network_error")
            raise
        metrics.bot_api_call(name, outcome_of(status))
        return status, payload
