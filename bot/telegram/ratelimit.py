"""Pacing requests to Telegram's flood limits, with a 429 pausing only the chat it was for.

Telegram asks bots to stay under about 30 messages a second overall and 20 a minute per group
(edits and deletes count). python-telegram-bot's `AIORateLimiter` paces both, but a 429
(RetryAfter) for any one chat pauses *every* request of the bot, button answers included, so
one busy group freezes all the others for the length of its penalty. Here:

* requests that carry a `chat_id` pass the overall limit, and a group's also its own limit;
* a RetryAfter pauses the chat it came for (a request without a chat, the whole bot: that
  is the only penalty Telegram gives to the bot as a whole), and the request is tried again up
  to `max_retries` times, then the RetryAfter reaches the caller;
* requests without a chat (answering a button press, getUpdates) are never paced and wait
  only for a bot-wide penalty.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from aiolimiter import AsyncLimiter
from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.telegram.send import retry_after_seconds

log = logging.getLogger(__name__)

OVERALL_PER_SECOND = 30
GROUP_PER_MINUTE = 20
MAX_RETRIES = 3
KEEP_LIMITERS = 1024  # groups whose limiter is kept while idle; beyond it, drained ones go
_BOT = "bot"  # the key of a bot-wide pause

Result = bool | dict[str, Any] | list[dict[str, Any]]


def chat_key(data: dict[str, Any]) -> int | str | None:
    chat_id = data.get("chat_id")
    if chat_id is None:
        return None
    with contextlib.suppress(TypeError, ValueError):
        return int(chat_id)
    return str(chat_id)  # @channelusername


def is_group(key: int | str | None) -> bool:
    return isinstance(key, str) or (isinstance(key, int) and key < 0)


class ChatRateLimiter(BaseRateLimiter[int]):
    def __init__(self, overall_per_second: float = OVERALL_PER_SECOND,
                 group_per_minute: float = GROUP_PER_MINUTE,
                 max_retries: int = MAX_RETRIES) -> None:
        self._overall = AsyncLimiter(overall_per_second, 1)
        self._group_rate = group_per_minute
        self._groups: dict[int | str, AsyncLimiter] = {}
        self._max_retries = max_retries
        self._paused_until: dict[int | str, float] = {}  # loop time; _BOT for the whole bot

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass

    def _group(self, key: int | str) -> AsyncLimiter:
        limiter = self._groups.get(key)
        if limiter is None:
            if len(self._groups) >= KEEP_LIMITERS:
                drained = [k for k, v in self._groups.items() if v.has_capacity(v.max_rate)]
                for k in drained:
                    del self._groups[k]
            limiter = self._groups[key] = AsyncLimiter(self._group_rate, 60)
        return limiter

    def room(self, chat_id: int, spare: int = 3) -> bool:
        """Could a call for this chat go now and still leave `spare` more for it (nothing
        paused)? A call that can wait (deleting old messages) asks first, so it never
        delays one that cannot."""
        loop = asyncio.get_running_loop()
        if any(self._paused_until.get(k, 0.0) > loop.time() for k in (_BOT, chat_id)):
            return False
        if is_group(chat_id) and not self._group(chat_id).has_capacity(spare + 1):
            return False
        return self._overall.has_capacity(1)

    async def _wait_out(self, key: int | str | None) -> None:
        """Sleep through any pause that applies to `key` (the bot's, then the chat's)."""
        loop = asyncio.get_running_loop()
        for k in (_BOT, key):
            if k is None:
                continue
            until = self._paused_until.get(k)
            while until is not None and until > loop.time():
                await asyncio.sleep(until - loop.time())
                until = self._paused_until.get(k)
            self._paused_until.pop(k, None)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Result]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Result:
        key = chat_key(data)
        retries = self._max_retries if rate_limit_args is None else rate_limit_args
        for attempt in range(retries + 1):
            await self._wait_out(key)
            try:
                if key is None:
                    return await callback(*args, **kwargs)
                if is_group(key):
                    await self._group(key).acquire()
                await self._overall.acquire()
                return await callback(*args, **kwargs)
            except RetryAfter as e:
                if attempt == retries:
                    raise
                delay = retry_after_seconds(e) + 0.1
                paused = _BOT if key is None else key
                loop = asyncio.get_running_loop()
                self._paused_until[paused] = max(self._paused_until.get(paused, 0.0),
                                                 loop.time() + delay)
                log.info("%s: flood limit in %s, pausing it %.1f s", endpoint,
                         "the bot" if key is None else f"chat {key}", delay)
        raise AssertionError("unreachable")  # pragma: no cover
