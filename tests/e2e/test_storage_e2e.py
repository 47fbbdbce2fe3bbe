"""The bot's database held by another process (a backup, a sqlite3 shell left in a
transaction): what only reads goes on at once, in every chat; a write gives up after the busy
timeout (5 s) and the command that needed it gets an apology; once the database is free again
everything works."""

from __future__ import annotations

import asyncio
import sqlite3

from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor,
    command,
    duel_keyboard,
    open_duel,
    player,
    press,
    reply_to,
    tap,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI

BUSY_TIMEOUT = 5.0  # the bot's (bot.storage.db.BUSY_TIMEOUT)


async def test_a_locked_database_stalls_only_the_writes_and_they_get_an_apology(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()  # opened before another process takes the lock
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob_the_builder", language_code="en")
    dave = fake_api.add_user("Dave", username="dave", language_code="en")
    carol = fake_api.add_user("Carol", username="carol", language_code="ru")
    saloon = fake_api.create_group(members=[alice, bob, dave])
    other = fake_api.create_group(members=[carol])
    table = Table(fake_api, saloon, (alice, bob))
    m = await open_duel(fake_api, table)
    # The bot has seen everyone (remembering a new name is a write of its own).
    await reply_to(fake_api, dave, saloon, "rules")
    await reply_to(fake_api, carol, other, "rules")

    lock = sqlite3.connect(bot.db_path, isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        loop = asyncio.get_running_loop()
        duel = fake_api.send_command(carol, other, "duel")  # its insert waits for the lock
        sent_at = loop.time()
        await fake_api.wait_updates_fetched()
        await asyncio.sleep(0.5)  # the /duel's reads are done: its write now holds the writer
        # In the other chat a stranger's press needs only reads: answered at once.
        start = loop.time()
        toast = await press(fake_api, dave, m, duel_keyboard(m)[0])
        took = loop.time() - start
        assert toast == "Only the two duelists can play in this duel."
        assert took < 1.5, f"a read-only press waited {took:.1f} s behind a stalled write"
        assert not [x for x in fake_api.bot_messages(other) if x.message_id > duel.message_id]
        # The /duel gives up after the busy timeout, and says so in Carol's language.
        sorry = await fake_api.wait_for_message(
            other, lambda x: x.reply_to is not None and x.reply_to.message_id == duel.message_id,
            after_message_id=duel.message_id, timeout=TIMEOUT)
        waited = loop.time() - sent_at
        assert "Извините" in text_of(sorry), text_of(sorry)
        # One wait, not several (issue 37): the busy timeout, after the intake's SAVE_WAIT
        # (0.5 s: the update is handled meanwhile), plus a moment; each write that stacked on
        # another's wait would add a whole busy timeout.
        assert BUSY_TIMEOUT * 0.8 < waited < BUSY_TIMEOUT + 2.0, waited
        assert not [c for c in await stored.challenges(storage, other.id)
                    if c.challenger_id == carol.id]
    finally:
        lock.rollback()
        lock.close()

    # Free again: the same /duel works, and so does the duel.
    offer = await command(fake_api, carol, other, "duel")
    assert any(d.startswith("c:") for d in offer.callback_data()), text_of(offer)
    who = player(table, actor(m))
    assert await tap(fake_api, who, m, duel_keyboard(m)[0]) is None
    assert not [r.summary() for r in fake_api.failed_calls()]
