"""The fair update processor: a chat's backlog waits in its own lane, never in others' way."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from telegram import Chat, Message, Update, User

from bot.telegram.scheduling import FairUpdateProcessor, lane_key

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def update_in(chat_id: int, n: int) -> Update:
    chat = Chat(chat_id, Chat.GROUP if chat_id < 0 else Chat.PRIVATE)
    user = User(n, f"user {n}", is_bot=False)
    return Update(n, message=Message(n, WHEN, chat, from_user=user, text="/rules"))


def test_updates_are_laned_by_chat_then_user() -> None:
    assert lane_key(update_in(-5, 1)) == -5 == lane_key(update_in(-5, 2))
    assert lane_key(update_in(-6, 1)) == -6
    assert lane_key(Update(9)) is None
    assert lane_key(object()) is None


async def test_a_flooded_chat_holds_at_most_its_share_of_the_slots() -> None:
    processor = FairUpdateProcessor(total=8, per_chat=2)
    release = asyncio.Event()
    running: list[int] = []

    async def handler(chat: int) -> None:
        running.append(chat)
        await release.wait()

    flood = [asyncio.create_task(processor.process_update(update_in(-1, i), handler(-1)))
             for i in range(100)]
    await asyncio.sleep(0.01)
    assert running.count(-1) == 2  # the other 98 wait in their own lane, holding no slot
    other = asyncio.create_task(processor.process_update(update_in(-2, 999), handler(-2)))
    await asyncio.sleep(0.01)
    assert -2 in running  # started at once, while the flood is still queued
    release.set()
    await asyncio.gather(*flood, other)
    assert running.count(-1) == 100 and processor.waiting_lanes == 0


async def test_a_chat_s_updates_start_in_arrival_order() -> None:
    processor = FairUpdateProcessor(total=4, per_chat=1)
    order: list[int] = []

    async def handler(n: int) -> None:
        await asyncio.sleep(0)
        order.append(n)

    await asyncio.gather(*(processor.process_update(update_in(-1, n), handler(n))
                           for n in range(20)))
    assert order == list(range(20))


async def test_the_total_bounds_all_chats_together() -> None:
    processor = FairUpdateProcessor(total=3, per_chat=3)
    active, peak = 0, 0

    async def handler() -> None:
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        await asyncio.sleep(0.001)
        active -= 1

    await asyncio.gather(*(processor.process_update(update_in(-n, n), handler())
                           for n in range(1, 30)))
    assert peak == 3


def test_per_chat_must_fit_in_the_total() -> None:
    with pytest.raises(ValueError):
        FairUpdateProcessor(total=2, per_chat=3)


def update_from(chat_id: int, user_id: int, n: int) -> Update:
    chat = Chat(chat_id, Chat.GROUP)
    user = User(user_id, f"user {user_id}", is_bot=False)
    return Update(n, message=Message(n, WHEN, chat, from_user=user, text="/stats"))


async def test_one_member_holds_at_most_their_share_of_their_chats_slots() -> None:
    processor = FairUpdateProcessor(total=8, per_chat=4, per_member=2)
    release = asyncio.Event()
    running: list[int] = []

    async def handler(user: int) -> None:
        running.append(user)
        await release.wait()

    spam = [asyncio.create_task(processor.process_update(update_from(-1, 7, i), handler(7)))
            for i in range(30)]
    await asyncio.sleep(0.01)
    assert running == [7, 7]  # the other 28 wait in the member's own line
    player = asyncio.create_task(processor.process_update(update_from(-1, 8, 99), handler(8)))
    await asyncio.sleep(0.01)
    assert running[-1] == 8  # another member of the same chat starts at once
    release.set()
    await asyncio.gather(*spam, player)
    assert running.count(7) == 30 and processor.waiting_lanes == 0


def test_a_member_s_share_must_fit_in_the_chat_s() -> None:
    with pytest.raises(ValueError):
        FairUpdateProcessor(total=8, per_chat=2, per_member=3)
    assert FairUpdateProcessor(total=8, per_chat=1).per_member == 1
