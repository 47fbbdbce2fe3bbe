"""Duel a friend anywhere (issue 38), through the real `sixshooter` process: two friends in
their private chat (without the bot) post a challenge through inline mode and play the duel
to its end on that one message, each move an edit of it, whoever must act nudged in their
private chat with the bot once per turn; the result with its proofs, counted in the pair's
own chat and on no group's board.
"""

from __future__ import annotations

import random

import pytest

from bot.storage import DuelStatus
from bot.storage.inline import is_pair_chat
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import TIMEOUT, duel_keyboard, mentioned_ids, refused_calls
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, FakeMessage, FakeUser

pytestmark = pytest.mark.usefixtures("on_every_engine")

QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}


async def started(api: FakeTelegramAPI, user: FakeUser) -> FakeChat:
    """The user starts the bot in their private chat (and the bot has answered)."""
    chat = api.private_chat(user)
    before = len(api.bot_messages(chat))
    api.send_command(user, chat, "start")
    await api.wait_for(lambda: len(api.bot_messages(chat)) > before, TIMEOUT, "/start's answer")
    return chat


async def post_challenge(api: FakeTelegramAPI, user: FakeUser, chat: FakeChat,
                         typed: str = "") -> FakeMessage:
    query = api.inline_query(user, typed, chat=chat)
    answer = await api.wait_for_inline_answer(query, timeout=TIMEOUT)
    return api.choose_inline_result(user, query, answer.results[0].id, chat)


def nudges(api: FakeTelegramAPI, chat: FakeChat) -> list[FakeMessage]:
    """The bot's messages in a private chat that carry a duel's buttons (its live nudges)."""
    return [m for m in api.bot_messages(chat) if duel_keyboard(m)]


async def play_to_the_end(api: FakeTelegramAPI, table: FakeMessage,
                          players: dict[int, FakeUser], rng: random.Random,
                          private: dict[int, FakeChat]) -> int:
    """Every move made on the inline message by whoever it names to act; each is one edit of
    it, and the player to act has exactly one live nudge in their private chat."""
    moves = 0
    while duel_keyboard(table):
        to_act = mentioned_ids(table)[-1]
        for user_id, chat in private.items():
            live = nudges(api, chat)
            if user_id in mentioned_ids(table):
                assert len(live) == 1, f"player {user_id} has {len(live)} nudges"
        edits = len(table.edits)
        query = api.press_button(players[to_act], table, rng.choice(duel_keyboard(table)))
        answer = await api.wait_for_answer(query, timeout=TIMEOUT)
        assert answer.text is None, answer.text
        await api.wait_for(lambda: len(table.edits) > edits, TIMEOUT, "the table's edit")  # noqa: B023
        moves += 1
        assert moves < 200
    return moves


async def test_two_friends_play_a_duel_on_one_message_in_their_private_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    api.set_inline_mode(True, feedback=True)
    alice = api.add_user("Alice", username="alice")
    bob = api.add_user("Bob", username="bob")
    bot = await launch_bot(env=QUICK)
    private = {alice.id: await started(api, alice), bob.id: await started(api, bob)}
    friends = api.user_chat(alice, bob)

    # A number typed: that stack only; out of range: the usual ones.
    query = api.inline_query(alice, "501", chat=friends)
    offered = await api.wait_for_inline_answer(query, timeout=TIMEOUT)
    assert [r.id for r in offered.results] == ["duel:30", "duel:50", "duel:100"]
    table = await post_challenge(api, alice, friends, "40")
    assert table.via_bot is not None and "40 chips" in (table.text or "")

    # Alice cannot accept her own; Bob accepts: the message becomes the table.
    own = api.press_button(alice, table, next(d for d in table.callback_data()
                                              if d.endswith(":a")))
    assert (await api.wait_for_answer(own, timeout=TIMEOUT)).text
    accept = api.press_button(bob, table, next(d for d in table.callback_data()
                                               if d.endswith(":a")))
    await api.wait_for_answer(accept, timeout=TIMEOUT)
    await api.wait_for(lambda: duel_keyboard(table), TIMEOUT, "the table on the message")
    assert table.photo is not None and table.photo.file_id

    rng = random.Random(7)
    moves = await play_to_the_end(api, table, {alice.id: alice, bob.id: bob}, rng, private)
    caption = table.caption or ""
    assert "wins the duel" in caption or "draw" in caption.lower(), caption
    buttons = table.buttons()
    assert any(b.get("copy_text") for b in buttons), "no proofs"
    assert not any(b.get("callback_data", "").endswith(":s") for b in buttons), "standings"
    assert any(b.get("switch_inline_query_current_chat") == "40" for b in buttons), "rematch"
    await api.wait_for(lambda: all(not nudges(api, c) for c in private.values()), TIMEOUT,
                       "the nudges deleted")
    storage = await bot.storage()
    duel = await storage.duels.on_inline(table.inline_message_id or "")
    assert duel is not None and is_pair_chat(duel.chat_id)
    row = await stored.settled(storage, duel.id)
    assert (row.status, row.version, row.shown_version) == (DuelStatus.FINISHED, moves, moves)
    assert len(await storage.results.for_chat(duel.chat_id)) == 1
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()
