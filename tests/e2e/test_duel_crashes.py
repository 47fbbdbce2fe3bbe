"""A duel survives the bot's crashes: kill -9 between taps and in the middle of one (saved, not
yet answered or shown), then a restart on the same database that brings the message up to
date and applies nothing twice.
"""

from __future__ import annotations

import contextlib
import random

import pytest

from bot.storage import DuelStatus
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Held,
    actor_user,
    costs,
    duel_id_of,
    duel_keyboard,
    finish,
    gone,
    live_duel,
    live_duel_message,
    move,
    new_table,
    open_duel,
    quiet,
    refused_calls,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeTelegramAPI

# The state that matters survives on both engines: SQLite and PostgreSQL (tests/e2e/conftest.py).
pytestmark = pytest.mark.usefixtures("on_every_engine")


async def test_kill_9_between_taps_and_mid_tap_then_restart_and_finish(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    # At machine speed without the bot's own pacing: on PostgreSQL the group's flood budget is
    # kept in the database, so it outlives the kills and would hold the last tables for a
    # minute (20 calls a minute; test_flood_e2e tests the pacing).
    bot = await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    header = fake_api.bot_messages(table.chat)[0]  # the challenge, now the duel's header
    rng = random.Random(11)
    await move(fake_api, table, rng)
    taps = 1

    # kill -9 between taps: nothing lags, so the restart redraws nothing. (The janitor's
    # journal may still hold the replaced messages if the kill came between their delete and
    # crossing them off, a second later: deleting them again is the one call allowed, and it
    # deletes nothing.)
    await stored.settled(storage, duel_id)
    await bot.kill()
    live = live_duel(fake_api, table.chat)
    shown, count = live.content_key(), len(fake_api.bot_messages(table.chat))
    gone_before = {m.message_id for m in fake_api.bot_messages(table.chat, include_deleted=True)
                   if m.deleted}
    since = fake_api.last_seq
    await bot.start()
    await quiet()
    assert live.content_key() == shown and len(fake_api.bot_messages(table.chat)) == count
    assert not {"sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageText"} & set(
        costs(fake_api, since))
    again = [m for r in fake_api.requests if r.seq > since
             for m in ([r.params["message_id"]] if r.method == "deleteMessage" else
                       r.params["message_ids"] if r.method == "deleteMessages" else [])]
    assert set(again) <= gone_before
    await move(fake_api, table, rng)  # the old buttons work after the restart
    taps += 1

    # kill -9 after a tap was fetched and saved, before it was answered or shown.
    live = live_duel(fake_api, table.chat)
    data = rng.choice(duel_keyboard(live))
    # The answer and the redraw (a fresh message, the old one deleted, the header edited
    # when a deal is dealt) go out together: hold them all, so none lands before the kill.
    with contextlib.ExitStack() as stack:
        held = stack.enter_context(Held(fake_api, "answerCallbackQuery"))
        for method in ("sendPhoto", "deleteMessage", "editMessageText", "editMessageCaption",
                       "editMessageMedia"):
            stack.enter_context(Held(fake_api, method))
        query = fake_api.press_button(actor_user(table, live), live, data)
        await held.wait_arrived()
        await bot.kill()
    taps += 1
    row = await stored.duel(storage, duel_id)
    assert row.version == taps and row.shown_version == taps - 1  # saved, not shown
    assert version_of(live) == taps - 1 and not query.answered
    await bot.start()
    # Brought up to date at start: the live message carries the saved version.
    await fake_api.wait_for(lambda: (m := live_duel_message(fake_api, table.chat)) is not None
                            and version_of(m) == taps, TIMEOUT, "the redraw after restart")
    # If the update came again, it was refused as stale: nothing was applied twice. The duel
    # is shown once: the message the kill left behind is gone.
    await quiet()
    assert (await stored.duel(storage, duel_id)).version == taps
    assert live.deleted
    assert len([x for x in fake_api.bot_messages(table.chat) if duel_keyboard(x)]) == 1
    # The press was saved in the inbox before the kill, so the restarted bot handled it again
    # (the move already made: the quiet answer of a double tap), and it is never left
    # unanswered.
    await fake_api.wait_for_answer(query, timeout=TIMEOUT)
    assert query.text in (None, "This button is out of date: use the latest message of the duel.")

    taps += await finish(fake_api, table, rng)
    await gone(fake_api, *[x for x in fake_api.bot_messages(table.chat) if duel_keyboard(x)])
    row = await stored.settled(storage, duel_id)
    assert (row.version, row.status, row.shown_version) == (taps, DuelStatus.FINISHED, taps)
    assert len(await storage.results.for_chat(table.chat.id)) == 1
    assert stored.actions(row) == taps
    # The finished duel leaves its header and its result, nothing else.
    left = fake_api.bot_messages(table.chat)
    assert len(left) == 2 and left[0] is header, [text_of(x) for x in left]
    assert "Round 1 deck hash" in text_of(header) and "Round 2 deck hash" in text_of(header)
    result = left[1]
    assert result.photo is not None and not duel_keyboard(result)
    assert "wins the duel" in text_of(result) or "draw" in text_of(result).lower()
    # (A press delivered again after the restart may try to take the buttons off a message
    # that has none already: Telegram says "not modified", which is harmless; the journal's
    # second delete of a message deleted just before a kill finds it gone, as harmless; and a
    # press handled but not yet crossed off in the inbox when the kill came is handled again
    # after the restart, whose second answer Telegram refuses as too old, as harmless.)
    assert not refused_calls(fake_api, allow=("message is not modified",
                                              "message to delete not found",
                                              "query is too old"))
