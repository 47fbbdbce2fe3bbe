"""A press whose answer fails (Telegram slow or unreachable, "query is too old") still moves
the board at once: the press is saved before it is answered, and the answer no longer stands
between the save and the picture. Without that, the board waited for the sync job (20 s)."""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial

from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Refused,
    Table,
    actor,
    command,
    duel_id_of,
    duel_keyboard,
    newest_id,
    open_duel,
    player,
    text_of,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI

PROMPTLY = 6.0  # seconds: well before the sync job's first round (20 s after the start)
TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


def moved_on(api: FakeTelegramAPI, table: Table, last: int) -> bool:
    """A new message followed the pressed one (every accepted bet passes the turn in a fresh
    message; deleted ones count, since the fresh one may itself be gone already)."""
    return newest_id(api, table.chat) > last


def gone(m: FakeMessage) -> bool:
    """The message the turn left is deleted."""
    return m.deleted


async def test_a_duel_press_whose_answer_is_lost_still_moves_the_board(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob_the_builder", language_code="en")
    table = Table(fake_api, fake_api.create_group(members=[alice, bob]), (alice, bob))
    duel_id = duel_id_of(await open_duel(fake_api, table))
    for failure in ("network", "too old"):
        m = [x for x in fake_api.bot_messages(table.chat) if duel_keyboard(x)][-1]
        last = newest_id(fake_api, table.chat)
        with contextlib.ExitStack() as failing:
            if failure == "network":
                fake_api.inject_network_failure("answerCallbackQuery")
            else:
                failing.enter_context(Refused(fake_api, "answerCallbackQuery", TOO_OLD))
            query = fake_api.press_button(player(table, actor(m)), m, duel_keyboard(m)[0])
            await fake_api.wait_for(partial(moved_on, fake_api, table, last),
                                    PROMPTLY, "the board moved on")
            await fake_api.wait_for(partial(gone, m), PROMPTLY, "the pressed message to go")
        await stored.settled(await bot.storage(), duel_id)
        assert not query.answered, failure  # the answer failed; the board moved all the same
    assert "Traceback" not in bot.log()


async def test_accepting_with_a_failing_answer_starts_the_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob_the_builder", language_code="en")
    chat = fake_api.create_group(members=[alice, bob])
    offer = await command(fake_api, alice, chat, "duel")
    fake_api.inject_network_failure("answerCallbackQuery")
    accept_data = next(d for d in offer.callback_data() if d.endswith(":a"))
    query = fake_api.press_button(bob, offer, accept_data)
    first = await fake_api.wait_for_message(chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=offer.message_id,
                                            timeout=PROMPTLY)
    # The challenge became the duel's header, carrying the first deal's commitment.
    assert first.photo is not None and "Duel: Alice vs Bob" in text_of(offer)
    assert "Round 1 deck hash: " in text_of(offer) and not offer.reply_markup
    await asyncio.sleep(0.5)
    # The duel started fine: no "something went wrong" toast for it (nor a second answer).
    answers = [r for r in fake_api.calls("answerCallbackQuery")
               if r.params.get("callback_query_id") == query.id]
    assert len(answers) == 1 and "text" not in answers[0].params, answers
    assert "Traceback" not in bot.log()


async def test_a_six_card_press_whose_answer_is_refused_still_moves_the_game(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    chat = fake_api.create_group(members=[alice])
    game = await command(fake_api, alice, chat, "sixcard")
    assert game.photo is not None, text_of(game)
    data = next(d for d in game.callback_data() if d.startswith("x:"))
    with Refused(fake_api, "answerCallbackQuery", TOO_OLD):
        query = fake_api.press_button(alice, game, data)
        await fake_api.wait_for(lambda: bool(game.history), PROMPTLY, "the game's edit")
    assert not query.answered
