"""Challenges through the real bot and the fake Bot API: one pending challenge per player per
chat even for /duel commands handled at once; a challenge whose message could not be sent
(or was never sent: a crash) blocks nobody; usernames checked; only the challenged player
declines, and the declined text names them."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    accept,
    button,
    challenge_keyboard,
    command,
    db_rows,
    eventually,
    press,
    reply_to,
    text_of,
)
from tests.support.fakeapi import ApiError, FakeChat, FakeMessage, FakeTelegramAPI, FakeUser

Handler = Callable[[Any, Any], Awaitable[Any]]


class Refused:
    """Telegram refuses the next `count` calls of `method` with 400 `detail` (a send the bot
    cannot make); the calls after those go through. Use as ``with Refused(api, ...):``."""

    def __init__(self, api: FakeTelegramAPI, method: str, detail: str, count: int = 1) -> None:
        self.api, self.method, self.detail, self.left = api, method, detail, count
        self._original: Handler | None = None

    def __enter__(self) -> Refused:
        handlers = self.api._handlers  # the fake's method table (no public hook for this)
        self._original = original = handlers[self.method]

        async def refused(params: Any, uploads: Any) -> Any:
            if self.left > 0:
                self.left -= 1
                raise ApiError.bad_request(self.detail)
            return await original(params, uploads)

        handlers[self.method] = refused
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._original is not None
        self.api._handlers[self.method] = self._original


def group(api: FakeTelegramAPI, *names: str) -> tuple[FakeChat, list[FakeUser]]:
    users = [api.add_user(n, username=f"{n.lower()}_plays", language_code="en") for n in names]
    return api.create_group(members=users), users


def pending(db: Path, user: FakeUser | None = None) -> list[dict[str, Any]]:
    sql = "SELECT * FROM challenges WHERE status = 'pending'"
    if user is None:
        return db_rows(db, sql)
    return db_rows(db, sql + " AND challenger_id = ?", (user.id,))


def new_bot_messages(api: FakeTelegramAPI, chat: FakeChat, after: int) -> list[FakeMessage]:
    return [m for m in api.bot_messages(chat) if m.message_id > after]


async def test_five_duels_in_one_batch_make_one_challenge_and_four_already_pending_replies(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
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
    await eventually(lambda: [r["message_id"] for r in pending(bot.db_path)] == [
        challenges[0].message_id], "one pending challenge, its message recorded")
    assert len(db_rows(bot.db_path, "SELECT * FROM challenges")) == 1
    assert not [r.summary() for r in fake_api.failed_calls()]


async def test_a_username_telegram_would_not_allow_is_refused_with_a_reply(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    chat, (alice, _bob) = group(fake_api, "Alice", "Bob")
    for bad in ("@" + "x" * 4000, "@bob-smith", "@abc"):
        answer = await reply_to(fake_api, alice, chat, "duel", bad)
        assert "not a Telegram username" in text_of(answer)
    assert not db_rows(bot.db_path, "SELECT * FROM challenges")
    for bad in ("--5", "²", "①", "⁵⁰", "٥٠", "５０"):
        answer = await reply_to(fake_api, alice, chat, "duel", bad)
        assert "digits 0–9" in text_of(answer), (bad, text_of(answer))
    assert not db_rows(bot.db_path, "SELECT * FROM challenges")
    offer = await command(fake_api, alice, chat, "duel", "@abcd 40")  # collectible: 4 letters
    assert "@abcd" in text_of(offer) and "40 chips each" in text_of(offer)
    assert not [r.summary() for r in fake_api.failed_calls()]


async def test_a_challenge_whose_message_cannot_be_sent_blocks_nobody(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    chat, (alice, bob) = group(fake_api, "Alice", "Bob")
    await reply_to(fake_api, alice, chat, "rules")
    # Telegram refuses the challenge's message: the apology instead, and nothing pending.
    with Refused(fake_api, "sendMessage", "can't parse entities: unsupported start tag"):
        sorry = await reply_to(fake_api, alice, chat, "duel")
    assert "something went wrong" in text_of(sorry)
    assert not pending(bot.db_path)
    offer = await command(fake_api, alice, chat, "duel", "30")  # at once, not after a /cancel
    assert challenge_keyboard(offer) and "30 chips each" in text_of(offer)
    await eventually(lambda: [r["message_id"] for r in pending(bot.db_path)] == [
        offer.message_id], "the challenge's message recorded")
    assert await press(fake_api, alice, offer, button(offer, "w")) == "Challenge withdrawn."
    # The network drops the send: nothing pending either.
    fake_api.inject_network_failure("sendMessage")
    lost = fake_api.send_command(alice, chat, "duel")
    await fake_api.wait_for(lambda: any(r.method == "sendMessage" and r.status == -1
                                        for r in fake_api.requests), TIMEOUT, "the lost send")
    await fake_api.wait_for(lambda: not pending(bot.db_path), TIMEOUT, "the challenge undone")
    again = await command(fake_api, alice, chat, "duel", "20")
    assert again.message_id > lost.message_id and "20 chips each" in text_of(again)
    duel = await accept(fake_api, bob, again)
    assert duel.photo is not None


def insert_unsent(db: Path, chat: FakeChat, user: FakeUser, age: int) -> int:
    """A pending challenge without message, as a crash between its insert and its send
    leaves one, `age` seconds old."""
    now = int(time.time())
    conn = sqlite3.connect(db, isolation_level=None, timeout=10)
    try:
        cursor = conn.execute(
            "INSERT INTO challenges (chat_id, challenger_id, stack, created_at, expires_at)"
            " VALUES (?, ?, 50, ?, ?)", (chat.id, user.id, now - age, now - age + 600))
        assert cursor.lastrowid is not None
        return cursor.lastrowid
    finally:
        conn.close()


async def test_a_challenge_left_unsent_by_a_crash_blocks_nobody(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    chat, (alice, bob) = group(fake_api, "Alice", "Bob")
    stuck = insert_unsent(bot.db_path, chat, alice, age=60)
    offer = await command(fake_api, alice, chat, "duel")  # the next /duel closes it
    assert challenge_keyboard(offer)
    status = db_rows(bot.db_path, "SELECT status FROM challenges WHERE id = ?", (stuck,))
    assert status == [{"status": "expired"}]
    await bot.kill()
    stuck = insert_unsent(bot.db_path, chat, bob, age=60)
    await bot.start()  # and at start-up, every one of them
    status = db_rows(bot.db_path, "SELECT status FROM challenges WHERE id = ?", (stuck,))
    assert status == [{"status": "expired"}]
    assert [r["challenger_id"] for r in pending(bot.db_path)] == [alice.id]
    bobs = await command(fake_api, bob, chat, "duel")
    assert challenge_keyboard(bobs)


async def test_only_the_challenged_player_declines_and_is_named(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
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
    row = db_rows(bot.db_path, "SELECT status, version FROM challenges WHERE id = ?",
                  (int(forged.split(":")[1]),))
    assert row == [{"status": "pending", "version": 0}]
    duel = await accept(fake_api, carol, offer)  # still acceptable
    assert duel.photo is not None and "the duel begins" in text_of(offer)

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
    statuses = [r["status"] for r in db_rows(bot.db_path, "SELECT * FROM challenges ORDER BY id")]
    assert statuses == ["accepted", "declined", "declined"]
    assert not [r.summary() for r in fake_api.failed_calls()]
