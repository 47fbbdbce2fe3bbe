"""A press is answered within a second: one its handler has not answered by then (it waits
for a place in line, or for its game's lock) is acknowledged quietly, once."""

from __future__ import annotations

import asyncio
from typing import Any

from telegram import CallbackQuery, Update, User

from bot.telegram import press_ack


class FakeBot:
    def __init__(self) -> None:
        self.answers: list[tuple[str, str | None]] = []

    async def answer_callback_query(self, callback_query_id: str, text: str | None = None,
                                    **kw: Any) -> bool:
        self.answers.append((callback_query_id, text))
        return True


def press(bot: FakeBot, n: int = 1) -> Update:
    query = CallbackQuery(str(n), User(7, "Carol", is_bot=False), chat_instance="c", data="x")
    query.set_bot(bot)  # type: ignore[arg-type]
    return Update(n, callback_query=query)


async def test_a_press_left_waiting_is_acknowledged_quietly_and_only_once() -> None:
    bot = FakeBot()
    update = press(bot)
    async with press_ack.watch(update, after=0.05):
        await asyncio.sleep(0.2)  # the handler waits (for its game's lock, say)
        assert bot.answers == [("1", None)]
        assert not press_ack.claim()  # the handler's own toast is skipped
    assert bot.answers == [("1", None)]


async def test_a_press_answered_in_time_gets_its_own_answer_only() -> None:
    bot = FakeBot()
    update = press(bot)
    assert update.callback_query is not None
    async with press_ack.watch(update, after=0.05):
        assert press_ack.claim()
        await update.callback_query.answer("Not your turn")
        assert not press_ack.claim()  # only one answer per press
        await asyncio.sleep(0.1)
    assert bot.answers == [("1", "Not your turn")]


async def test_a_task_the_handler_starts_shares_its_press() -> None:
    bot = FakeBot()
    async with press_ack.watch(press(bot), after=0.05):
        claimed = await asyncio.ensure_future(_claim())
        assert claimed and not press_ack.claim()
    await asyncio.sleep(0.1)
    assert bot.answers == []  # the handler's task answered it (here: claimed it)


async def _claim() -> bool:
    return press_ack.claim()


async def test_outside_a_press_every_answer_may_go() -> None:
    async with press_ack.watch(Update(5)):
        assert press_ack.claim() and press_ack.claim()
    assert press_ack.claim()


async def test_a_press_handled_without_an_answer_is_acknowledged_when_handling_ends() -> None:
    bot = FakeBot()
    async with press_ack.watch(press(bot), after=5.0):
        pass  # a handler that returned without a word, well before the watchdog
    assert bot.answers == [("1", None)]  # not left spinning until Telegram gives up
