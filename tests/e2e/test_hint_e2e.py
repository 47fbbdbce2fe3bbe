"""The Hint of a practice duel (issue 22), through the real `sixshooter` process: the button
sits next to Odds; only the duel's player may press it; it answers, in reply to the table,
with the three best moves for the player to act (hand, face-up card, stake), each with its
chance to win the duel, and the best one is a move the table offers; the review of the duel
says how many hints were taken, across a restart; a duel between people has no Hint, and a
forged press on one is refused."""

from __future__ import annotations

import random
import re

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    command,
    duel_id_of,
    duel_keyboard,
    live_duel,
    live_duel_message,
    mentioned_ids,
    new_table,
    newest_id,
    open_duel,
    press,
    refused_calls,
    tap,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeMessage

MOVE = re.compile(r"^([123])\. #([1-6]) \S+ · (Pass|Play) ([12]): (\d{1,3})%$")

# Played at machine speed: the bot's own pacing to 20 calls a minute per group would hold this
# duel for a minute without testing anything here (tests/e2e/test_flood_e2e.py tests the pacing).
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}



def button(m: FakeMessage, label: str) -> str:
    return next(b["callback_data"] for b in m.buttons() if b["text"] == label)


async def ask_hint(api: FakeTelegramAPI, user: object, m: FakeMessage) -> FakeMessage:
    before = newest_id(api, m.chat)
    assert await press(api, user, m, button(m, "💡 Hint")) is None  # type: ignore[arg-type]
    return await api.wait_for_message(m.chat, lambda x: "Hint" in text_of(x),
                                      after_message_id=before, timeout=TIMEOUT)


async def test_a_hint_in_a_practice_duel_and_its_count_in_the_review(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice, bob = table.players
    offer = await command(fake_api, alice, table.chat, "practice", "30")
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, alice, offer, button(offer, "🟢 Easy")) is None
    await fake_api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                    after_message_id=last, timeout=TIMEOUT)
    rng, hints, taps = random.Random(5), 0, 0
    while (m := live_duel_message(fake_api, table.chat)) is not None:
        if alice.id not in mentioned_ids(m):  # the bot's turn
            await fake_api.wait_for(lambda m=m: live_duel_message(fake_api, table.chat)
                                    is not m, TIMEOUT, "the bot's move")
            continue
        keys = duel_keyboard(m)
        if any(d.endswith(":ty") for d in keys):
            data = next(d for d in keys if d.endswith(":tn"))
        elif hints < 2 and len(keys) > 2:
            labels = m.button_texts()
            assert labels[-2:] == ["📊 Odds", "💡 Hint"]  # side by side, the last row
            if hints == 0:
                assert await press(fake_api, bob, m, button(m, "💡 Hint")) == (
                    "Only the player of this practice duel can ask for a hint.")
            said = await ask_hint(fake_api, alice, m)
            hints += 1
            assert said.reply_to is not None and said.reply_to.message_id == m.message_id
            lines = text_of(said).splitlines()
            assert lines[0].startswith("💡 Hint, bullet ")
            moves = [MOVE.match(line) for line in lines[1:4]]
            assert all(moves), lines
            assert [mv.group(1) for mv in moves if mv] == ["1", "2", "3"]
            chances = [int(mv.group(5)) for mv in moves if mv]
            assert chances == sorted(chances, reverse=True) and chances[0] <= 100
            best = moves[0]
            assert best is not None
            data = next(d for d in keys
                        if d.endswith(f":b{int(best.group(2)) - 1}{best.group(4)}"))
        else:
            data = rng.choice(keys)
        assert await tap(fake_api, alice, m, data) is None
        taps += 1
        assert taps < 20
    assert hints == 2
    [done] = await storage.duels.recent_in_chat(table.chat.id, 1)
    assert done.practice and done.hints == 2
    await bot.restart()  # the count is kept with the duel
    result = fake_api.bot_messages(table.chat)[-1]
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, alice, result, button(result, "🔎 Review")) == (
        "Preparing the review: it will be posted here in a few seconds.")  # computed now
    shown = await fake_api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
    assert "🔎 Review" in text_of(shown) and "💡 Hints taken: 2" in text_of(shown)
    assert shown.reply_to is not None and shown.reply_to.message_id == result.message_id
    assert refused_calls(fake_api, allow=("message to delete not found",)) == []


async def test_a_duel_between_people_has_no_hint(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot(env=QUICK)
    table, _ = new_table(fake_api)
    alice = table.players[0]
    first = await open_duel(fake_api, table)
    m = live_duel(fake_api, table.chat)
    assert not any("Hint" in label or "Odds" in label for label in m.button_texts())
    forged = f"h:{duel_id_of(first)}"
    assert await press(fake_api, alice, m, forged, force=True) == (
        "Only the player of this practice duel can ask for a hint.")
    assert refused_calls(fake_api) == []
