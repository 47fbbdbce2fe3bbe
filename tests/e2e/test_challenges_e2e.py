"""Challenges through the real bot and the fake Bot API: one pending challenge per player per
chat even for /duel commands handled at once; a challenge whose message could not be sent
(or was never sent: a crash) blocks nobody; usernames checked; only the challenged player
declines, and the declined text names them."""

from __future__ import annotations

import time

from bot.storage import ChallengeRecord, ChallengeStatus, Storage
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Refused,
    accept,
    button,
    challenge_keyboard,
    command,
    press,
    reply_to,
    text_of,
)
from tests.support.fakeapi import FakeChat, FakeMessage, FakeTelegramAPI, FakeUser


def group(api: FakeTelegramAPI, *names: str) -> tuple[FakeChat, list[FakeUser]]:
    users = [api.add_user(n, username=f"{n.lower()}_plays", language_code="en") for n in names]
    return api.create_group(members=users), users


async def pending_messages(storage: Storage) -> list[int | None]:
    """The message of every pending challenge, in any chat (None: not recorded)."""
    return [c.message_id for c in await storage.challenges.list_pending()]


def new_bot_messages(api: FakeTelegramAPI, chat: FakeChat, after: int) -> list[FakeMessage]:
    return [m for m in api.bot_messages(chat) if m.message_id > after]


