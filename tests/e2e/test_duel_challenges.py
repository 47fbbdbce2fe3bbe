"""Challenges to a duel through the real `sixshooter` process: /duel's checks and bounds, an open
challenge taken by exactly one of two quick takers, decline, withdraw, /cancel, and expiry.
"""

from __future__ import annotations

from bot.storage import ChallengeStatus
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    accept,
    button,
    challenge_keyboard,
    command,
    duel_keyboard,
    former_button,
    new_table,
    press,
    refused_calls,
    reply_to,
    text_of,
)
from tests.support.fakeapi import BOT_USERNAME, FakeTelegramAPI


async def test_duel_command_validations(fake_api: FakeTelegramAPI,
                                        launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice, bob = table.players
    helper = fake_api.add_user("Helper", username="helper_bot", is_bot=True)
    fake_api.add_member(table.chat, helper)
    chat = table.chat
    hello = fake_api.send_message(bob, chat, "hi")
    mine = fake_api.send_message(alice, chat, "me")
    beep = fake_api.send_message(helper, chat, "beep")
    stack_error = "The stack must be a whole number from 10 to 500, for example /duel 40."
    cases = [
        ("9", hello, stack_error),
        ("501", hello, stack_error),
        ("-20", hello, "Write the stack with the digits 0–9"),  # no sign: digits only
        ("fifty", hello, "I did not get that."),
        ("", mine, "You cannot duel yourself."),
        ("@alice", None, "You cannot duel yourself."),
        ("", beep, "Bots do not duel."),
        (f"@{BOT_USERNAME}", None, "A practice duel against me"),  # the bot itself plays
    ]
    for args, target, expected in cases:
        answer = await reply_to(fake_api, alice, chat, "duel", args, reply_to=target)
        assert expected in text_of(answer), (args, text_of(answer))
    bot_reply = fake_api.bot_messages(chat)[-1]
    answer = await reply_to(fake_api, alice, chat, "duel", reply_to=bot_reply)
    assert "A practice duel against me" in text_of(answer)  # in reply to the bot: practice
    private = fake_api.private_chat(alice)
    answer = await command(fake_api, alice, private, "duel")  # a friend anywhere instead
    assert "Duel a friend in any chat" in text_of(answer)
    chosen = answer.buttons()[0]["switch_inline_query_chosen_chat"]
    assert chosen["allow_user_chats"] and chosen["allow_group_chats"]
    assert not await stored.challenges(storage, chat.id)
    assert not await stored.challenges(storage, private.id)
    # /duel@SixShooterTestBot with the bounds of the stack.
    offer = await command(fake_api, alice, chat, "duel", "10", reply_to=hello, mention_bot=True)
    assert "Alice challenges Bob to a Six-Shooter duel, 10 chips each" in text_of(offer)
    await press(fake_api, alice, offer, button(offer, "w"))
    offer = await command(fake_api, alice, chat, "duel", "500", reply_to=hello, mention_bot=True)
    assert "500 chips each" in text_of(offer)
    first = await accept(fake_api, bob, offer)
    assert "Alice: 500" in text_of(first) and "Bob: 500" in text_of(first)
    assert not refused_calls(fake_api)


async def test_an_open_challenge_is_taken_by_exactly_one_of_two_quick_takers(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, (carol,) = new_table(fake_api, extra=1)
    alice, bob = table.players
    offer = await command(fake_api, alice, table.chat, "duel", "30")
    assert "Alice is looking for a duel, 30 chips each" in text_of(offer)
    assert len(challenge_keyboard(offer)) == 2  # accept and withdraw: nobody to decline
    assert await press(fake_api, alice, offer, button(offer, "a")) == (
        "You cannot accept your own challenge.")
    assert await press(fake_api, bob, offer, button(offer, "w")) == (
        "Only the challenger can withdraw it.")
    queries = [fake_api.press_button(u, offer, button(offer, "a")) for u in (bob, carol)]
    answers = [(await fake_api.wait_for_answer(q, timeout=TIMEOUT)).text for q in queries]
    # The slower taker is told why (the challenge is taken: its challenger is in a duel now).
    assert sorted(a or "" for a in answers)[0] == ""
    assert sorted(a or "" for a in answers)[1] in (
        "This challenge is no longer open.", "The challenger is already in another duel here.")
    winner = (bob, carol)[answers.index(None)]
    first = await fake_api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                            timeout=TIMEOUT)
    # The challenge's message became the duel's header: the two who duel (the taker named),
    # the first deal's commitment, no buttons left.
    header = text_of(offer)
    assert f"Duel: Alice vs {winner.first_name}, 30 chips each." in header, header
    assert "Round 1 deck hash: " in header and not offer.reply_markup
    duels = await stored.duels(storage, table.chat.id)
    assert len(duels) == 1
    assert set(duels[0].players) == {alice.id, winner.id}
    assert "Alice: 30" in text_of(first)
    assert not refused_calls(fake_api)


async def test_decline_withdraw_and_cancel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, (carol,) = new_table(fake_api, extra=1)
    alice, bob = table.players
    hello = fake_api.send_message(bob, table.chat, "draw, partner")
    offer = await command(fake_api, alice, table.chat, "duel", reply_to=hello)
    assert "Alice challenges Bob to a Six-Shooter duel, 50 chips each" in text_of(offer)
    for op in ("a", "d"):
        assert await press(fake_api, carol, offer, button(offer, op)) == (
            "This challenge is for someone else.")
    assert await press(fake_api, bob, offer, button(offer, "d")) == "Challenge declined."
    assert text_of(offer) == "❌ Bob declined Alice's challenge." and not offer.reply_markup
    assert await press(fake_api, bob, offer, former_button(offer, ":a"), force=True) == (
        "This challenge is no longer open.")

    offer = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder")
    again = await reply_to(fake_api, alice, table.chat, "duel")
    assert "already have an open challenge" in text_of(again)
    assert await press(fake_api, alice, offer, button(offer, "w")) == "Challenge withdrawn."
    assert "Alice withdrew the challenge" in text_of(offer) and not offer.reply_markup

    offer = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder 12")
    assert "12 chips each" in text_of(offer)
    done = await reply_to(fake_api, alice, table.chat, "cancel")
    assert text_of(done) == "Your challenge is withdrawn."
    await fake_api.wait_for(lambda: not offer.reply_markup, TIMEOUT, "the withdrawn challenge")
    assert "Alice withdrew the challenge" in text_of(offer)
    nothing = await reply_to(fake_api, alice, table.chat, "cancel")
    assert text_of(nothing) == "You have no pending challenge here."
    statuses = [c.status for c in await stored.challenges(storage, table.chat.id)]
    assert statuses == [ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED,
                        ChallengeStatus.CANCELLED]
    assert not await stored.duels(storage, table.chat.id)
    assert not refused_calls(fake_api)


async def test_an_unanswered_challenge_expires(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env={"SIXSHOOTER_CHALLENGE_TTL": "2"})
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice, bob = table.players
    offer = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder")
    assert challenge_keyboard(offer)
    await fake_api.wait_for_edit(offer, timeout=TIMEOUT)
    assert "expired" in text_of(offer) and "Alice" in text_of(offer)
    assert not offer.reply_markup
    assert await press(fake_api, bob, offer, former_button(offer, ":a"), force=True) == (
        "This challenge is no longer open.")
    assert [c.status for c in await stored.challenges(storage, table.chat.id)] == [
        ChallengeStatus.EXPIRED]
    assert not await stored.duels(storage, table.chat.id)
    assert not refused_calls(fake_api)
