"""The rate limiter: a 429 holds the chat it was for (not the bot) until it ends; a group's
budget is a window of 20 calls in any minute; a game's calls go before chatter's."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

import pytest
from telegram.error import RetryAfter

from bot import handling
from bot.handling import Handling
from bot.storage import Storage
from bot.telegram import ratelimit
from bot.telegram.flood import DatabaseWindow, MemoryWindow
from bot.telegram.ratelimit import ChatRateLimiter, chat_key, is_group

# RetryAfter's own constructor reads its int form (PTB 22 moving to timedelta).
pytestmark = pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")


def test_chat_keys() -> None:
    assert chat_key({"chat_id": -100}) == -100 and chat_key({"chat_id": "7"}) == 7
    assert chat_key({"chat_id": "@channel"}) == "@channel" and chat_key({}) is None
    assert is_group(-5) and is_group("@channel") and not is_group(5) and not is_group(None)
    # An inline message's edit: a line of its own, paced as a private chat's (the bot's 30 a
    # second), not a group's 20 a minute.
    inline = chat_key({"inline_message_id": "AgAAAFcX-_x"})
    assert inline == "inline:AgAAAFcX-_x" and not is_group(inline)


class Calls:
    """A stand-in for the Bot API call: a RetryAfter for the first `refuse` calls of a chat."""

    def __init__(self, refuse: dict[object, int], retry_after: int = 1) -> None:
        self.refuse = dict(refuse)
        self.retry_after = retry_after
        self.done: list[object] = []

    def make(self, chat: object) -> Any:
        async def call() -> bool:
            if self.refuse.get(chat, 0) > 0:
                self.refuse[chat] -= 1
                raise RetryAfter(self.retry_after)
            self.done.append(chat)
            return True
        return call


async def send(limiter: ChatRateLimiter, calls: Calls, chat: object, endpoint: str) -> object:
    data = {} if chat is None else {"chat_id": chat}
    return await limiter.process_request(calls.make(chat), (), {}, endpoint, data, None)


async def test_a_429_pauses_only_its_own_chat() -> None:
    limiter = ChatRateLimiter()
    calls = Calls({-1: 1})
    first = asyncio.create_task(send(limiter, calls, -1, "sendMessage"))
    await asyncio.sleep(0.05)  # -1 got its 429 and is paused for a second
    await asyncio.wait_for(send(limiter, calls, -2, "sendMessage"), 0.5)
    await asyncio.wait_for(send(limiter, calls, None, "answerCallbackQuery"), 0.5)
    assert calls.done == [-2, None]  # other chats and button answers went on meanwhile
    await first
    assert calls.done == [-2, None, -1]  # and the paused chat's request was retried


async def test_a_chat_paused_by_a_429_waits_for_all_its_requests() -> None:
    limiter = ChatRateLimiter()
    calls = Calls({-1: 1})
    first = asyncio.create_task(send(limiter, calls, -1, "sendMessage"))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(send(limiter, calls, -1, "editMessageText"))
    await asyncio.sleep(0.3)
    assert calls.done == []  # the same chat's next request respects the pause too
    await asyncio.gather(first, second)
    assert calls.done == [-1, -1]


async def test_retry_after_reaches_the_caller_after_max_retries() -> None:
    limiter = ChatRateLimiter(max_retries=1)
    calls = Calls({-1: 5}, retry_after=0)
    with pytest.raises(RetryAfter):
        await send(limiter, calls, -1, "sendMessage")
    assert calls.refuse[-1] == 3  # tried twice: once and one retry


async def test_a_group_is_paced_to_its_limit_and_others_are_not() -> None:
    limiter = ChatRateLimiter(group_per_minute=3)
    calls = Calls({})
    for _ in range(3):  # what a group may have in any minute
        await asyncio.wait_for(send(limiter, calls, -1, "sendMessage"), 0.5)
    paced = asyncio.create_task(send(limiter, calls, -1, "sendMessage"))
    await asyncio.sleep(0.1)
    assert not paced.done()  # the fourth waits for the first's minute to end
    for _ in range(5):  # a private chat and another group are not held up
        await asyncio.wait_for(send(limiter, calls, 42, "sendMessage"), 0.5)
    await asyncio.wait_for(send(limiter, calls, -2, "sendMessage"), 0.5)
    paced.cancel()


async def test_room_keeps_a_groups_last_calls_for_sends_and_says_no_while_paused() -> None:
    limiter = ChatRateLimiter(group_per_minute=6)
    calls = Calls({-3: 1})
    assert await limiter.room(-1) and await limiter.room(5)
    for _ in range(2):
        await send(limiter, calls, -1, "sendPhoto")
    assert await limiter.room(-1)  # 2 of 6 used: one more still leaves 3 spare
    await send(limiter, calls, -1, "sendPhoto")
    assert not await limiter.room(-1)  # a cleanup now would eat into the last 3
    assert await limiter.room(-2) and await limiter.room(5)  # other chats: untouched
    paused = asyncio.create_task(send(limiter, calls, -3, "sendMessage"))
    await asyncio.sleep(0.05)  # -3 got a 429: held for a second
    assert not await limiter.room(-3)
    await paused
    assert await limiter.room(-3)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    monkeypatch.setattr(ratelimit, "RECHECK", 0.01)  # the window's clock is the test's
    return Clock()


async def chatter(limiter: ChatRateLimiter, calls: Calls, chat: object) -> object:
    with handling.within(Handling()) as within:  # this task's own update
        within.chatter = True
        return await send(limiter, calls, chat, "sendMessage")


async def test_when_the_budget_is_short_a_game_goes_before_chatter(clock: Clock) -> None:
    limiter = ChatRateLimiter(group_per_minute=1, window=MemoryWindow(clock))
    calls = Calls({})
    order: list[str] = []

    async def labelled(label: str, call: Any) -> None:
        await call
        order.append(label)

    await send(limiter, calls, -1, "sendMessage")  # the minute's one call
    waiting = [asyncio.create_task(labelled(f"stats {n}", chatter(limiter, calls, -1)))
               for n in range(3)]
    await asyncio.sleep(0.05)
    table = asyncio.create_task(labelled("table", send(limiter, calls, -1, "sendPhoto")))
    await asyncio.sleep(0.05)
    assert order == [] and not await limiter.room(-1)
    for _ in range(4):
        clock.now += 61
        await asyncio.sleep(0.05)
    await asyncio.gather(*waiting, table)
    assert order == ["table", "stats 0", "stats 1", "stats 2"]  # then chatter, in order


async def test_a_429_holds_its_chat_for_its_retry_after_and_keeps_the_order(
        clock: Clock) -> None:
    limiter = ChatRateLimiter(window=MemoryWindow(clock))
    calls = Calls({-1: 1}, retry_after=30)
    first = asyncio.create_task(send(limiter, calls, -1, "sendMessage"))
    await asyncio.sleep(0.05)  # refused: -1 is held 30 s
    later = [asyncio.create_task(send(limiter, calls, -1, "editMessageText")) for _ in range(3)]
    await asyncio.wait_for(send(limiter, calls, -2, "sendMessage"), 0.5)  # others go on
    clock.now += 29.9
    await asyncio.sleep(0.05)
    assert calls.done == [-2]  # nothing went to -1 before the 30 s ended
    clock.now += 0.3
    await asyncio.wait_for(asyncio.gather(first, *later), 1)
    assert calls.done == [-2, -1, -1, -1, -1]


async def test_the_bot_is_paced_to_its_overall_limit_in_any_second(clock: Clock) -> None:
    limiter = ChatRateLimiter(overall_per_second=5, window=MemoryWindow(clock))
    calls = Calls({})
    tasks = [asyncio.create_task(send(limiter, calls, n, "sendMessage")) for n in range(1, 8)]
    await asyncio.sleep(0.05)
    assert len(calls.done) == 5
    await asyncio.wait_for(send(limiter, calls, None, "answerCallbackQuery"), 0.5)  # unpaced
    clock.now += 1.2
    await asyncio.wait_for(asyncio.gather(*tasks), 1)
    assert len(calls.done) == 8


async def test_a_chat_has_one_request_on_its_way_at_a_time() -> None:
    limiter = ChatRateLimiter()
    answer = asyncio.Event()
    started: list[str] = []

    def call(label: str, wait: bool) -> Any:
        async def run() -> bool:
            started.append(label)
            if wait:
                await answer.wait()
            return True
        return run

    async def go(label: str, chat: int, wait: bool = False) -> object:
        return await limiter.process_request(call(label, wait), (), {}, "sendMessage",
                                             {"chat_id": chat}, None)

    slow = asyncio.create_task(go("slow", -1, wait=True))
    await asyncio.sleep(0.02)
    second = asyncio.create_task(go("second", -1))
    await asyncio.wait_for(go("elsewhere", -2), 0.5)
    await asyncio.sleep(0.05)
    assert started == ["slow", "elsewhere"]  # -1's next waits for the answer to its first
    answer.set()
    await asyncio.wait_for(asyncio.gather(slow, second), 0.5)
    assert started == ["slow", "elsewhere", "second"]


# --- paced by the window every worker shares ----------------------------------------------

async def until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


async def test_a_limiter_paced_by_the_database_window(clock: Clock, store: Storage) -> None:
    limiter = ChatRateLimiter(group_per_minute=3, window=DatabaseWindow(store.flood, clock))
    calls = Calls({})
    tasks = [asyncio.create_task(send(limiter, calls, -1, "sendMessage")) for _ in range(5)]
    await until(lambda: len(calls.done) == 3)
    await asyncio.sleep(0.2)  # the clock stands still: the window stays full
    assert len(calls.done) == 3 and not await limiter.room(-1)
    clock.now += 61
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert calls.done == [-1] * 5


@pytest.fixture
async def limiters(database: str, clock: Clock) -> AsyncIterator[list[ChatRateLimiter]]:
    """Three workers' limiters sharing one PostgreSQL database's window."""
    if not database.startswith("postgresql"):
        pytest.skip("several workers share PostgreSQL")
    stores = [await Storage.open(database) for _ in range(3)]
    yield [ChatRateLimiter(window=DatabaseWindow(s.flood, clock)) for s in stores]
    for s in stores:
        await s.close()


async def test_three_workers_send_a_group_at_most_20_a_minute(
        clock: Clock, limiters: list[ChatRateLimiter]) -> None:
    calls = Calls({})
    tasks = [asyncio.create_task(send(limiter, calls, -5, "sendMessage"))
             for limiter in limiters for _ in range(10)]
    await until(lambda: len(calls.done) == 20)
    await asyncio.sleep(0.3)  # the clock stands still: no 21st
    assert len(calls.done) == 20
    clock.now += 61
    await asyncio.wait_for(asyncio.gather(*tasks), 10)
    assert len(calls.done) == 30


async def test_a_429_one_worker_got_holds_the_chat_for_every_worker(
        clock: Clock, limiters: list[ChatRateLimiter]) -> None:
    a, b, _ = limiters
    calls = Calls({-5: 1}, retry_after=30)
    first = asyncio.create_task(send(a, calls, -5, "sendMessage"))
    await until(lambda: calls.refuse[-5] == 0)  # refused: -5 held 30 s, in the database
    await until(lambda: a._flying[-5] == 0)
    other = asyncio.create_task(send(b, calls, -5, "editMessageText"))
    await asyncio.wait_for(send(b, calls, -6, "sendMessage"), 10)  # other chats go on
    await asyncio.sleep(0.2)
    assert calls.done == [-6] and not await b.room(-5)
    clock.now += 30.2
    await asyncio.wait_for(asyncio.gather(first, other), 10)
    assert sorted(map(str, calls.done)) == ["-5", "-5", "-6"]
