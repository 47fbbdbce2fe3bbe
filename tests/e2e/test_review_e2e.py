"""The review after a duel between two people (issue 12.4), through the real `sixshooter`
process and its search pool (bot.offload): computed lazily (issue 21): nothing before the first
press of the result's Review button (by anyone), which is answered at once ("being prepared")
and gets the review posted in reply to the result; presses meanwhile compute and post nothing
more; a press once it is kept shows it again."""

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
PREPARING = "Preparing the review: it will be posted here in a few seconds."


async def test_a_review_is_computed_on_the_first_press_posted_once_and_shown_again(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, others = new_table(fake_api, extra=1)
    await open_duel(fake_api, table)
    await finish(fake_api, table, random.Random(12))
    result = fake_api.bot_messages(table.chat)[-1]
    [record] = await storage.duels.recent_in_chat(table.chat.id, 1)
    review = next(b["callback_data"] for b in result.buttons() if b["text"] == "🔎 Review")
    # Nothing computed nor armed for a result nobody asked to review.
    assert await storage.duels.review_of(record.id) is None
    assert await storage.jobs.get("review", str(record.id)) is None
    carol = others[0]  # anyone may ask
    last = newest_id(fake_api, table.chat)
    # Two quick presses: both told it is being prepared, one computation, one post.
    said = await asyncio.gather(press(fake_api, carol, result, review),
                                press(fake_api, table.players[0], result, review))
    assert list(said) == [PREPARING, PREPARING]
    shown = await fake_api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
    text = text_of(shown)
    assert shown.reply_to is not None and shown.reply_to.message_id == result.message_id
    assert text.startswith("🔎 Review") and "Alice: accuracy " in text and "Bob: accuracy " in text
    assert "luck" in text
    kept = await storage.duels.review_of(record.id)
    assert kept is not None
    # Kept: a press shows the same text at once, nothing computed again.
    assert await press(fake_api, carol, result, review) is None
    again = await fake_api.wait_for_message(table.chat, after_message_id=shown.message_id,
                                            timeout=TIMEOUT)
    assert text_of(again) == text and again.reply_to is not None
    assert [m.message_id for m in fake_api.bot_messages(table.chat)
            if m.message_id > last] == [shown.message_id, again.message_id]  # posted once
    assert await storage.duels.review_of(record.id) == kept
    assert bot.log().count(f"duel {record.id}: reviewed") == 1
    assert refused_calls(fake_api) == []
