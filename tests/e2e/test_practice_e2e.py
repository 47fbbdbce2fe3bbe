"""Practice against the bot (issue 12), through the real `sixshooter` process: /practice offers
a level (only its asker may choose), the bot plays its own turns after a short pause through
the same path as a person (so a restart in the middle resumes them), the Odds button answers
with every remaining hand's odds, `/duel` aimed at the bot offers the same, and a practice
duel never reaches the chat's standings."""

from __future__ import annotations

import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    actor,
    command,
    duel_keyboard,
    live_duel_message,
    mentioned_ids,
    new_table,
    newest_id,
    press,
    refused_calls,
    reply_to,
    tap,
    text_of,
)
from tests.support.fakeapi import BOT_ID, BOT_USERNAME, FakeTelegramAPI
from tests.support.fakeapi.model import FakeMessage


def level(offer: FakeMessage, label: str) -> str:
    return next(b["callback_data"] for b in offer.buttons() if b["text"] == label)


async def test_a_practice_duel_against_the_bot_with_a_restart_and_the_odds(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice, bob = table.players
    offer = await command(fake_api, alice, table.chat, "practice", "30")
    assert "practice duel against me, 30 chips each" in text_of(offer)
    assert offer.button_texts() == ["🟢 Easy", "🟡 Normal", "🔴 Hard"]
    assert await press(fake_api, bob, offer, level(offer, "🟡 Normal")) == (
        "This choice is for the player who asked for the practice duel.")
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, alice, offer, level(offer, "🟡 Normal")) is None
    first = await fake_api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                            after_message_id=last, timeout=TIMEOUT)
    assert "level: 🟡 Normal" in text_of(offer) and not offer.buttons()
    assert "Round 1 deck hash" in text_of(first)  # no challenge, no header: the table has it
    [live] = await storage.duels.live_in_chat(table.chat.id)
    assert live.players == (alice.id, BOT_ID) and live.ai_level == "normal"

    rng, taps, bot_moves, restarted, odds_seen = random.Random(3), 0, 0, False, False
    while (m := live_duel_message(fake_api, table.chat)) is not None:
        if alice.id not in mentioned_ids(m):  # the bot's turn: it moves after a short pause
            assert "📊 Odds" in m.button_texts()
            if not restarted and bot_moves == 2:
                await bot.restart()  # a kill at the bot's turn: it moves after the restart
                restarted = True
            await fake_api.wait_for(lambda m=m: live_duel_message(fake_api, table.chat)
                                    is not m, TIMEOUT, "the bot's move")
            bot_moves += 1
            continue
        if any(d.endswith(":ty") for d in duel_keyboard(m)):
            data = next(d for d in duel_keyboard(m) if d.endswith(":tn"))
        else:
            assert actor(m) == alice.id
            data = rng.choice(duel_keyboard(m))
            if not odds_seen:
                odds = next(b["callback_data"] for b in m.buttons() if b["text"] == "📊 Odds")
                assert await press(fake_api, bob, m, odds) == (
                    "Only the player of this practice duel can see its odds.")
                before = newest_id(fake_api, table.chat)
                assert await press(fake_api, alice, m, odds) is None
                said = await fake_api.wait_for_message(
                    table.chat, lambda x: "The odds now" in text_of(x),
                    after_message_id=before, timeout=TIMEOUT)
                rows = [line for line in text_of(said).splitlines() if line.startswith("#")]
                assert len(rows) == 6 and all("a pair or better" in r for r in rows)
                odds_seen = True
        assert await tap(fake_api, alice, m, data) is None
        taps += 1
        assert taps < 20
    assert restarted and odds_seen and bot_moves >= 4
    result = fake_api.bot_messages(table.chat)[-1]
    assert "wins the duel" in text_of(result) or "draw" in text_of(result).lower()
    [done] = await storage.duels.recent_in_chat(table.chat.id, 1)
    assert done.ai_level == "normal" and done.status.value == "finished"
    # Practice never reaches the standings.
    assert await storage.results.for_chat(table.chat.id) == []
    board = await reply_to(fake_api, alice, table.chat, "stats")
    assert text_of(board).startswith("No finished duels here yet")
    assert "🤖 You vs the bot here: 1 practice duel · won " in text_of(board)
    # Rematch against the bot: a new practice duel at the same level and stack, at once.
    rematch = next(b["callback_data"] for b in result.buttons() if b["text"] == "🔁 Rematch")
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, alice, result, rematch) is None
    await fake_api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                    after_message_id=last, timeout=TIMEOUT)
    [again] = await storage.duels.live_in_chat(table.chat.id)
    assert again.id != done.id and again.ai_level == "normal"
    assert again.players == (alice.id, BOT_ID) and '"start_stack":30' in again.state_json
    assert await press(fake_api, alice, result, rematch) == (
        "You already have a live duel here: finish it or /surrender first.")
    assert refused_calls(fake_api, allow=("message to delete not found",)) == []


async def test_a_duel_aimed_at_the_bot_offers_practice(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    table, _ = new_table(fake_api)
    alice = table.players[0]
    offer = await command(fake_api, alice, table.chat, "duel", f"@{BOT_USERNAME}")
    assert "practice duel against me" in text_of(offer)
    # In reply to one of the bot's own messages, too.
    again = await command(fake_api, alice, table.chat, "duel", "", reply_to=offer)
    assert "practice duel against me" in text_of(again)
    assert refused_calls(fake_api) == []
