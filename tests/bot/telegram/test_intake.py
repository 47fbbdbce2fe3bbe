"""The intake: an update is saved before `receive` returns, handled once, crossed off after,
and left by a dead process to the next one."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from pathlib import Path
from typing import Any, cast

from telegram import Chat, Message, Update, User

from bot.storage import Storage
from bot.telegram import App
from bot.telegram.intake import Intake, incoming
from bot.telegram.scheduling import FairUpdateProcessor

WHEN = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


def update(n: int) -> dict[str, Any]:
    """An update as Telegram sends it (JSON)."""
    chat = Chat(-7, Chat.GROUP)
    return Update(n, message=Message(n, WHEN, chat, from_user=User(5, "Ann", is_bot=False),
                                     text=f"/rules {n}")).to_dict()


class FakeApp:
    """What the intake uses of an Application: its update processor, process_update, bot."""

    def __init__(self, *, fail: set[int] | None = None) -> None:
        self.update_processor = FairUpdateProcessor()
        self.bot = None
        self.handled: list[int] = []
        self.fail = fail or set()
        self.gate = asyncio.Event()
        self.gate.set()

    async def process_update(self, u: object) -> None:
        assert isinstance(u, Update)
        await self.gate.wait()
        self.handled.append(u.update_id)
        if u.update_id in self.fail:
            raise RuntimeError("a handler's bug")


def intake_of(app: FakeApp, storage: Storage, owner: str) -> Intake:
    return Intake(cast(App, app), storage, owner=owner)


async def settle(intake: Intake) -> None:
    for _ in range(200):
        if not intake.in_hand:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("updates still in hand")


async def test_saved_before_receive_returns_handled_once_then_crossed_off(
        store: Storage) -> None:
    app = FakeApp()
    app.gate.clear()  # the handlers wait: what is saved is saved before any handling
    intake = intake_of(app, store, "w1")
    await intake.receive([update(1), update(2)])
    assert await store.inbox.pending() == 2 and app.handled == []
    await intake.receive([update(2)])  # Telegram delivered it again
    app.gate.set()
    await settle(intake)
    assert sorted(app.handled) == [1, 2]
    assert await store.inbox.pending() == 0


async def test_a_handler_that_raises_is_still_crossed_off(store: Storage) -> None:
    app = FakeApp(fail={3})
    intake = intake_of(app, store, "w1")
    await intake.receive([update(3), update(4)])
    await settle(intake)
    assert sorted(app.handled) == [3, 4] and await store.inbox.pending() == 0


async def test_an_update_that_cannot_be_read_is_saved_then_dropped_not_handled(
        store: Storage) -> None:
    app = FakeApp()
    intake = intake_of(app, store, "w1")
    unreadable = {"update_id": 5, "message": {"text": "no id, no date, no chat"}}
    await intake.receive([unreadable, update(6)])
    await settle(intake)
    assert app.handled == [6]  # the next one is not held up
    assert await store.inbox.pending() == 0  # and the unreadable one is not tried forever
    row = await store.inbox.take_stale("probe", before=float("inf"), lease_until=0)
    assert row == []


def test_an_update_is_kept_as_telegram_sent_it() -> None:
    raw = {**update(12), "a_field_of_a_newer_bot_api": {"x": [1, 2]}}
    saved = incoming(raw)
    assert saved.update_id == 12 and json.loads(saved.body) == raw


async def test_the_next_process_handles_what_a_killed_one_left(tmp_path: Path) -> None:
    where = tmp_path / "k.db"
    first = await Storage.open(where)
    # A process saved two updates and died before handling them (its lease still runs).
    now = 1_000.0
    await first.inbox.save([incoming(update(7)), incoming(update(8))], owner="dead",
                           now=now, lease_until=now + 9_999_999_999)
    await first.close()
    storage = await Storage.open(where)
    try:
        app = FakeApp()
        intake = intake_of(app, storage, "next")
        await intake.start()  # SQLite: only this process can run, so they are its own at once
        await settle(intake)
        assert sorted(app.handled) == [7, 8]
        assert await storage.inbox.pending() == 0
        await intake.stop()
    finally:
        await storage.close()


async def test_a_graceful_stop_hands_back_what_is_still_in_hand(store: Storage) -> None:
    app = FakeApp()
    app.gate.clear()
    intake = intake_of(app, store, "w1")
    await intake.start()
    await intake.receive([update(9)])
    stopping = asyncio.create_task(intake.stop())
    await asyncio.sleep(0.05)
    assert not stopping.done()  # it waits for the update in hand ...
    app.gate.set()
    await stopping
    assert await store.inbox.pending() == 0  # ... which finished


async def test_a_stale_update_is_taken_over_by_a_live_worker(store: Storage) -> None:
    now = 50.0
    await store.inbox.save([incoming(update(11))], owner="dead", now=now, lease_until=now + 1)
    app = FakeApp()
    intake = Intake(cast(App, app), store, owner="alive", clock=lambda: now + 5)
    taken: list[Any] = await store.inbox.take_stale("probe", before=now, lease_until=0)
    assert taken == []  # not yet stale at its own time
    await intake.start()
    await settle(intake)
    assert app.handled == [11]
    await intake.stop()


async def test_a_settled_update_is_crossed_off_before_its_handler_ends(store: Storage) -> None:
    from bot.telegram.intake import settled

    app = FakeApp()
    release = asyncio.Event()

    async def process_update(u: object) -> None:
        await settled()  # its effect saved and its press answered: the rest is showing it
        await release.wait()

    app.process_update = process_update  # type: ignore[method-assign]
    intake = intake_of(app, store, "w1")
    await intake.receive([update(21)])
    for _ in range(100):
        if await store.inbox.pending() == 0:
            break
        await asyncio.sleep(0.01)
    assert await store.inbox.pending() == 0 and intake.in_hand == 1  # off, though in hand
    release.set()
    await settle(intake)


async def test_a_stalled_save_does_not_stall_the_updates(store: Storage) -> None:
    from bot.storage import Rollback
    from bot.telegram import intake as intake_module

    app = FakeApp()
    intake = intake_of(app, store, "w1")
    release = asyncio.Event()

    async def hold_the_writer() -> None:
        try:
            async with store.transaction():  # another transaction holds the writer ...
                await release.wait()
                raise Rollback
        except Rollback:
            pass

    holder = asyncio.create_task(hold_the_writer())
    await asyncio.sleep(0.05)
    loop = asyncio.get_running_loop()
    start = loop.time()
    await intake.receive([update(31)])  # ... so the save waits: the update does not
    assert loop.time() - start < intake_module.SAVE_WAIT + 0.5
    await wait_handled(app, [31])
    release.set()
    await holder
    await settle(intake)
    assert await store.inbox.pending() == 0  # saved once the writer was free, then crossed off
    assert await store.inbox.last_id() == 31


async def wait_handled(app: FakeApp, ids: list[int]) -> None:
    for _ in range(300):
        if sorted(app.handled) == ids:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"handled {app.handled}, not {ids}")


async def test_a_start_takes_at_once_what_this_machines_dead_runs_left(store: Storage) -> None:
    import os
    import socket
    import sys

    gone = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await gone.wait()
    here = socket.gethostname()
    far = 9_999_999_999.0
    for n, owner in ((41, f"{here}/{gone.pid}/aa"), (42, f"{here}/{os.getpid()}/earlier"),
                     (43, f"{here}-elsewhere/1/bb")):
        await store.inbox.save([incoming(update(n))], owner=owner, now=0, lease_until=far)
    app = FakeApp()
    intake = intake_of(app, store, f"{here}/{os.getpid()}/now")
    await intake.start()
    await settle(intake)
    # Another machine's update waits for its lease (SQLite has no other: it takes all).
    assert sorted(app.handled) == ([41, 42] if store.engine == "postgresql" else [41, 42, 43])
    await intake.stop()
