"""Pacing requests to Telegram's flood limits, with a 429 holding only the chat it was for.

Telegram allows a bot about 30 messages a second overall and 20 a minute per group (edits and
deletes count), each a sliding window: at most that many in ANY second, in ANY minute. The
counts live in a `bot.telegram.flood.Window`: this process's memory, or the database every
worker shares (`DatabaseWindow`, given at start-up with `share`), asked once per call (one
`take_all` for the bot and the chat together). Here:

* a request that carries a `chat_id` waits in its chat's queue until the chat (a group: 20
  in any 60 s) and the bot (30 in any second) both have room, neither is held, and the
  chat's previous request has its answer (one at a time per chat, so that once a 429 comes
  nothing else is on its way there; a request that takes over `IN_FLIGHT_MOST` seconds
  stops holding its chat's line), then goes;
* the queue is by priority, then arrival: what a game needs (`Priority.GAME`, the default)
  goes before replies to commands that only show something (`Priority.CHATTER`, set for the
  handler's run in its update's handling by `bot.telegram.chatter`), and a retried request
  keeps its place;
* a RetryAfter holds the chat it came for (a request without a chat, the whole bot: the only
  penalty Telegram gives the bot as a whole) for its `retry_after`, so nothing goes to that
  chat before it ends, and the request is tried again up to `max_retries` times, then the
  RetryAfter reaches the caller;
* an edit of an inline message (no chat the bot knows) waits in that message's own line and
  counts against the bot's 30 a second, as a private chat's would;
* requests without a chat (answering a button press, getUpdates) are never paced nor
  counted, and wait only for a bot-wide hold.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import heapq
import itertools
import logging
from collections import Counter
from collections.abc import Callable, Coroutine
from enum import IntEnum
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot import handling
from bot.handling import Handling
from bot.ops import metrics
from bot.telegram.flood import MemoryWindow, Take, Window
from bot.telegram.send import retry_after_seconds

log = logging.getLogger(__name__)

OVERALL_PER_SECOND = 30
GROUP_PER_MINUTE = 20
# Our clock starts a call's count when it leaves, Telegram's when it arrives: a call that
# travels faster than the one a window ago would land inside Telegram's window.
MARGIN = 0.15  # seconds added to each span
MAX_RETRIES = 3
IN_FLIGHT_MOST = 5.0  # seconds a chat's request in flight holds back the chat's next one
RECHECK = 1.0  # seconds at most between looks at a waiting chat's window (it may be shared)
BOT = "bot"  # the window key of the bot as a whole

Result = bool | dict[str, Any] | list[dict[str, Any]]
Key = int | str


class Priority(IntEnum):
    GAME = 0  # a table, a result: what a game needs to go on
    CHATTER = 1  # a reply to a command that only shows something


def priority(within: Handling | None = None) -> Priority:
    """The priority of the sends made now: CHATTER within a handler that only shows something
    (its update's handling says so: `within`, else the current one), else GAME."""
    found = within if within is not None else handling.current()
    return Priority.CHATTER if found is not None and found.chatter else Priority.GAME


INLINE = "inline:"  # the key of an inline message's line (Telegram says of no chat it is in)


def chat_key(data: dict[str, Any]) -> Key | None:
    chat_id = data.get("chat_id")
    if chat_id is None:
        inline = data.get("inline_message_id")  # paced as a chat of its own, not a group's
        return None if inline is None else f"{INLINE}{inline}"
    with contextlib.suppress(TypeError, ValueError):
        return int(chat_id)
    return str(chat_id)  # @channelusername


def is_group(key: Key | None) -> bool:
    if isinstance(key, str):
        return not key.startswith(INLINE)  # @channelusername
    return isinstance(key, int) and key < 0


def window_key(key: Key) -> str:
    return f"chat:{key}"


# priority, arrival (unique: the tuple never compares further), its turn, its call's end
_Waiter = tuple[int, int, "asyncio.Future[None]", asyncio.Event]


class ChatRateLimiter(BaseRateLimiter[int]):
    def __init__(self, overall_per_second: int = OVERALL_PER_SECOND,
                 group_per_minute: int = GROUP_PER_MINUTE,
                 max_retries: int = MAX_RETRIES, window: Window | None = None) -> None:
        self.window: Window = window if window is not None else MemoryWindow()
        self._overall = overall_per_second
        self._group = group_per_minute
        self._max_retries = max_retries
        self._queues: dict[Key, list[_Waiter]] = {}
        self._pumps: dict[Key, asyncio.Task[None]] = {}
        self._arrivals = itertools.count()
        self._flying: Counter[Key] = Counter()  # each chat's requests waiting for their answer

    def share(self, window: Window) -> None:
        """Count in `window` from now on (the database's, once storage is open)."""
        self.window = window

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        for task in list(self._pumps.values()):
            task.cancel()

    async def room(self, chat_id: int, spare: int = 3) -> bool:
        """Could a call for this chat go now, nothing of its own waiting, and still leave
        `spare` more for it (nothing held)? A call that can wait (deleting old messages) asks
        first, so it never delays one that cannot."""
        if self._queues.get(chat_id) or self._flying[chat_id]:
            return False
        wkey = window_key(chat_id)
        if is_group(chat_id):  # free() is 0 while held
            if await self.window.free(wkey, self._group, 60 + MARGIN) < spare + 1:
                return False
        elif await self.window.held(wkey) > 0:
            return False
        return await self.window.free(BOT, self._overall, 1 + MARGIN) >= 1

    async def _turn(self, key: Key, priority: int, arrival: int) -> asyncio.Event:
        """Wait until this request's chat and the bot have room for it, in queue order; the
        caller sets the event it returns once its call has its answer."""
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done = asyncio.Event()
        heapq.heappush(self._queues.setdefault(key, []), (priority, arrival, turn, done))
        if key not in self._pumps:
            # A context of its own: the pump outlives the call that started it, and must not
            # count in that call's database transaction, if it is inside one.
            self._pumps[key] = asyncio.get_running_loop().create_task(
                self._pump(key), context=contextvars.Context())
        try:
            await turn
        except asyncio.CancelledError:
            done.set()  # cancelled, its turn given or not: it holds nothing
            raise
        return done

    async def _pump(self, key: Key) -> None:
        """Hand out the chat's turns, best first, as the window allows."""
        queue = self._queues[key]
        try:
            while queue:
                if queue[0][2].done():  # its caller was cancelled
                    heapq.heappop(queue)
                    continue
                wait = await self._wait_for(key)
                if wait > 0:
                    await asyncio.sleep(min(wait, RECHECK))
                    continue
                _, _, turn, done = heapq.heappop(queue)
                turn.set_result(None)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), IN_FLIGHT_MOST)
        finally:
            del self._pumps[key]
            if not queue:
                self._queues.pop(key, None)

    async def _wait_for(self, key: Key) -> float:
        """0.0 having counted a call for `key` (a group's, in its window) and the bot, else
        the seconds to wait (neither held, both with room, or nothing counted)."""
        wkey = window_key(key)
        takes = [Take(BOT, self._overall, 1 + MARGIN)]
        if is_group(key):
            takes.append(Take(wkey, self._group, 60 + MARGIN))
        return await self.window.take_all(takes, held=(wkey,))

    async def _bot_hold(self) -> None:
        while (wait := await self.window.held(BOT)) > 0:
            await asyncio.sleep(min(wait, RECHECK))

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
        rank, arrival = priority(), next(self._arrivals)  # kept across retries
        for attempt in range(retries + 1):
            done = None
            if key is None:
                await self._bot_hold()
            else:
                done = await metrics.flood_wait(self._turn(key, rank, arrival))
                self._flying[key] += 1
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as e:
                if attempt == retries:
                    raise
                delay = retry_after_seconds(e) + 0.1
                await self.window.hold(BOT if key is None else window_key(key), delay)
                log.info("%s: flood limit in %s, holding it %.1f s", endpoint,
                         "the bot" if key is None else f"chat {key}", delay)
            finally:
                if done is not None and key is not None:
                    self._flying[key] -= 1
                    if not self._flying[key]:
                        del self._flying[key]
                    done.set()  # held first, then the line moves: the hold applies to it
        raise AssertionError("unreachable")  # pragma: no cover
