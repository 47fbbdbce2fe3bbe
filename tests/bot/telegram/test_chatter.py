"""Commands that only show something: a member's repeat within a few seconds is dropped, and
the answered one's sends are made as chatter (behind what a game needs)."""

from __future__ import annotations

import datetime as dt
from types import SimpleNamespace
from typing import Any, cast

from telegram import Chat, Message, Update, User
from telegram.ext import ContextTypes

from bot.storage import Storage
from bot.telegram.chatter import REPEAT_WITHIN, Repeats, shows
from bot.telegram.flood import DatabaseWindow
from bot.telegram.ratelimit import ChatRateLimiter, Priority, priority

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
CONTEXT = cast(ContextTypes.DEFAULT_TYPE, None)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def stats_from(chat_id: int, user_id: int, n: int = 1) -> Update:
    chat = Chat(chat_id, Chat.GROUP)
    user = User(user_id, f"user {user_id}", is_bot=False)
    return Update(n, message=Message(n, WHEN, chat, from_user=user, text="/stats"))


def test_a_repeat_is_one_within_the_window_per_chat_and_member() -> None:
    clock = Clock()
    repeats = Repeats(clock=clock)
    assert repeats.first(-1, 7)
    assert not repeats.first(-1, 7)
    assert repeats.first(-1, 8) and repeats.first(-2, 7)  # others, elsewhere: not repeats
    assert repeats.first(-1, 7, "/stats @bob") and not repeats.first(-1, 7, "/stats  @bob")
    clock.now += REPEAT_WITHIN - 0.1
    assert not repeats.first(-1, 7)
    clock.now += 0.2  # a while after the answered one: answered again
    assert repeats.first(-1, 7)


async def test_thirty_asks_in_a_burst_are_answered_once_as_chatter() -> None:
    seen: list[tuple[int, Priority]] = []

    async def stats(update: Update, context: Any) -> None:
        assert update.effective_user is not None
        seen.append((update.effective_user.id, priority()))

    handler = shows(stats, Repeats(clock=Clock()))
    for n in range(30):
        await handler(stats_from(-1, 7, n), CONTEXT)
    await handler(stats_from(-1, 8), CONTEXT)
    assert seen == [(7, Priority.CHATTER), (8, Priority.CHATTER)]
    assert priority() is Priority.GAME  # only the handler's own sends are chatter
    assert handler.__name__ == "stats"


async def test_with_the_shared_window_a_repeat_on_another_worker_is_one(store: Storage) -> None:
    seen: list[int] = []

    async def stats(update: Update, context: Any) -> None:
        assert update.effective_user is not None
        seen.append(update.effective_user.id)

    limiter = ChatRateLimiter(window=DatabaseWindow(store.flood))
    context = SimpleNamespace(bot=SimpleNamespace(rate_limiter=limiter))
    workers = [shows(stats, Repeats()), shows(stats, Repeats())]  # each its own memory
    for n in range(6):
        await workers[n % 2](stats_from(-1, 7, n), context)
    await workers[1](stats_from(-1, 8), context)
    assert seen == [7, 8]
