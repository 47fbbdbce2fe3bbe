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
    gone,
    live_duel,
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
from tests.support.fakeapi.model import FakeChat, FakeMessage

# Played at machine speed: the bot's own pacing to 20 calls a minute per group would hold this
# duel for a minute without testing anything here (tests/e2e/test_flood_e2e.py tests the pacing).
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}



async def test_a_duel_in_a_forum_topic_stays_in_the_topic(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(fake_api, forum=True)
    topic = fake_api.create_topic(table.chat, "Saloon")
    table.thread = topic
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(5)
    await move(fake_api, table, rng)  # the turn passes: a fresh message, the first deleted
    assert m.deleted
    await move(fake_api, table, rng)  # the first bullet ends: bullet 2 in a fresh message
    bullet2 = live_duel(fake_api, table.chat)
    assert "bullet 2 of 6" in text_of(bullet2)
    busy = await reply_to(fake_api, table.players[0], table.chat, "duel",
                          message_thread_id=topic)
    assert "already have a live duel" in text_of(busy)
    # ... and the duel is shown again below the reply, its old message deleted.
    again = await fake_api.wait_for_message(
        table.chat, lambda x: bool(duel_keyboard(x)), after_message_id=busy.message_id,
        timeout=TIMEOUT)
    await fake_api.wait_for(lambda: bullet2.deleted, TIMEOUT, "the old live message to go")
    assert not any(duel_keyboard(x) for x in fake_api.bot_messages(table.chat) if x is not again)
    loser = table.players[1]
    fake_api.send_command(loser, table.chat, "surrender", message_thread_id=topic)
    result = await fake_api.wait_for_message(
        table.chat, lambda x: "surrendered" in text_of(x), timeout=TIMEOUT)
    assert (await stored.duel(storage, duel_id)).status is DuelStatus.FINISHED
    await fake_api.wait_for(lambda: again.deleted, TIMEOUT, "the live message to go")
    # Left: the challenge (the duel's header), the reply, the result. Every message the bot
    # sent, deleted ones too, was in the topic.
    mine = fake_api.bot_messages(table.chat)
    assert len(mine) == 3 and mine[1] is busy and mine[2] is result, [text_of(x) for x in mine]
    assert "Duel: Alice vs Bob" in text_of(mine[0])
    everything = fake_api.bot_messages(table.chat, include_deleted=True)
    assert len(everything) == 7  # and the four live messages: bullet 1 twice, bullet 2 twice
    for x in everything:
        assert x.message_thread_id == topic and x.is_topic_message, (x.message_id, text_of(x))
    assert not refused_calls(fake_api)


def live_of(api: FakeTelegramAPI, chat: FakeChat, duel_id: int) -> FakeMessage:
    """The one message of the chat carrying live buttons of this duel."""
    shown = [m for m in api.bot_messages(chat) if duel_keyboard(m) and duel_id_of(m) == duel_id]
    assert len(shown) == 1, f"duel {duel_id} is live on {len(shown)} messages"
    return shown[0]


async def test_one_live_duel_per_player_and_several_duels_in_one_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, (carol, dave, eve) = new_table(fake_api, extra=3)
    alice, bob = table.players
    chat = table.chat
    shown = await open_duel(fake_api, table)
    id1 = duel_id_of(shown)
    busy = await reply_to(fake_api, alice, chat, "duel", "@carol")
    assert "already have a live duel" in text_of(busy)
    # The busy player's duel is shown again below (its old message deleted): play goes on
    # there.
    first = await fake_api.wait_for_message(
        chat, lambda x: bool(duel_keyboard(x)) and duel_id_of(x) == id1,
        after_message_id=busy.message_id, timeout=TIMEOUT)
    await fake_api.wait_for(lambda: shown.deleted, TIMEOUT, "the old live message to go")
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
    # Moves in both, in turn; each lands on its own duel's messages, the other's left alone.
    rng = random.Random(8)
    for t, duel, rival in ((table, id1, id2), (table2, id2, id1), (table2, id2, id1),
                           (table, id1, id2)):
        m, untouched = live_of(fake_api, chat, duel), live_of(fake_api, chat, rival)
        kept = untouched.content_key()
        assert await tap(fake_api, actor_user(t, m), m, rng.choice(duel_keyboard(m))) is None
        await gone(fake_api, m)
        assert m.deleted and live_of(fake_api, chat, duel) is not m
        assert not untouched.deleted and untouched.content_key() == kept
        assert live_of(fake_api, chat, rival) is untouched
    assert first.deleted and second.deleted  # both first bullets over
    live1, live2 = live_of(fake_api, chat, id1), live_of(fake_api, chat, id2)
    assert "bullet 2 of 6" in text_of(live1) and "bullet 2 of 6" in text_of(live2)
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
