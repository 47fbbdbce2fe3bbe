"""Long polling: the offset moves past a batch only once it is saved, and one leader polls."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from typing import Any, cast

from telegram import Chat, Message, Update, User

from bot.storage import Storage
from bot.telegram import App, polling
from bot.telegram.intake import Intake
from bot.telegram.scheduling import FairUpdateProcessor

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def update(n: int) -> dict[str, Any]:
    """An update as Telegram sends it (JSON)."""
    return Update(n, message=Message(n, WHEN, Chat(-7, Chat.GROUP),
                                     from_user=User(5, "Ann", is_bot=False), text="/rules")
                  ).to_dict()


class FakeBot:
    """getUpdates as Telegram answers it: what is at or after the offset, then nothing."""

    id = 123

    def __init__(self, pending: list[dict[str, Any]]) -> None:
        self.pending = pending
        self.offsets: list[int | None] = []
        self.polls = asyncio.Event()

    async def delete_webhook(self, **_: Any) -> bool:
        return True

    async def do_api_request(self, endpoint: str, *, api_kwargs: dict[str, Any],
                             **_: Any) -> list[dict[str, Any]]:
        assert endpoint == "getUpdates"
        offset = api_kwargs.get("offset")
        self.offsets.append(offset)
        self.polls.set()
        if offset is not None:
            self.pending = [u for u in self.pending if u["update_id"] >= offset]
        if self.pending:
            return self.pending[:2]
        await asyncio.sleep(0.01)
        return []


class FakeApp:
    def __init__(self, bot: FakeBot) -> None:
        self.bot = bot
        self.update_processor = FairUpdateProcessor()
        self.handled: list[int] = []

    async def process_update(self, u: object) -> None:
        assert isinstance(u, Update)
        self.handled.append(u.update_id)


async def wait_until(condition: Any, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("never happened")


async def test_the_offset_moves_only_past_saved_updates(store: Storage) -> None:
    bot = FakeBot([update(i) for i in range(1, 6)])
    app = FakeApp(bot)
    intake = Intake(cast(App, app), store, owner="w")
    saved_at_each_poll: list[int | None] = []
    real = bot.do_api_request

    async def do_api_request(endpoint: str, **kwargs: Any) -> list[dict[str, Any]]:
        saved_at_each_poll.append(await store.inbox.last_id())
        return await real(endpoint, **kwargs)

    bot.do_api_request = do_api_request  # type: ignore[method-assign]
    task = asyncio.create_task(polling.poll(cast(App, app), intake, store, ["message"]))
    try:
        await wait_until(lambda: len(app.handled) == 5)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    # Each offset confirms only what was saved when it was asked for.
    for offset, saved in zip(bot.offsets, saved_at_each_poll, strict=True):
        assert offset is None or (saved is not None and offset <= saved + 1)
    assert sorted(app.handled) == [1, 2, 3, 4, 5]
    # A restart goes on after the newest saved update.
    again = FakeBot([update(i) for i in range(1, 7)])
    app2 = FakeApp(again)
    task = asyncio.create_task(polling.poll(cast(App, app2), Intake(cast(App, app2), store),
                                            store, ["message"]))
    try:
        await wait_until(lambda: app2.handled == [6])
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    assert again.offsets[0] == 6


async def test_one_process_polls_and_a_standby_takes_over(database: str) -> None:
    one, two = await Storage.open(database), await Storage.open(database)
    stop_one, stop_two = asyncio.Event(), asyncio.Event()
    bot_one, bot_two = FakeBot([]), FakeBot([])
    app_one, app_two = FakeApp(bot_one), FakeApp(bot_two)
    leaders = [asyncio.create_task(polling.lead(
        cast(App, app), Intake(cast(App, app), s), s, ["message"], stop))
        for app, s, stop in ((app_one, one, stop_one), (app_two, two, stop_two))]
    try:
        await wait_until(lambda: bot_one.offsets or bot_two.offsets)
        if one.engine == "sqlite":  # one process by its file lock: both "lead" here
            return
        await asyncio.sleep(polling.TRY_EVERY * 1.5)
        polling_now = [b for b in (bot_one, bot_two) if b.offsets]
        assert len(polling_now) == 1, "exactly one process polls"
        first = 0 if bot_one.offsets else 1
        (stop_one, stop_two)[first].set()  # the leader goes
        await leaders[first]
        standby = (bot_two, bot_one)[first]
        await asyncio.wait_for(standby.polls.wait(), polling.TRY_EVERY * 3)
    finally:
        stop_one.set()
        stop_two.set()
        await asyncio.gather(*leaders, return_exceptions=True)
        await one.close()
        await two.close()
