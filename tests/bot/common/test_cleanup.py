"""What a dead worker left in the janitor's journal is deleted by a live worker: every write
arms the chat's fallback row (on PostgreSQL, where workers share the database), and its
handler adopts what is still written down (not what this process is deleting itself)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import cast

import pytest
from telegram import Bot

from bot.common import cleanup, due
from bot.services import KEY, Services
from bot.storage import Storage
from bot.telegram import App, janitor
from bot.telegram.janitor import Janitor
from tests.bot.telegram.test_janitor import FakeBot, room_when, settle


@pytest.fixture(autouse=True)
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(janitor, "POLL", 0.01)
    monkeypatch.setattr(janitor, "MAX_WAIT", 0.2)


def worker(store: Storage, bot: FakeBot) -> tuple[App, Services]:
    svc = Services(storage=store, janitor=Janitor(journal=store.deletes))
    app = cast(App, SimpleNamespace(bot=cast(Bot, bot), bot_data={KEY: svc}))
    app.bot_data[due.KEY] = due.Scheduler(app, store.jobs, can=store.can)
    cleanup.arm(app)
    return app, svc


async def written(store: Storage, expected: dict[int, list[int]]) -> None:
    """Wait (at most 5 s) until the journal holds `expected`: a write is the janitor's
    task's, not awaited here."""
    async with asyncio.timeout(5):
        while await store.deletes.pending() != expected:
            await asyncio.sleep(0.01)


async def test_every_write_arms_the_chats_fallback_row_where_workers_share_it(
        store: Storage) -> None:
    app, svc = worker(store, FakeBot())
    svc.janitor.room = room_when(lambda chat: False)  # no room: it waits, written down
    svc.janitor.delete_later(cast(Bot, app.bot), -5, 10)
    await written(store, {-5: [10]})
    if store.can.one_process:
        # SQLite has one process (its file lock): its own restart deletes what it left, no row
        assert svc.janitor.written is None  # nothing arms it
        assert await store.jobs.get(cleanup.ORPHANS, "-5") is None
    else:  # the row is armed right after the journal's write, by the janitor's own task
        async with asyncio.timeout(5):
            while await store.jobs.get(cleanup.ORPHANS, "-5") is None:
                await asyncio.sleep(0.01)
    await svc.janitor.close(cast(Bot, app.bot))


async def test_a_dead_workers_deletes_are_adopted_by_a_live_one(store: Storage) -> None:
    dead_app, dead = worker(store, FakeBot())
    dead.janitor.room = room_when(lambda chat: False)
    for message_id in (10, 11):
        dead.janitor.delete_later(cast(Bot, dead_app.bot), -5, message_id)
    await written(store, {-5: [10, 11]})
    for task in list(dead.janitor._tasks.values()):  # the kill: nothing more of it runs
        task.cancel()
    await asyncio.sleep(0.01)

    fake = FakeBot()
    app, live = worker(store, fake)
    live.janitor.room = room_when(lambda chat: False)
    live.janitor.delete_later(cast(Bot, fake), -5, 12)  # its own, on their way
    await written(store, {-5: [10, 11, 12]})
    await cleanup.adopt_orphans(app, "-5", None)
    live.janitor.room = room_when(lambda chat: True)
    await settle()
    assert fake.calls == [("deleteMessages", -5, (12, 10, 11))]  # each once
    await live.janitor.crossed_off()  # what a second's deletes wait for
    assert await store.deletes.pending() == {}
    await cleanup.adopt_orphans(app, "-5", None)  # fired twice: nothing left to do
    await settle()
    assert len(fake.calls) == 1




async def test_a_busy_chats_row_is_pushed_back_once_in_a_while_not_at_every_write(
        store: Storage) -> None:
    if store.can.one_process:
        pytest.skip("SQLite arms no fallback row (one process)")
    app, svc = worker(store, FakeBot())
    scheduler = due.of(app)
    now = [1_000_000.0]
    scheduler.clock = lambda: now[0]
    assert svc.janitor.written is not None
    await svc.janitor.written(-5)
    first = await store.jobs.get(cleanup.ORPHANS, "-5")
    assert first is not None and first.due_at == now[0] + cleanup.AFTER
    now[0] += cleanup.REARM - 1  # a write soon after: the row stays where it is, and still
    await svc.janitor.written(-5)  # comes due past MAX_WAIT after this write
    kept = await store.jobs.get(cleanup.ORPHANS, "-5")
    assert kept is not None and kept.due_at == first.due_at
    assert kept.due_at - now[0] >= janitor.MAX_WAIT
    await svc.janitor.written(-6)  # another chat's is its own
    assert await store.jobs.get(cleanup.ORPHANS, "-6") is not None
    now[0] += 1  # REARM after the arming: pushed back again
    await svc.janitor.written(-5)
    later = await store.jobs.get(cleanup.ORPHANS, "-5")
    assert later is not None and later.due_at == now[0] + cleanup.AFTER
