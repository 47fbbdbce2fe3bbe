"""The fake Bot API as bench/bot_load.py drives it: hundreds of players waiting at once.

The fake's own `wait_for` wakes every waiter on every change and its `messages(chat)` looks
through every chat's messages, so with N duels each change costs N wake-ups and each look N
chats' messages: the bench's own CPU grew as N² (at 50 duels it was already as busy as the
bot) and, on a machine of two cores, took the bot's. Here a player waits on its own chat
(`wait_in`): woken when a request about that chat is answered (the bot's sends, edits,
deletions and a press's answer; a request of another kind that the fake cannot place wakes
every player), and a chat's messages are indexed. It also notes when each update left the
fake, to time taps, and which presses' answers it refused as too late (as Telegram does, 15 s
after the press): such a press is never answered, and its player must not wait for it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any, TypeVar

from aiohttp import web

from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, FakeMessage, RecordedRequest

T = TypeVar("T")
RECHECK = 0.5  # seconds: a player looks again even if nothing woke it (a change missed)
# Requests about no chat, that change nothing a player looks at: they wake nobody.
CHATLESS = frozenset({"getUpdates", "getMe", "setMyCommands", "deleteMyCommands", "setWebhook",
                      "deleteWebhook", "getWebhookInfo", "setMyName", "setMyDescription",
                      "setMyShortDescription", "setMyDefaultAdministratorRights"})


class TimedFake(FakeTelegramAPI):
    """The fake, noting when each update left in a getUpdates response (or, webhook, in the
    first POST that carried it), with per-chat waits and a per-chat message index."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.delivered: dict[int, float] = {}
        self._posts_seen = 0
        self._by_chat: dict[int, dict[int, FakeMessage]] = {}
        self._in_chat: dict[int, list[asyncio.Future[None]]] = {}
        self.refused: dict[str, float] = {}  # query id -> when its answer came too late

    def delivered_at(self, update_id: int) -> float | None:
        posts = self._delivery.deliveries
        for d in posts[self._posts_seen:]:  # the perf_counter moment of the first POST
            self.delivered.setdefault(d.update_id, time.perf_counter() - (time.time() - d.started))
        self._posts_seen = len(posts)
        return self.delivered.get(update_id)

    async def get_updates(self, params: Any, uploads: Any) -> list[Any]:
        batch = await super().get_updates(params, uploads)
        now = time.perf_counter()
        for update in batch:
            self.delivered.setdefault(update["update_id"], now)
        return batch

    # --- one chat's messages -----------------------------------------------------------------

    def _store(self, msg: FakeMessage) -> FakeMessage:
        self._by_chat.setdefault(msg.chat.id, {})[msg.message_id] = msg
        return super()._store(msg)

    def messages(self, chat: Any, *, include_deleted: bool = False) -> list[FakeMessage]:
        found = self._by_chat.get(self._chat(chat).id, {}).values()
        return sorted((m for m in found if include_deleted or not m.deleted),
                      key=lambda m: m.message_id)

    # --- waiting on one chat -----------------------------------------------------------------

    async def wait_in(self, chat: FakeChat, predicate: Callable[[], T | None], timeout: float,
                      what: str) -> T:
        """`wait_for`, woken only by the chat's own requests (and every RECHECK s)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"fake Telegram API: {what} in chat {chat.id} not met "
                                   f"within {timeout}s")
            fut: asyncio.Future[None] = loop.create_future()
            waiting = self._in_chat.setdefault(chat.id, [])
            waiting.append(fut)
            try:
                await asyncio.wait({fut}, timeout=min(remaining, RECHECK))
            finally:
                if not fut.done():
                    fut.cancel()
                    waiting.remove(fut)

    def _respond(self, record: RecordedRequest, status: int, payload: Any) -> web.Response:
        response = super()._respond(record, status, payload)
        if record.method == "answerCallbackQuery" and status != 200:
            self.refused.setdefault(str(record.params.get("callback_query_id")),
                                    time.perf_counter())
        chat = self.chat_of(record)
        if chat is None and record.method in CHATLESS:
            return response
        for chat_id in list(self._in_chat) if chat is None else [chat]:
            waiting = self._in_chat.pop(chat_id, [])
            for fut in waiting:
                if not fut.done():
                    fut.set_result(None)
        return response

    def chat_of(self, record: RecordedRequest) -> int | None:
        """The chat a request is about (None: unknown, e.g. getUpdates)."""
        params = record.params
        if "callback_query_id" in params:
            query = self.callback_queries.get(str(params["callback_query_id"]))
            return None if query is None else query.message.chat.id
        try:
            return int(params["chat_id"])
        except (KeyError, TypeError, ValueError):
            return None
