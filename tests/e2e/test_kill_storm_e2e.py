"""A kill -9 loses nothing a user did (issue 19): one bot, killed at random moments right after
presses, again and again through a duel, and restarted at once. Every press is answered, each
is applied exactly once, and the duel ends with one result. On SQLite and PostgreSQL, with long
polling and with a webhook (the fake posting to it, retrying while it is down)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.support import audit, stored
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor_user,
    duel_id_of,
    duel_keyboard,
    live_duel_message,
    open_duel,
    refused_calls,
    tiebreak_answer,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI
from tests.support.workers import LaunchWorkers, Workers

pytestmark = pytest.mark.usefixtures("on_both_engines")

ENV = {"SIXSHOOTER_RATE_LIMIT": "off", "SIXSHOOTER_TIME_SCALE": "100"}  # no timer in the way
KILL_CHANCE = 0.4  # of a kill after each press
TAKE_BACK = 30.0  # seconds for a restarted bot to finish what the killed one left
# A press whose bot died after answering it is answered again after the restart (Telegram
# refuses the second answer; the first reached the user) and its edits made again ("not
# modified"); a delete may meet a message gone.
ALLOWED = ("query is too old", "message to delete not found", "message is not modified")


async def restart(workers: Workers) -> None:
    """kill -9 and start again at once; polling: until it polls again."""
    since = workers.api.last_seq
    await workers.kill(0)
    await workers.start_one(0)
    if not workers.webhook:
        await workers.wait_poller(since=since)


async def moved_on(api: FakeTelegramAPI, table: Table, pressed: FakeMessage) -> None:
    """Until the duel shows the press: a newer live message, or none (it ended)."""
    def shown() -> bool:
        m = live_duel_message(api, table.chat)
        return m is None or m.message_id > pressed.message_id or m.content_key() != key
    key = pressed.content_key()
    await api.wait_for(shown, TAKE_BACK, "the duel to show the press")


@pytest.mark.parametrize("webhook", [False, True], ids=["polling", "webhook"])
async def test_kills_right_after_presses_lose_nothing(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers, on_both_engines: str | None,
        tmp_path: Path, webhook: bool) -> None:
    database = on_both_engines or str(tmp_path / "storm.db")
    workers = await launch_workers(database, 1, webhook=webhook, env=ENV)
    alice = fake_api.add_user("Alice", username="alice")
    bob = fake_api.add_user("Bob", username="bob")
    table = Table(fake_api, fake_api.create_group(members=[alice, bob]), (alice, bob))
    rng = random.Random(11 + webhook)
    first = await open_duel(fake_api, table)
    duel, presses = duel_id_of(first), 0
    while (m := live_duel_message(fake_api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        user, data = answer or (actor_user(table, m), rng.choice(duel_keyboard(m)))
        query = fake_api.press_button(user, m, data)
        presses += 1
        if rng.random() < KILL_CHANCE:
            await asyncio.sleep(rng.uniform(0.0, 0.3))  # mid-update, or just after
            await restart(workers)
        await fake_api.wait_for_answer(query, timeout=TAKE_BACK)
        await moved_on(fake_api, table, m)
        assert presses < 40, "the duel does not end"

    record = await stored.settled(await workers.storage(), duel, timeout=TIMEOUT)
    assert record.status == "finished"
    assert stored.actions(record) == presses, f"{presses} presses, {stored.actions(record)} kept"
    results = [r for r in fake_api.requests if r.ok and r.method == "sendPhoto"
               and f"r:{duel}:" in str(r.params.get("reply_markup"))]
    assert len(results) == 1, f"{len(results)} results"
    assert audit.unanswered(fake_api) == []
    # A kill between a send and its record leaves the bot unsure it was sent: it sends the live
    # table again (never a result or a challenge). Counted, and shown.
    resent = audit.sent_twice(fake_api)
    assert all(", buttons d:" in line for line in resent), resent
    assert refused_calls(fake_api, allow=ALLOWED) == []
    assert workers.kills >= 2
    engine = "postgresql" if on_both_engines else "sqlite"
    print(f"\n[kill storm] {engine}, {'webhook' if webhook else 'polling'}: one duel, "
          f"{presses} presses, {workers.kills} kill -9 right after a press, each press "
          f"answered and applied once, one result; {len(resent)} live table(s) sent again")
