"""The duel from its first bullet to its end, through the real `sixshooter` process: a whole
duel costs one answer and one edit per tap and shows no hidden card anywhere; a surrender
ends it early, counted, with the round's proof published.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.storage import DuelStatus, ResultReason
from tests.support import stored
from tests.support.botprocess import BotProcess, LaunchBot
from tests.support.driver import (
    TIMEOUT,
    actor_user,
    costs,
    duel_id_of,
    duel_keyboard,
    every_version,
    face_up_cards,
    gone,
    live_duel,
    live_duel_message,
    move,
    new_table,
    open_duel,
    press,
    quiet,
    refused_calls,
    reply_to,
    tap,
    text_of,
    tiebreak_answer,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeMessage

# The state that matters survives on both engines: SQLite and PostgreSQL (tests/e2e/conftest.py).
pytestmark = pytest.mark.usefixtures("on_every_engine")

CARD_DISPLAY = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")

# Played at machine speed: the bot's own pacing to 20 calls a minute per group would hold this
# duel for a minute without testing anything here (tests/e2e/test_flood_e2e.py tests the pacing).
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}



def assert_no_card_in_log(bot: BotProcess, decks: list[str]) -> None:
    """No card as people see it, no deck order and no hand of one ("AsKd...") in the log."""
    log = bot.log()
    assert not CARD_DISPLAY.findall(log), CARD_DISPLAY.findall(log)[:5]
    for deck in decks:
        assert deck not in log
        for i in range(0, 60, 10):  # no hand's five cards (as "AsKd...") either
            assert deck[i:i + 10] not in log, "a hand's cards are in the log"


async def test_a_complete_duel_costs_an_answer_a_send_and_a_delete_per_tap_and_keeps_secrets(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    rng = random.Random(7)
    # The header (the challenge's message) shows the first deal's commitment; none at all when
    # the accept was taken before the bot had stored the challenge's message (a loaded
    # machine: bot.duel.handlers drops that message's buttons instead).
    deals = (await stored.duel(storage, duel_id)).header_rounds
    headed = deals > 0
    taps, start = 0, fake_api.last_seq
    pressed: list[FakeMessage] = []
    while (m := live_duel_message(fake_api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        user, data = answer or (actor_user(table, m), rng.choice(duel_keyboard(m)))
        since = fake_api.last_seq
        assert await tap(fake_api, user, m, data) is None
        taps += 1
        await quiet(0.3 if live_duel_message(fake_api, table.chat) is None else 0.05)
        spent = costs(fake_api, since)
        # The turn passes with every tap: the fresh message is sent, the old one deleted;
        # the header is edited when a deal is dealt (its commitment).
        row = await stored.duel(storage, duel_id)
        dealt = row.header_rounds - deals
        deals = row.header_rounds
        assert spent["answerCallbackQuery"] == 1 and spent["sendPhoto"] == 1, (taps, spent)
        assert spent["editMessageText"] == dealt, (taps, spent)
        assert set(spent) <= {"answerCallbackQuery", "sendPhoto", "deleteMessage",
                              "deleteMessages", "editMessageText"}, spent
        pressed.append(m)
    assert taps >= 10 and (deals >= 2 if headed else deals == 0)
    # Each message a turn left is deleted, when the group's flood budget has room: one by
    # one while it does, the rest together.
    await gone(fake_api, *pressed)
    spent = costs(fake_api, start)
    assert 1 <= spent["deleteMessage"] + spent["deleteMessages"] <= taps
    assert spent["deleteMessage"] + sum(
        len(r.params["message_ids"]) for r in fake_api.requests
        if r.seq > start and r.method == "deleteMessages") == taps
    result = fake_api.bot_messages(table.chat)[-1]
    assert result.photo is not None and not duel_keyboard(result)
    assert "wins the duel" in text_of(result) or "draw" in text_of(result).lower()
    # Saved once per tap, finished, counted once.
    row = await stored.settled(storage, duel_id)
    assert (row.version, row.status, row.shown_version) == (taps, DuelStatus.FINISHED, taps)
    results = await storage.results.for_chat(table.chat.id)
    assert len(results) == 1 and sum(results[0].final_stacks) == 100
    # No hidden card anywhere: not in a log line, not in any version of any message.
    decks = stored.dealt_decks(await stored.duels(storage, table.chat.id))
    assert_no_card_in_log(bot, decks)
    public = set().union(*(face_up_cards(deck) for deck in decks))
    shown = {c for text in every_version(fake_api, table.chat) for c in CARD_DISPLAY.findall(text)}
    assert shown and shown <= public, shown - public  # only face-up cards, on the buttons
    # Each deal's order is published (the proof) only once the duel is over, on the result's
    # copy buttons; never in a message's text.
    for m in fake_api.bot_messages(table.chat, include_deleted=True):
        assert not duel_keyboard(m) or m.deleted, "a finished duel left live buttons"
        versions = [str(v.get("caption") or v.get("text") or "") for v in m.history]
        assert not any(deck in text for text in [*versions, text_of(m)] for deck in decks)
    copies = [b["copy_text"]["text"] for b in result.buttons() if "copy_text" in b]
    assert all(any(deck in c for c in copies) for deck in decks) and len(copies) == len(decks)
    assert not refused_calls(fake_api)


async def test_surrender_ends_the_duel_and_counts_it(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, (carol,) = new_table(fake_api, extra=1)
    alice, bob = table.players
    duel_id = duel_id_of(await open_duel(fake_api, table))
    await move(fake_api, table, random.Random(4))
    live = live_duel(fake_api, table.chat)
    nobody = await reply_to(fake_api, carol, table.chat, "surrender")
    assert text_of(nobody) == "You have no live duel here."
    fake_api.send_command(bob, table.chat, "surrender")
    result = await fake_api.wait_for_message(table.chat, lambda x: "surrendered" in text_of(x),
                                             after_message_id=live.message_id, timeout=TIMEOUT)
    assert "Bob surrendered" in text_of(result) and "Alice wins the duel" in text_of(result)
    # The round stopped before its last bullet: the result's copy button publishes its salt
    # and deck.
    deck, salt = stored.deals(await stored.duel(storage, duel_id))[0]
    copies = [b["copy_text"]["text"] for b in result.buttons() if "copy_text" in b]
    assert len(copies) == 1 and deck in copies[0] and salt in copies[0]
    await fake_api.wait_for(lambda: live.deleted, TIMEOUT, "the live message to go")
    assert live_duel_message(fake_api, table.chat) is None
    assert await press(fake_api, alice, live, duel_keyboard(live)[0], force=True) == (
        "This duel is over.")
    again = await reply_to(fake_api, bob, table.chat, "surrender")
    assert text_of(again) == "You have no live duel here."
    [res] = await storage.results.for_chat(table.chat.id)
    assert (res.reason, res.winner_id) == (ResultReason.SURRENDER, alice.id)
    assert sum(res.final_stacks) == 100
    assert (await stored.duel(storage, duel_id)).status is DuelStatus.FINISHED
    assert not refused_calls(fake_api)
