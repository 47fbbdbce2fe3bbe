"""A bad day at Telegram, through the real bot process and the fake Bot API.

Failures are scoped to what failed: a closed forum topic holds back only its own duel, a group
that disallows photos for a while only delays the next picture, and nothing is abandoned until
Telegram says the bot is out of the chat. Sends are idempotent from the bot's side: a slow
Telegram (6-second answers) gets each message once, a send whose answer was lost is not made
again, and an extra copy that still exists is retired when pressed.
"""

from __future__ import annotations

import random

from bot.storage import DuelStatus, GameStatus, Storage
from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor,
    command,
    duel_id_of,
    duel_keyboard,
    open_duel,
    player,
    press,
    reply_to,
    tap,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeChat, FakeMessage, FakeTelegramAPI, FakeUser

QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}  # these tests are about failures, not flood pacing
SYNC_WAIT = 50.0  # the sync job runs every 20 s and leaves a save alone for its first 5 s
STALE = "This button is out of date: use the latest message of the duel."
DELETE_WAIT = 75.0  # a delete may wait for room in the chat's flood budget


def live_messages(api: FakeTelegramAPI, chat: FakeChat, duel_id: int) -> list[FakeMessage]:
    """The chat's messages that carry live buttons of this duel."""
    return [m for m in api.bot_messages(chat)
            if any(d.startswith(f"d:{duel_id}:") for d in duel_keyboard(m))]


def only_live(api: FakeTelegramAPI, chat: FakeChat, duel_id: int) -> FakeMessage:
    found = live_messages(api, chat, duel_id)
    assert len(found) == 1, [(m.message_id, m.callback_data()) for m in found]
    return found[0]


async def move_unshown(api: FakeTelegramAPI, table: Table, m: FakeMessage,
                       rng: random.Random) -> None:
    """Make the move asked for on `m` with a press only: it is accepted and saved, but the
    fresh message that passes the turn is to fail (so `m` is not deleted either)."""
    user = player(table, actor(m))
    assert await press(api, user, m, rng.choice(duel_keyboard(m))) is None


async def deleted(api: FakeTelegramAPI, *messages: FakeMessage) -> None:
    """Wait until the bot has deleted these messages (a delete may wait a little for room in
    the chat's flood budget; it must come)."""
    await api.wait_for(lambda: all(m.deleted for m in messages), DELETE_WAIT,
                       "the replaced messages deleted")


def refused(api: FakeTelegramAPI) -> list[str]:
    return sorted({r.description or "" for r in api.failed_calls()})


async def statuses(storage: Storage, chat: FakeChat, sixcard: FakeUser) -> dict[str, list[str]]:
    """The status of every duel, challenge and six-card game (of `sixcard`, the chat's one
    six-card player) in the chat, oldest first."""
    return {
        "duels": [d.status for d in await stored.duels(storage, chat.id)],
        "challenges": [c.status for c in await stored.challenges(storage, chat.id)],
        "sixcard_games": [g.status for g in await stored.games(storage, chat.id, sixcard.id)],
    }


# --- failures scoped to what failed -----------------------------------------------------------


