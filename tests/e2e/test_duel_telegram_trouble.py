"""A duel when Telegram makes trouble, through the real `sixshooter` process: 429s slow it but it
proceeds correctly; the bot removed from the chat closes its duels without counting them; a
deleted live message is replaced at the next tap, and a lost one comes back with /duel.
"""

from __future__ import annotations

import random

from bot.storage import ChallengeStatus, DuelStatus
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    actor_user,
    button,
    challenge_keyboard,
    command,
    costs,
    duel_id_of,
    duel_keyboard,
    live_duel,
    move,
    new_table,
    open_duel,
    press,
    quiet,
    refused_calls,
    reply_to,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI

DELETE_WAIT = 75.0


async def deleted(api: FakeTelegramAPI, *messages: FakeMessage) -> None:
    """Wait until the bot has deleted these messages (a delete may wait a little for room in
    the chat's flood budget; it must come)."""
    await api.wait_for(lambda: all(m.deleted for m in messages), DELETE_WAIT,
                       "the replaced messages deleted")


async def test_injected_429s_slow_the_duel_but_it_proceeds_correctly(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(9)
    # Each move is an answer, a fresh live message and the deletion of the pressed one.
    for method in ("sendPhoto", "deleteMessage", "answerCallbackQuery"):
        fake_api.inject_rate_limit(method, count=1, retry_after=1)
    since = fake_api.last_seq
    pressed = [await move(fake_api, table, rng),
               await move(fake_api, table, rng),  # the bullet ends: the next, it folded in
               await move(fake_api, table, rng)]
    await deleted(fake_api, *pressed)  # every pressed message went
    await quiet()
    limited = [r for r in fake_api.failed_calls()]
    assert sorted(r.method for r in limited) == [
        "answerCallbackQuery", "deleteMessage", "sendPhoto"]
    assert all(r.status == 429 for r in limited)
    spent = costs(fake_api, since)
    # Each refused call was made again once, and nothing else was doubled.
    assert spent["answerCallbackQuery"] == 3 + 1
    assert spent["sendPhoto"] == 3 + 1 and spent["deleteMessage"] == 3 + 1
    assert spent["editMessageMedia"] == 0
    row = await stored.duel(storage, duel_id)
    assert (row.version, row.shown_version) == (3, 3)
    live = live_duel(fake_api, table.chat)
    assert version_of(live) == 3 and row.message_id == live.message_id
    assert pressed[0] is m and len(fake_api.bot_messages(table.chat)) == 2  # header, live
    assert all(q.answered for q in fake_api.callback_queries.values())


async def test_the_bot_removed_from_a_chat_closes_its_duels_without_counting(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, (carol, dave) = new_table(fake_api, extra=2)
    alice, _bob = table.players
    m = await open_duel(fake_api, table)
    offer = await command(fake_api, carol, table.chat, "duel", "@dave")
    elsewhere = fake_api.create_group("Elsewhere", members=[alice, carol])
    fake_api.kick_bot(table.chat)
    await stored.until(lambda: stored.duel(storage, duel_id_of(m)),
                       lambda d: d.status is DuelStatus.ABANDONED, "the duel closed")
    assert [c.status for c in await stored.challenges(storage, table.chat.id)] == [
        ChallengeStatus.ACCEPTED, ChallengeStatus.EXPIRED]
    # Later presses there are answered with a toast and change nothing; the bot lives on.
    since = fake_api.last_seq
    mover = actor_user(table, m)
    assert await press(fake_api, mover, m, duel_keyboard(m)[0]) == (
        "This button is out of date: use the latest message of the duel.")
    assert await press(fake_api, dave, offer, button(offer, "a")) == (
        "This challenge is no longer open.")
    assert set(costs(fake_api, since)) == {"answerCallbackQuery"}
    assert not await storage.results.for_chat(table.chat.id)
    assert bot.running
    reply = await command(fake_api, alice, elsewhere, "duel", "@carol")
    assert challenge_keyboard(reply)
    # Added back, the chat works again and the old duel does not block anyone.
    fake_api.add_bot(table.chat)
    again = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder")
    assert challenge_keyboard(again), text_of(again)
    assert "Traceback" not in bot.log()
    assert not refused_calls(fake_api, allow=("Forbidden",))


async def test_a_deleted_live_message_is_replaced_at_the_next_tap(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(6)
    # A tap, and an admin deletes the message before the bot shows the move.
    data = rng.choice(duel_keyboard(m))
    query = fake_api.press_button(actor_user(table, m), m, data)
    fake_api.delete_message(m)
    assert (await fake_api.wait_for_answer(query, timeout=TIMEOUT)).text is None
    fresh = await fake_api.wait_for_message(table.chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=m.message_id, timeout=TIMEOUT)
    assert version_of(fresh) == 1
    await quiet()
    row = await stored.duel(storage, duel_id)
    assert (row.message_id, row.shown_version, row.version) == (fresh.message_id, 1, 1)
    assert len(fake_api.bot_messages(table.chat)) == 2  # the challenge and the fresh message
    # Play goes on on the fresh message, across the end of the bullet.
    await move(fake_api, table, rng)
    await deleted(fake_api, fresh)
    assert version_of(live_duel(fake_api, table.chat)) == 2
    assert len(fake_api.bot_messages(table.chat)) == 2
    # Only the deletion of the message the admin deleted first was refused.
    assert not refused_calls(fake_api, allow=("message to delete not found",))
    assert len(fake_api.failed_calls()) == 1


async def test_a_lost_live_message_comes_back_with_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """The live message deleted while nobody taps: a player's /duel shows the duel again."""
    await launch_bot()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    fake_api.delete_message(m)
    busy = await reply_to(fake_api, table.players[1], table.chat, "duel")
    assert "already have a live duel" in text_of(busy)
    fresh = await fake_api.wait_for_message(table.chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=busy.message_id, timeout=TIMEOUT)
    assert duel_id_of(fresh) == duel_id_of(m) and version_of(fresh) == 0
    await move(fake_api, table, random.Random(3))
    await deleted(fake_api, fresh)
    assert version_of(live_duel(fake_api, table.chat)) == 1
    assert not refused_calls(fake_api, allow=("message to delete not found",))
