"""The review after a duel between two people (issue 12.4), through the real `sixshooter`
process: computed once in the background after the result is shown (a tap never waits for
it), kept, and shown by the result's Review button to anyone."""

from __future__ import annotations

import asyncio
import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    finish,
    new_table,
    newest_id,
    open_duel,
    press,
    refused_calls,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI

# A duel played at machine speed fills the group's budget (20 calls in any minute), and the
# review's message would wait up to a minute for room: this test is about the review.
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}


async def test_a_duel_between_people_is_reviewed_once_and_shown_by_its_button(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, others = new_table(fake_api, extra=1)
    await open_duel(fake_api, table)
    await finish(fake_api, table, random.Random(12))
    result = fake_api.bot_messages(table.chat)[-1]
    [record] = await storage.duels.recent_in_chat(table.chat.id, 1)
    review = next(b["callback_data"] for b in result.buttons() if b["text"] == "🔎 Review")
    kept = None
    for _ in range(200):  # computed in the background, within seconds of the result
        kept = await storage.duels.review_of(record.id)
        if kept is not None:
            break
        await asyncio.sleep(0.1)
    assert kept is not None, "no review 20 s after the result"
    carol = others[0]  # anyone may read it
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, carol, result, review) is None
    shown = await fake_api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
    text = text_of(shown)
    assert shown.reply_to is not None and shown.reply_to.message_id == result.message_id
    assert text.startswith("🔎 Review") and "Alice: accuracy " in text and "Bob: accuracy " in text
    assert "luck" in text
    # Kept once: a second press shows the same text, nothing computed again.
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, carol, result, review) is None
    again = await fake_api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
    assert text_of(again) == text
    assert await storage.duels.review_of(record.id) == kept
    assert bot.log().count(f"duel {record.id}: reviewed") == 1
    assert refused_calls(fake_api) == []