async def test_five_duels_in_one_batch_make_one_challenge_and_four_already_pending_replies(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    chat, (alice, _bob) = group(fake_api, "Alice", "Bob")
    await reply_to(fake_api, alice, chat, "rules")  # the bot knows them: only the duels race
    sent = [fake_api.send_command(alice, chat, "duel", str(10 * (i + 2))) for i in range(5)]
    ids = {m.update_id for m in sent}
    await fake_api.wait_for(lambda: len(new_bot_messages(fake_api, chat, sent[0].message_id))
                            >= 5, TIMEOUT, "an answer to each /duel")
    batches = [r for r in fake_api.calls("getUpdates") if isinstance(r.result, list)
               and ids <= {u["update_id"] for u in r.result}]
    assert batches, "the five commands did not arrive in one batch"
    answers = new_bot_messages(fake_api, chat, sent[0].message_id)
    challenges = [m for m in answers if challenge_keyboard(m)]
    refused = [m for m in answers if "already have an open challenge" in text_of(m)]
    assert len(challenges) == 1 and len(refused) == 4, [text_of(m) for m in answers]
    answered = {m.reply_to.message_id for m in refused if m.reply_to is not None}
    assert len(answered) == 4 and answered < {m.message_id for m in sent}
    await stored.until(lambda: pending_messages(storage),
                       lambda ids: ids == [challenges[0].message_id],
                       "one pending challenge, its message recorded")
    assert len(await stored.challenges(storage, chat.id)) == 1
    assert not [r.summary() for r in fake_api.failed_calls()]


async def test_a_username_telegram_would_not_allow_is_refused_with_a_reply(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    chat, (alice, _bob) = group(fake_api, "Alice", "Bob")
    for bad in ("@" + "x" * 4000, "@bob-smith", "@abc"):
        answer = await reply_to(fake_api, alice, chat, "duel", bad)
        assert "not a Telegram username" in text_of(answer)
    assert not await stored.challenges(storage, chat.id)
    for bad in ("--5", "²", "①", "⁵⁰", "٥٠", "５０"):
        answer = await reply_to(fake_api, alice, chat, "duel", bad)
        assert "digits 0–9" in text_of(answer), (bad, text_of(answer))
    assert not await stored.challenges(storage, chat.id)
    offer = await command(fake_api, alice, chat, "duel", "@abcd 40")  # collectible: 4 letters
    assert "@abcd" in text_of(offer) and "40 chips each" in text_of(offer)
    assert not [r.summary() for r in fake_api.failed_calls()]


async def test_a_challenge_whose_message_cannot_be_sent_blocks_nobody(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    chat, (alice, bob) = group(fake_api, "Alice", "Bob")
    await reply_to(fake_api, alice, chat, "rules")
    # Telegram refuses the challenge's message: the apology instead, and nothing pending.
    with Refused(fake_api, "sendMessage", "can't parse entities: unsupported start tag"):
        sorry = await reply_to(fake_api, alice, chat, "duel")
    assert "something went wrong" in text_of(sorry)
    assert not await storage.challenges.list_pending()
    offer = await command(fake_api, alice, chat, "duel", "30")  # at once, not after a /cancel
    assert challenge_keyboard(offer) and "30 chips each" in text_of(offer)
    await stored.until(lambda: pending_messages(storage), lambda ids: ids == [offer.message_id],
                       "the challenge's message recorded")
    assert await press(fake_api, alice, offer, button(offer, "w")) == "Challenge withdrawn."
    # The network drops the send: nothing pending either.
    fake_api.inject_network_failure("sendMessage")
    lost = fake_api.send_command(alice, chat, "duel")
    await fake_api.wait_for(lambda: any(r.method == "sendMessage" and r.status == -1
                                        for r in fake_api.requests), TIMEOUT, "the lost send")
    await stored.until(lambda: pending_messages(storage), lambda ids: not ids,
                       "the challenge undone")
    again = await command(fake_api, alice, chat, "duel", "20")
    assert again.message_id > lost.message_id and "20 chips each" in text_of(again)
    duel = await accept(fake_api, bob, again)
    assert duel.photo is not None


async def insert_unsent(storage: Storage, chat: FakeChat, user: FakeUser, age: int) -> int:
    """A pending challenge without message, as a crash between its insert and its send
    leaves one, `age` seconds old (made as the bot makes one, before sending it)."""
    now = int(time.time())
    made = await storage.challenges.create(chat.id, None, user.id, None, None, 50,
                                           now - age, now - age + 600)
    assert isinstance(made, ChallengeRecord), made
    return made.id


async def test_a_challenge_left_unsent_by_a_crash_blocks_nobody(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    chat, (alice, bob) = group(fake_api, "Alice", "Bob")
    stuck = await insert_unsent(storage, chat, alice, age=60)
    offer = await command(fake_api, alice, chat, "duel")  # the next /duel closes it
    assert challenge_keyboard(offer)
    assert (await stored.challenge(storage, stuck)).status is ChallengeStatus.EXPIRED
    # (Killed before the /duel was crossed off, the restarted bot would take it up again and
    # answer it a second time: wait for that, as a kill seconds later would.)
    await stored.inbox_empty(storage)
    await bot.kill()
    stuck = await insert_unsent(storage, chat, bob, age=60)
    await bot.start()  # and at start-up, every one of them
    assert (await stored.challenge(storage, stuck)).status is ChallengeStatus.EXPIRED
    assert [c.challenger_id for c in await storage.challenges.list_pending()] == [alice.id]
    bobs = await command(fake_api, bob, chat, "duel")
    assert challenge_keyboard(bobs)


async def test_only_the_challenged_player_declines_and_is_named(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    chat, (alice, bob, carol, erin) = group(fake_api, "Alice", "Bob", "Carol", "Erin")
    stranger = fake_api.add_user("Mallory", username="mallory")  # not in the group
    # An open challenge has no Decline button, and a forged decline changes nothing.
    offer = await command(fake_api, alice, chat, "duel")
    assert [d[-1] for d in challenge_keyboard(offer)] == ["a", "w"]
    forged = button(offer, "a")[:-1] + "d"
    text = text_of(offer)
    for who in (stranger, carol, bob, alice):
        toast = await press(fake_api, who, offer, forged, force=True)
        assert toast == ("An open challenge cannot be declined: its author may withdraw it, "
                         "or it expires."), toast
    assert text_of(offer) == text and challenge_keyboard(offer)
    row = await stored.challenge(storage, int(forged.split(":")[1]))
    assert (row.status, row.version) == (ChallengeStatus.PENDING, 0)
    duel = await accept(fake_api, carol, offer)  # still acceptable
    assert duel.photo is not None and "Duel: Alice vs Carol" in text_of(offer)

    # A challenge to someone: only they decline it, and the text names them.
    hello = fake_api.send_message(erin, chat, "again?")
    offer = await command(fake_api, bob, chat, "duel", reply_to=hello)
    assert [d[-1] for d in challenge_keyboard(offer)] == ["a", "d", "w"]
    assert await press(fake_api, stranger, offer, button(offer, "d"), force=True) == (
        "This challenge is for someone else.")
    assert await press(fake_api, alice, offer, button(offer, "d")) == (
        "This challenge is for someone else.")
    assert await press(fake_api, bob, offer, button(offer, "d")) == (
        "This is your own challenge: withdraw it instead.")
    assert challenge_keyboard(offer)
    assert await press(fake_api, erin, offer, button(offer, "d")) == "Challenge declined."
    assert text_of(offer) == "❌ Erin declined Bob's challenge." and not offer.reply_markup

    # By @username, to someone the bot has never seen: declined under their name too.
    dave = fake_api.add_user("Dave", username="dave_the_quiet")
    fake_api.add_member(chat, dave)
    offer = await command(fake_api, bob, chat, "duel", "@dave_the_quiet")
    assert "@dave_the_quiet" in text_of(offer)
    assert await press(fake_api, dave, offer, button(offer, "d")) == "Challenge declined."
    assert text_of(offer) == "❌ Dave declined Bob's challenge."
    statuses = [c.status for c in await stored.challenges(storage, chat.id)]
    assert statuses == [ChallengeStatus.ACCEPTED, ChallengeStatus.DECLINED,
                        ChallengeStatus.DECLINED]
    assert not [r.summary() for r in fake_api.failed_calls()]
