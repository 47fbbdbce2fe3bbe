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

from tests.support.driver import TIMEOUT, Table, duel_keyboard
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.core import until
from tests.support.fakeapi.model import (
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    RecordedRequest,
)

T = TypeVar("T")
OPENING = 20  # duels opened at once before the play phase (400 at once would outwait TIMEOUT)
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

    def _store(self, msg: FakeMessage, *, notify_members: bool = True) -> FakeMessage:
        self._by_chat.setdefault(msg.chat.id, {})[msg.message_id] = msg
        return super()._store(msg, notify_members=notify_members)

    def messages(self, chat: Any, *, include_deleted: bool = False) -> list[FakeMessage]:
        found = self._by_chat.get(self._chat(chat).id, {}).values()
        return sorted((m for m in found if include_deleted or not m.deleted),
                      key=lambda m: m.message_id)

    # --- waiting on one chat -----------------------------------------------------------------

    async def wait_in(self, chat: FakeChat, predicate: Callable[[], T | None], timeout: float,
                      what: str) -> T:
        """`wait_for`, woken only by the chat's own requests (and every RECHECK s)."""
        async def change(remaining: float) -> None:
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            waiting = self._in_chat.setdefault(chat.id, [])
            waiting.append(fut)
            try:
                await asyncio.wait({fut}, timeout=min(remaining, RECHECK))
            finally:
                if not fut.done():
                    fut.cancel()
                    waiting.remove(fut)

        return await until(predicate, timeout, change, lambda: (
            f"fake Telegram API: {what} in chat {chat.id} not met within {timeout}s"))

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

    # --- a press's answer, the opening, and what went wrong --------------------------------

    async def answer_to(self, chat: FakeChat, query: CallbackQueryRecord, wait: float) -> str:
        """How the bot answered a press: "ok", "late" (after Telegram's 15 s: refused), or
        "none" (no answer within those 15 s: Telegram would take none after; the press's move
        may be made all the same, which the player then waits for)."""
        limit = self.callback_answer_timeout
        await self.wait_in(chat, lambda: query.answered or query.id in self.refused
                           or time.monotonic() - query.created > limit,
                           wait, f"an answer to callback query {query.id}")
        return "ok" if query.answered else "late" if query.id in self.refused else "none"

    async def open(self, table: Table, room: asyncio.Semaphore) -> None:
        """tests.support.driver's open_duel (player 0 challenges, player 1 accepts), a few at
        a time (the opening is not measured), a late or missing answer to the accept let be."""
        a, b = table.players
        async with room:
            try:
                hello = self.send_message(b, table.chat, "hi there",
                                          message_thread_id=table.thread)
                last = self.newest(table.chat)
                self.send_command(a, table.chat, "duel", "", reply_to=hello,
                                  message_thread_id=table.thread)
                challenge = await self.wait_in(table.chat, lambda: next((
                    m for m in self.messages(table.chat) if m.message_id > last and m.from_bot
                    and any(d.startswith("c:") for d in m.callback_data())), None),
                    TIMEOUT, "a challenge")
                accept = next(d for d in challenge.callback_data() if d.endswith(":a"))
                query = self.press_button(b, challenge, accept)
                await self.answer_to(table.chat, query, TIMEOUT)
                await self.wait_in(table.chat, lambda: any(
                    duel_keyboard(m) for m in self.messages(table.chat)
                    if m.message_id > challenge.message_id), TIMEOUT, "the duel's first message")
            except TimeoutError as e:
                queries = [q.id for q in self.callback_queries.values()
                           if q.message.chat.id == table.chat.id]
                raise TimeoutError(f"opening the duels: {str(e).splitlines()[0]} "
                                   f"({'; '.join(self.answers(q) for q in queries)})"
                                   f"{self.trail(table.chat)}") from e

    def newest(self, chat: FakeChat) -> int:
        """The id of the bot's newest message in the chat, deleted ones included."""
        return max((m.message_id for m in self._by_chat.get(chat.id, {}).values()
                    if m.from_bot), default=0)

    def newer(self, chat: FakeChat, last: int) -> bool:
        """The bot has a live message in the chat newer than `last`."""
        return any(m.message_id > last and m.from_bot for m in self.messages(chat))

    def fate(self, update_id: int, query_id: str) -> str:
        """Whether the bot fetched a press's update, and what it answered (to tell a lost
        update or answer from a slow bot)."""
        at = self.delivered_at(update_id)
        pending = any(u["update_id"] == update_id for u in self.pending_updates)
        return (f"update {update_id} " + ("never fetched by the bot" if at is None else
                                          f"fetched {time.perf_counter() - at:.1f} s ago")
                + (", its offset not yet confirmed" if pending else "") + "; "
                + self.answers(query_id))

    def answers(self, query_id: str) -> str:
        """What the bot answered to a press, as the fake saw it."""
        sent = [f"#{r.seq} {r.status or 'in progress'} {r.params.get('text', '')}".rstrip()
                for r in self.requests
                if r.method == "answerCallbackQuery"
                and str(r.params.get("callback_query_id")) == query_id]
        return f"press {query_id}: " + (", ".join(sent) if sent else "no answerCallbackQuery")

    def trail(self, chat: FakeChat) -> str:
        """The chat's last requests to the fake (the bot's side of the story)."""
        seen = [r.summary() for r in self.requests if self.chat_of(r) == chat.id]
        return "; that chat's last requests:\n  " + "\n  ".join(seen[-6:])