async def test_a_closed_topic_holds_back_its_own_duel_and_nothing_else(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """Decision (bot/telegram/send.py): a closed topic's duel waits in its topic; it is not moved to
    General. Another topic's duel goes on, nothing is abandoned, and once the topic reopens the
    sync job shows the waiting duel there."""
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob, carol, dave, eve = (fake_api.add_user(n, username=n.lower()) for n in (
        "Alice", "Bob", "Carol", "Dave", "Eve"))
    chat = fake_api.create_group("Saloon", forum=True,
                                 members=[alice, bob, carol, dave, eve])
    saloon, stable = fake_api.create_topic(chat, "Saloon"), fake_api.create_topic(chat, "Stable")
    closed = Table(fake_api, chat, (alice, bob), thread=saloon)
    open_ = Table(fake_api, chat, (carol, dave), thread=stable)
    a = await open_duel(fake_api, closed)
    b = await open_duel(fake_api, open_)
    a_id, b_id = duel_id_of(a), duel_id_of(b)
    game = await command(fake_api, eve, chat, "sixcard", message_thread_id=saloon)
    assert game.photo is not None and game.message_thread_id == saloon
    offer = await command(fake_api, eve, chat, "duel")  # an open challenge, in General
    assert offer.message_thread_id is None and offer.reply_markup
    rng = random.Random(11)

    fake_api.close_topic(chat, saloon)
    await move_unshown(fake_api, closed, a, rng)
    row = await stored.until(lambda: stored.duel(storage, a_id),
                             lambda r: r.shown_version is not None and r.shown_version < r.version,
                             "duel A saved, unshown")
    await fake_api.wait_for(lambda: "Bad Request: TOPIC_CLOSED" in refused(fake_api), TIMEOUT,
                            "the refused send")
    assert row.status is DuelStatus.LIVE
    # The move's message waits: the old one stays where it was, not deleted (nothing replaced it).
    assert only_live(fake_api, chat, a_id) is a and not a.deleted
    assert version_of(a) < row.version

    # The other topic's duel goes on across the end of its bullet (two moves).
    m = b
    for _ in range(2):
        user = player(open_, actor(m))
        assert await tap(fake_api, user, m, rng.choice(duel_keyboard(m))) is None
        await deleted(fake_api, m)
        m = only_live(fake_api, chat, b_id)
    assert m.message_thread_id == stable and version_of(m) == (
        await stored.duel(storage, b_id)).version == 2
    assert "bullet 2 of 6" in text_of(m)
    # Nothing anywhere was abandoned, expired or refunded.
    now = await statuses(storage, chat, eve)
    assert now["duels"] == ["live", "live"]
    assert now["challenges"] == ["accepted", "accepted", "pending"]
    assert now["sixcard_games"] == ["live"]
    known = await storage.chats.get(chat.id)
    assert known is not None and known.active
    assert not await storage.results.for_chat(chat.id)

    # Reopened: the sync job shows the waiting duel in its own topic, and it plays on.
    fake_api.reopen_topic(chat, saloon)
    shown = await fake_api.wait_for_message(
        chat, lambda x: any(d.startswith(f"d:{a_id}:") for d in duel_keyboard(x)),
        after_message_id=a.message_id, timeout=SYNC_WAIT)
    assert shown.message_thread_id == saloon and version_of(shown) == row.version
    await deleted(fake_api, a)
    assert await tap(fake_api, player(closed, actor(shown)), shown,
                     rng.choice(duel_keyboard(shown))) is None
    settled = await stored.settled(storage, a_id)
    await deleted(fake_api, shown)
    now_live = only_live(fake_api, chat, a_id)
    assert now_live.message_thread_id == saloon
    assert (now_live.message_id, version_of(now_live)) == (settled.message_id, settled.version)
    assert refused(fake_api) == ["Bad Request: TOPIC_CLOSED"]
    assert "Traceback" not in bot.log()


async def test_photos_disallowed_for_a_while_delay_the_next_picture_and_lose_nothing(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob, carol = (fake_api.add_user(n, username=n.lower()) for n in ("Alice", "Bob",
                                                                             "Carol"))
    chat = fake_api.create_group(members=[alice, bob, carol])
    table = Table(fake_api, chat, (alice, bob))
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    game = await command(fake_api, carol, chat, "sixcard")
    assert game.photo is not None
    balance_before = (await stored.balance(storage, chat.id, carol.id)).balance

    fake_api.restrict_photos(chat)
    await move_unshown(fake_api, table, first, random.Random(5))
    await fake_api.wait_for(
        lambda: "Bad Request: not enough rights to send photos to the chat" in refused(fake_api),
        TIMEOUT, "the refused sendPhoto")
    row = await stored.duel(storage, duel_id)
    assert row.status is DuelStatus.LIVE
    assert row.shown_version is not None and row.shown_version < row.version
    # not refunded: still playing
    assert (await statuses(storage, chat, carol))["sixcard_games"] == ["live"]
    assert (await stored.balance(storage, chat.id, carol.id)).balance == balance_before
    # Commands still get their (text) answers meanwhile.
    busy = await reply_to(fake_api, alice, chat, "duel")
    assert "already have a live duel" in text_of(busy)
    await fake_api.wait_for(lambda: len([r for r in fake_api.calls("sendPhoto")
                                         if r.status == 400]) == 2, TIMEOUT,
                            "the duel shown again, refused too")

    fake_api.restrict_photos(chat, False)  # the sync job sends the next bullet
    nxt = await fake_api.wait_for_message(chat, lambda x: bool(duel_keyboard(x)),
                                          after_message_id=first.message_id, timeout=SYNC_WAIT)
    assert version_of(nxt) == row.version
    await deleted(fake_api, first)
    assert await tap(fake_api, player(table, actor(nxt)), nxt,
                     duel_keyboard(nxt)[0]) is None
    settled = await stored.settled(storage, duel_id)
    await deleted(fake_api, nxt)
    assert settled.message_id == only_live(fake_api, chat, duel_id).message_id
    assert (await statuses(storage, chat, carol))["duels"] == ["live"]
    assert "Traceback" not in bot.log()


async def test_a_send_refused_because_the_bot_was_kicked_forgets_the_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """403 "bot was kicked from the group chat" (before any my_chat_member arrives) is the one
    answer of a send that closes the chat's games."""
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob, carol = (fake_api.add_user(n, username=n.lower()) for n in ("Alice", "Bob",
                                                                             "Carol"))
    chat = fake_api.create_group(members=[alice, bob, carol])
    table = Table(fake_api, chat, (alice, bob))
    m = await open_duel(fake_api, table)
    await command(fake_api, carol, chat, "sixcard")
    chat.bot_status = "kicked"  # Telegram's update about it has not come yet
    assert await press(fake_api, player(table, actor(m)), m, duel_keyboard(m)[0]) is None
    await stored.until(lambda: stored.duel(storage, duel_id_of(m)),
                       lambda d: d.status is DuelStatus.ABANDONED, "the duel closed")
    assert await stored.until(lambda: stored.games(storage, chat.id, carol.id),
                              lambda games: [g.status for g in games] == [GameStatus.ABANDONED],
                              "the game refunded")
    assert (await stored.balance(storage, chat.id, carol.id)).balance == 1000
    assert "Forbidden: bot was kicked from the group chat" in refused(fake_api)


# --- no duplicates under a slow Telegram ------------------------------------------------------


async def test_six_second_answers_give_exactly_one_live_message_per_move(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob = fake_api.add_user("Alice"), fake_api.add_user("Bob")
    chat = fake_api.create_group(members=[alice, bob])
    table = Table(fake_api, chat, (alice, bob))
    for method in ("sendPhoto", "deleteMessage", "editMessageText", "editMessageCaption"):
        fake_api.delay(method, 6.0)
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    rng = random.Random(3)
    m = first
    for _ in range(2):  # the whole first bullet, until the second one's message is live
        assert await tap(fake_api, player(table, actor(m)), m, rng.choice(duel_keyboard(m))) \
            is None
        await deleted(fake_api, m)
        m = only_live(fake_api, chat, duel_id)
    row = await stored.settled(storage, duel_id, timeout=30.0)
    assert row.message_id == m.message_id and version_of(m) == row.version == 2
    photos = [x for x in fake_api.bot_messages(chat, include_deleted=True)
              if x.photo is not None]
    assert fake_api.call_count("sendPhoto") == len(photos) == 3  # one per move, none twice
    assert [x.message_id for x in photos if not x.deleted] == [m.message_id]
    assert not fake_api.failed_calls()


async def test_a_send_whose_answer_was_lost_is_not_made_again_and_a_press_finds_it(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob = fake_api.add_user("Alice"), fake_api.add_user("Bob")
    chat = fake_api.create_group(members=[alice, bob])
    table = Table(fake_api, chat, (alice, bob))
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    rng = random.Random(8)
    fake_api.inject_network_failure("sendPhoto", after_processing=True)
    sends = fake_api.call_count("sendPhoto")
    await move_unshown(fake_api, table, first, rng)
    arrived = await fake_api.wait_for_message(chat, lambda x: bool(duel_keyboard(x)),
                                              after_message_id=first.message_id,
                                              timeout=TIMEOUT)
    await fake_api.wait_for(lambda: fake_api.calls("sendPhoto")[-1].status == -1, TIMEOUT,
                            "the dropped answer")
    row = await stored.duel(storage, duel_id)
    assert row.message_id == first.message_id  # the bot does not know it arrived
    assert fake_api.call_count("sendPhoto") == sends + 1  # and did not send it again
    # A press on it (before the sync job would show the duel again): it is the live message
    # now, and its move passes the turn as on any live message.
    assert await tap(fake_api, player(table, actor(arrived)), arrived,
                     rng.choice(duel_keyboard(arrived))) is None
    row = await stored.settled(storage, duel_id)
    # The message the arrived one replaced (the first, the bot's saved one until the press)
    # must not keep its buttons either.
    await deleted(fake_api, arrived)
    await fake_api.wait_for(lambda: first.deleted or not duel_keyboard(first), DELETE_WAIT,
                            "the message the arrived one replaced retired")
    now_live = only_live(fake_api, chat, duel_id)  # no other message keeps live buttons
    assert row.message_id == now_live.message_id
    assert fake_api.call_count("sendPhoto") == sends + 2  # the move after it, nothing twice
    assert len([x for x in fake_api.bot_messages(chat, include_deleted=True)
                if x.photo is not None]) == fake_api.call_count("sendPhoto")


async def test_an_extra_copy_of_the_live_message_is_deleted_when_pressed(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """The lost answer again, then the duel is shown once more (as the sync job would): two
    copies with the same buttons. A press on the older one retires it."""
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    alice, bob = fake_api.add_user("Alice"), fake_api.add_user("Bob")
    chat = fake_api.create_group(members=[alice, bob])
    table = Table(fake_api, chat, (alice, bob))
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    fake_api.inject_network_failure("sendPhoto", after_processing=True)
    busy = await reply_to(fake_api, alice, chat, "duel")  # shows the duel again, below
    extra = await fake_api.wait_for_message(chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=busy.message_id, timeout=TIMEOUT)
    await fake_api.wait_for(lambda: fake_api.calls("sendPhoto")[-1].status == -1, TIMEOUT,
                            "the dropped answer")
    again = await reply_to(fake_api, bob, chat, "duel")
    saved = await fake_api.wait_for_message(chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=again.message_id, timeout=TIMEOUT)
    await stored.until(lambda: stored.duel(storage, duel_id),
                       lambda d: d.message_id == saved.message_id,
                       "the second copy saved as the live one")
    assert version_of(extra) == version_of(saved) == 0
    await deleted(fake_api, first)

    assert await press(fake_api, player(table, actor(extra)), extra,
                       duel_keyboard(extra)[0]) == STALE
    await deleted(fake_api, extra)
    assert only_live(fake_api, chat, duel_id) is saved
    assert (await stored.duel(storage, duel_id)).version == 0  # the press on the copy did nothing
    assert await tap(fake_api, player(table, actor(saved)), saved,
                     duel_keyboard(saved)[0]) is None
    await deleted(fake_api, saved)
    assert version_of(only_live(fake_api, chat, duel_id)) == 1
