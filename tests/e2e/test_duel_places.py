"""Where and with whom a duel is played, through the real `sixshooter` process: in a forum
topic it stays in the topic; each player has one live duel per chat, and a chat hosts several
duels at once, each on its own messages.
"""

from __future__ import annotations

import random

from bot.storage import DuelStatus
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    accept,
    actor_user,
    button,
    command,
    duel_id_of,
    duel_keyboard,
    move,
    new_table,
    open_duel,
    press,
    quiet,
    refused_calls,
    reply_to,
    tap,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI


async def test_a_duel_in_a_forum_topic_stays_in_the_topic(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api, forum=True)
    topic = fake_api.create_topic(table.chat, "Saloon")
    table.thread = topic
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(5)
    await move(fake_api, table, rng)
    await move(fake_api, table, rng)  # the first bullet ends: a reveal and a new message
    assert not duel_keyboard(m)
    busy = await reply_to(fake_api, table.players[0], table.chat, "duel",
                          message_thread_id=topic)
    assert "already have a live duel" in text_of(busy)
    # ... and the duel is shown again below the reply, its old message without buttons.
    again = await fake_api.wait_for_message(
        table.chat, lambda x: bool(duel_keyboard(x)), after_message_id=busy.message_id,
        timeout=TIMEOUT)
    assert not any(duel_keyboard(x) for x in fake_api.bot_messages(table.chat) if x is not again)
    loser = table.players[1]
    fake_api.send_command(loser, table.chat, "surrender", message_thread_id=topic)
    result = await fake_api.wait_for_message(
        table.chat, lambda x: "surrendered" in text_of(x), timeout=TIMEOUT)
    assert (await stored.duel(storage, duel_id)).status is DuelStatus.FINISHED
    mine = fake_api.bot_messages(table.chat)
    # challenge, reveal, bullet 2, the reply, bullet 2 again, result
    assert len(mine) == 6 and result in mine and again in mine
    for x in mine:
        assert x.message_thread_id == topic and x.is_topic_message, (x.message_id, text_of(x))
    assert not refused_calls(fake_api)


async def test_one_live_duel_per_player_and_several_duels_in_one_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, (carol, dave, eve) = new_table(fake_api, extra=3)
    alice, bob = table.players
    chat = table.chat
    first = await open_duel(fake_api, table)
    id1 = duel_id_of(first)
    busy = await reply_to(fake_api, alice, chat, "duel", "@carol")
    assert "already have a live duel" in text_of(busy)
    # The busy player's duel is shown again below: play goes on there.
    first = await fake_api.wait_for_message(
        chat, lambda x: bool(duel_keyboard(x)) and duel_id_of(x) == id1,
        after_message_id=busy.message_id, timeout=TIMEOUT)
    assert "already in a duel" in text_of(await reply_to(fake_api, carol, chat, "duel", "@alice"))
    open_offer = await command(fake_api, eve, chat, "duel")
    assert await press(fake_api, bob, open_offer, button(open_offer, "a")) == (
        "You already have a live duel here: finish it or /surrender first.")
    # Carol and Dave start a second duel in the same chat.
    offer = await command(fake_api, carol, chat, "duel", "@dave 20")
    second = await accept(fake_api, dave, offer)
    table2 = Table(fake_api, chat, (carol, dave))
    id2 = duel_id_of(second)
    assert id1 != id2
    # Moves in both, in turn; each lands on its own message.
    rng = random.Random(8)
    for t, m in ((table, first), (table2, second), (table2, second), (table, first)):
        assert await tap(fake_api, actor_user(t, m), m, rng.choice(duel_keyboard(m))) is None
    assert not duel_keyboard(first) and not duel_keyboard(second)  # both first bullets over
    live1 = next(m for m in reversed(fake_api.bot_messages(chat))
                 if duel_keyboard(m) and duel_id_of(m) == id1)
    live2 = next(m for m in reversed(fake_api.bot_messages(chat))
                 if duel_keyboard(m) and duel_id_of(m) == id2)
    assert "Alice" in text_of(live1) and "Carol" in text_of(live2)
    assert "Carol" not in text_of(live1) and "Alice" not in text_of(live2)
    # A player of one duel cannot act in the other, even by forging its data onto it.
    shown2 = live2.content_key()
    assert await press(fake_api, alice, live2, duel_keyboard(live2)[0]) == (
        "Only the two duelists can play in this duel.")
    assert await press(fake_api, alice, live2, duel_keyboard(live1)[0], force=True) == (
        "This button is out of date: use the latest message of the duel.")
    await quiet()
    assert live2.content_key() == shown2, "a forged press changed another duel's message"
    assert (await stored.duel(storage, id1)).version == 2
    assert (await stored.duel(storage, id2)).version == 2
    assert await tap(fake_api, actor_user(table2, live2), live2, duel_keyboard(live2)[0]) is None
    assert (await stored.duel(storage, id2)).version == 3
    assert not refused_calls(fake_api)
