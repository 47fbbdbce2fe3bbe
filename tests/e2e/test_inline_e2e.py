"""Duel a friend anywhere (issue 38), through the real `sixshooter` process: two friends in
their private chat (without the bot) post a challenge through inline mode and play the duel
to its end on that one message, each move an edit of it, whoever must act nudged in their
private chat with the bot once per turn; the result with its proofs, counted in the pair's
own chat and on no group's board.

And the rest of it: a player who never started the bot (the table says once how to be
nudged; the other player gets every copy, silently when it is not their turn) and two who
never did (Accept only alerts); kill -9 mid-duel (between moves and mid-move); two webhook
workers on PostgreSQL, one killed between moves; a message deleted in its chat (the next
edit, a move's or a reminder's, abandons the duel uncounted); Decline, Withdraw, a second
Accept and two at once; nudges turned off in /settings; turn timers; a refused file_id.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import pytest

from bot.duel.payloads import InlineChallengePress
from bot.storage import DuelRecord, DuelStatus, Storage
from bot.storage.inline import is_pair_chat
from tests.support import audit, stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Held,
    Refused,
    costs,
    duel_keyboard,
    mentioned_ids,
    quiet,
    refused_calls,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, FakeMessage, FakeUser
from tests.support.workers import LaunchWorkers

# The tests that need one process run on every engine; the two-worker one on PostgreSQL only.
# The tests whose state is the database's (a whole duel, kills, racing presses) run on every
# engine; those of the bot's own logic (buttons, nudges, timers, refusals) on SQLite alone:
# CI's time is the suite's budget.
every_engine = pytest.mark.usefixtures("on_every_engine")

QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}
# An old nudge goes by the janitor, which may wait for room in its chat's flood budget (a
# minute at most) and resumes what a killed process left: waited for as `gone` does.
DELETED = 75.0


def two_friends(api: FakeTelegramAPI) -> tuple[FakeUser, FakeUser]:
    """Alice and Bob, with the bot's inline mode (and its feedback) on, as BotFather sets it."""
    api.set_inline_mode(True, feedback=True)
    return api.add_user("Alice", username="alice"), api.add_user("Bob", username="bob")


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


async def one_nudge(api: FakeTelegramAPI, chat: FakeChat) -> None:
    await api.wait_for(lambda: len(nudges(api, chat)) == 1, DELETED, f"one nudge in {chat.id}")


async def play_to_the_end(api: FakeTelegramAPI, table: FakeMessage,
                          players: dict[int, FakeUser], rng: random.Random,
                          private: dict[int, FakeChat]) -> int:
    """Every move made on the inline message by whoever it names to act; each is one edit of
    it, and the player to act has exactly one live nudge in their private chat."""
    moves = 0
    while duel_keyboard(table):
        to_act = mentioned_ids(table)[-1]
        for user_id, chat in private.items():
            if user_id in mentioned_ids(table):  # the last one deleted soon (the janitor)
                await one_nudge(api, chat)
        edits = len(table.edits)
        query = api.press_button(players[to_act], table, rng.choice(duel_keyboard(table)))
        answer = await api.wait_for_answer(query, timeout=TIMEOUT)
        assert answer.text is None, answer.text
        await api.wait_for(lambda: len(table.edits) > edits, TIMEOUT, "the table's edit")  # noqa: B023
        moves += 1
        assert moves < 200
    return moves


@every_engine
async def test_two_friends_play_a_duel_on_one_message_in_their_private_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    alice, bob = two_friends(api)
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
    await api.wait_for(lambda: all(not nudges(api, c) for c in private.values()), DELETED,
                       "the nudges deleted")
    storage = await bot.storage()
    duel = await storage.duels.on_inline(table.inline_message_id or "")
    assert duel is not None and is_pair_chat(duel.chat_id)
    row = await stored.settled(storage, duel.id)
    assert (row.status, row.version, row.shown_version) == (DuelStatus.FINISHED, moves, moves)
    assert len(await storage.results.for_chat(duel.chat_id)) == 1
    # Counted in each player's own figures (/stats in private), in their pair's chat alone.
    for user in (alice, bob):
        asked = api.send_command(user, private[user.id], "stats")
        card = await api.wait_for_message(
            private[user.id], lambda m: m.reply_to is not None
            and m.reply_to.message_id == asked.message_id,  # noqa: B023
            after_message_id=asked.message_id, timeout=TIMEOUT)
        text = card.content_text or ""
        assert f"{user.first_name} in all chats" in text and "1 duel:" in text, text

    # The Review goes to the asker's private chat, not to the chat of the duel.
    review = next(b["callback_data"] for b in table.buttons()
                  if b.get("callback_data", "").endswith(":v"))
    before = len(api.bot_messages(private[bob.id]))
    await api.wait_for_answer(api.press_button(bob, table, review), timeout=TIMEOUT)
    posted = await api.wait_for(
        lambda: api.bot_messages(private[bob.id])[before:] or None, 60.0, "the review")
    assert "Review" in (posted[-1].content_text or ""), posted[-1].content_text
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()


# --- more of inline mode: a player the bot cannot reach, crashes, workers, deletion, buttons ----

HINT = "🔕"  # the first table's line naming the players the bot cannot nudge
STALE = "This button is out of date: use the latest message of the duel."
# A kill may leave: a press handled again after the restart (its second answer refused as too
# old), an edit made again (not modified), a janitor's delete made again (already gone).
AFTER_A_KILL = ("message is not modified", "query is too old", "message to delete not found")


def to_act(table: FakeMessage) -> list[int]:
    """Whom the table asks to act: the mentions of its turn line (a first table's line on how
    to be nudged, last in its caption, names others)."""
    caption = table.caption or ""
    end = caption.find(HINT)
    cut = len(caption[:end].encode("utf-16-le")) // 2 if end >= 0 else None  # entity units
    return [e["user"]["id"] for e in table.caption_entities
            if e.get("type") == "text_mention" and (cut is None or e["offset"] < cut)]


def next_move(table: FakeMessage, players: dict[int, FakeUser],
              rng: random.Random) -> tuple[FakeUser, str]:
    """A legal move: a tiebreak declined by one who has not answered, else a random one by
    the player to act."""
    keys, waiting = duel_keyboard(table), to_act(table)
    assert waiting, f"nobody to act on {table.caption!r}"
    declines = [d for d in keys if d.endswith(":tn")]
    if declines:
        return players[waiting[0]], declines[0]
    return players[waiting[-1]], rng.choice(keys)


async def make_move(api: FakeTelegramAPI, table: FakeMessage, user: FakeUser, data: str,
                    on: FakeMessage | None = None) -> None:
    """Press a move on the table (or on `on`, a nudge) and wait for the table's edit."""
    edits = len(table.edits)
    query = api.press_button(user, on or table, data)
    answer = await api.wait_for_answer(query, timeout=TIMEOUT)
    assert answer.text is None, answer.text
    await api.wait_for(lambda: len(table.edits) > edits, TIMEOUT, "the table's edit")


Check = Callable[[list[int]], Awaitable[None]]


async def play_on(api: FakeTelegramAPI, table: FakeMessage, players: dict[int, FakeUser],
                  rng: random.Random, *, check: Check | None = None,
                  limit: int | None = None) -> int:
    """Moves on the table until the duel ends (or `limit` moves); `check` is given whom the
    table asks to act before each. Returns the moves made."""
    moves = 0
    while duel_keyboard(table) and (limit is None or moves < limit):
        if check is not None:
            await check(to_act(table))
        await make_move(api, table, *next_move(table, players, rng))
        moves += 1
        assert moves < 200, "the duel does not end"
    return moves


async def accepted(api: FakeTelegramAPI, user: FakeUser, challenge: FakeMessage) -> str:
    """`user` accepts; returns the inline message's id once it shows the table."""
    press = api.press_button(user, challenge, accept_data(challenge))
    answer = await api.wait_for_answer(press, timeout=TIMEOUT)
    assert answer.text is None, answer.text
    await api.wait_for(lambda: duel_keyboard(challenge), TIMEOUT, "the table on the message")
    assert challenge.inline_message_id is not None
    return challenge.inline_message_id


@dataclass
class Friendly:
    """A duel between Alice and Bob in their own chat, as `friendly` opened it."""

    private: dict[int, FakeChat]  # each one's private chat with the bot, by user id
    players: dict[int, FakeUser]
    table: FakeMessage  # the inline message the duel plays on
    where: str  # its inline message id


async def friendly(api: FakeTelegramAPI, alice: FakeUser, bob: FakeUser) -> Friendly:
    """Both start the bot, Alice posts a challenge in their chat, Bob accepts it."""
    private = {alice.id: await started(api, alice), bob.id: await started(api, bob)}
    table = await post_challenge(api, alice, api.user_chat(alice, bob))
    return Friendly(private, {alice.id: alice, bob.id: bob}, table,
                    await accepted(api, bob, table))


def accept_data(challenge: FakeMessage) -> str:
    return next(d for d in challenge.callback_data() if d.endswith(":a"))


def copies_to(api: FakeTelegramAPI, user: FakeUser, since: int = 0) -> list[str]:
    """The bot's calls made to a user's private chat after request `since`."""
    return [r.summary() for r in api.requests
            if r.seq > since and r.params.get("chat_id") == user.id]


def captions(m: FakeMessage) -> list[str]:
    """The caption or text of every version of a message, oldest first."""
    return [str(v.get("caption") or v.get("text") or "") for v in m.edits] + [
        m.content_text or ""]


def alice_gets_the_copies(api: FakeTelegramAPI, table: FakeMessage, alice: FakeUser,
                          chat: FakeChat) -> Check:
    """The check of a duel where Alice alone gets nudges: on her turn a nudge that notifies;
    on the other's a silent copy to her all the same, whose picture the table shows."""
    async def check(waiting: list[int]) -> None:
        await api.wait_for(lambda: len(nudges(api, chat)) == 1, DELETED, "Alice's one copy")
        [copy] = nudges(api, chat)
        loud = alice.id in waiting
        assert api.notifications_for(copy) == (1 if loud else 0), (waiting, copy.caption)
        assert ("Your move" in (copy.caption or "")) is loud, copy.caption
        assert copy.callback_data() == table.callback_data()
        assert table.photo is not None and copy.photo is not None
        assert table.photo.file_unique_id == copy.photo.file_unique_id
    return check


async def the_end(api: FakeTelegramAPI, bot_or_storage: Storage, table: FakeMessage,
                  moves: int, chats: list[FakeChat]) -> DuelRecord:
    """The duel ended on the table, counted once, every nudge gone; its record."""
    caption = table.caption or ""
    assert "wins the duel" in caption or "draw" in caption.lower(), caption
    await api.wait_for(lambda: all(not nudges(api, c) for c in chats), DELETED,
                       "the nudges deleted")
    duel = await bot_or_storage.duels.on_inline(table.inline_message_id or "")
    assert duel is not None
    row = await stored.settled(bot_or_storage, duel.id)
    assert (row.status, row.version, row.shown_version) == (DuelStatus.FINISHED, moves, moves)
    assert stored.actions(row) == moves
    assert len(await bot_or_storage.results.for_chat(duel.chat_id)) == 1
    return row


@every_engine
async def test_a_player_who_never_started_the_bot_plays_on_the_others_copies(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    alice, bob = two_friends(api)  # never starts the bot
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()

    # Neither has started it: accepting says how (an alert), and nothing changes.
    carol, dave = api.add_user("Carol"), api.add_user("Dave")
    theirs = await post_challenge(api, carol, api.user_chat(carol, dave))
    shown = theirs.content_key()
    query = api.press_button(dave, theirs, accept_data(theirs))
    answer = await api.wait_for_answer(query, timeout=TIMEOUT)
    assert answer.show_alert and "start @" in (answer.text or ""), answer.answer
    await quiet()
    assert theirs.content_key() == shown and not theirs.edits
    assert await storage.duels.on_inline(theirs.inline_message_id or "") is None
    assert not copies_to(api, carol) and not copies_to(api, dave)

    # Alice has: Bob accepts her challenge.
    a_chat = await started(api, alice)
    table = await post_challenge(api, alice, api.user_chat(alice, bob))
    await accepted(api, bob, table)
    first = table.caption or ""
    assert f"{HINT} Bob: start @" in first, first
    hinted = [e["user"]["id"] for e in table.caption_entities
              if e.get("type") == "text_mention"][len(to_act(table)):]
    assert hinted == [bob.id]

    rng = random.Random(5)
    players = {alice.id: alice, bob.id: bob}
    moves = await play_on(api, table, players, rng,
                          check=alice_gets_the_copies(api, table, alice, a_chat))
    # Said once: on the first table only.
    assert sum(HINT in c for c in captions(table)) == 1
    assert not copies_to(api, bob), "the bot wrote to a user who never started it"
    await the_end(api, storage, table, moves, [a_chat])
    # The result's copy stays in Alice's chat, silently: the table shows its picture.
    result = api.bot_messages(a_chat)[-1]
    assert result.photo is not None and table.photo is not None and not result.buttons()
    assert result.photo.file_unique_id == table.photo.file_unique_id
    assert api.notifications_for(result) == 0
    assert not refused_calls(api, allow=("message is not modified",))

    # Carol starts the bot now: Dave's accept is taken, and the table names only Dave.
    await started(api, carol)
    await accepted(api, dave, theirs)
    assert f"{HINT} Dave: start @" in (theirs.caption or "") and "Carol:" not in (
        theirs.caption or "").split(HINT)[1]
    await bot.kill()
    await bot.close_storage()


@every_engine
async def test_kill_9_mid_inline_duel_then_it_resumes_on_the_same_message(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    alice, bob = two_friends(api)
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    f = await friendly(api, alice, bob)
    private, players, table, where = f.private, f.players, f.table, f.where
    duel = await storage.duels.on_inline(where)
    assert duel is not None
    rng = random.Random(3)
    moves = await play_on(api, table, players, rng, limit=3)

    async def one_nudge_each(waiting: list[int]) -> None:
        """Whoever the table asks to act has one nudge, of the table's version; others none."""
        def right() -> bool:
            return all(len(nudges(api, c)) == (1 if u in waiting else 0)
                       for u, c in private.items())
        await api.wait_for(right, DELETED, f"one nudge for each of {waiting}")
        for u in waiting:
            assert nudges(api, private[u])[0].callback_data() == table.callback_data()

    # kill -9 between moves: the restart redraws nothing.
    await stored.settled(storage, duel.id)
    await bot.kill()
    shown, edits = table.content_key(), len(table.edits)
    since = api.last_seq
    await bot.start()
    await quiet()
    assert (table.content_key(), len(table.edits)) == (shown, edits)
    assert not {"sendPhoto", "editMessageMedia", "editMessageCaption"} & set(costs(api, since))
    moves += await play_on(api, table, players, rng, limit=1)  # its buttons work after it
    await one_nudge_each(to_act(table))

    # kill -9 with a move fetched and saved, before it was answered or shown.
    user, data = next_move(table, players, rng)
    with contextlib.ExitStack() as stack:
        held = stack.enter_context(Held(api, "answerCallbackQuery"))
        for method in ("sendPhoto", "deleteMessage", "editMessageMedia", "editMessageCaption"):
            stack.enter_context(Held(api, method))
        query = api.press_button(user, table, data)
        await held.wait_arrived()
        await bot.kill()
    moves += 1
    row = await stored.duel(storage, duel.id)
    assert (row.version, row.shown_version) == (moves, moves - 1)  # saved, not shown
    await bot.start()
    # Brought up to date at start, on the same message, with one nudge anew.
    await api.wait_for(lambda: f":{moves}:" in (duel_keyboard(table) or [""])[0]
                       or not duel_keyboard(table), TIMEOUT, "the table redrawn after restart")
    await api.wait_for_answer(query, timeout=TIMEOUT)
    assert query.text in (None, STALE), query.text
    await quiet()
    assert (await stored.duel(storage, duel.id)).version == moves  # nothing applied twice
    if duel_keyboard(table):
        await one_nudge_each(to_act(table))

    # kill -9 with the next move's nudge sent, before the table's edit.
    if duel_keyboard(table):
        user, data = next_move(table, players, rng)
        with Held(api, "editMessageMedia") as edit:
            query = api.press_button(user, table, data)
            await edit.wait_arrived()
            await bot.kill()
        moves += 1
        await bot.start()
        await api.wait_for(lambda: f":{moves}:" in (duel_keyboard(table) or [""])[0]
                           or not duel_keyboard(table), TIMEOUT, "the table after restart")
        await api.wait_for_answer(query, timeout=TIMEOUT)
        await quiet()
        assert (await stored.duel(storage, duel.id)).version == moves
        if duel_keyboard(table):
            await one_nudge_each(to_act(table))

    moves += await play_on(api, table, players, rng, check=one_nudge_each)
    assert api.inline_messages() == [table]  # the same message all along
    await the_end(api, storage, table, moves, list(private.values()))
    assert audit.unanswered(api) == []
    assert not refused_calls(api, allow=AFTER_A_KILL)
    await bot.kill()
    await bot.close_storage()


async def test_two_webhook_workers_play_an_inline_duel_through_a_kill(
        fake_api: FakeTelegramAPI, launch_workers: LaunchWorkers,
        postgres_database: str) -> None:
    api = fake_api
    alice, bob = two_friends(api)
    workers = await launch_workers(postgres_database, 2, env=QUICK)
    f = await friendly(api, alice, bob)
    private, players, table, where = f.private, f.players, f.table, f.where
    rng = random.Random(9)
    storage = await workers.storage()
    moves = await play_on(api, table, players, rng, limit=4)
    # One worker killed -9 between moves: the other finds the duel through the database.
    await stored.settled(storage, (await storage.duels.on_inline(where) or duel_gone()).id)
    await workers.kill(0)
    moves += await play_on(api, table, players, rng, limit=2)
    await workers.start_one(0)
    moves += await play_on(api, table, players, rng)
    await the_end(api, storage, table, moves, list(private.values()))
    presses = {u["update_id"] for u in api.all_updates if "callback_query" in u}
    by = {d.target for d in api.deliveries if d.ok and d.update_id in presses}
    assert by == set(workers.targets), by
    assert audit.unanswered(api) == [] and audit.sent_twice(api) == []
    assert not refused_calls(api, allow=("message is not modified",))


async def test_a_deleted_inline_message_abandons_its_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    alice, bob = two_friends(api)
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    f = await friendly(api, alice, bob)
    private, players, table, where = f.private, f.players, f.table, f.where
    friends = api.user_chat(alice, bob)
    rng = random.Random(4)
    moves = await play_on(api, table, players, rng, limit=2)
    duel = await stored.settled(storage, (await storage.duels.on_inline(where) or duel_gone()).id)

    # Someone in the chat deletes the table; the next move, made on a nudge, cannot show it.
    user, data = next_move(table, players, rng)
    await one_nudge(api, private[user.id])
    [nudge] = nudges(api, private[user.id])
    api.delete_inline_message(table)
    edits = len(table.edits)
    answer = await api.wait_for_answer(api.press_button(user, nudge, data), timeout=TIMEOUT)
    assert answer.text is None, answer.text
    row = await stored.until(lambda: stored.duel(storage, duel.id),
                             lambda d: d.status == DuelStatus.ABANDONED, "the duel abandoned")
    assert stored.actions(row) == moves + 1  # the move was made; abandoning bumped the version
    await api.wait_for(lambda: all(not nudges(api, c) for c in private.values()), DELETED,
                       "every nudge deleted")
    assert len(table.edits) == edits
    assert await storage.results.for_chat(duel.chat_id) == []
    refused = [r for r in api.failed_calls() if "MESSAGE_ID_INVALID" in (r.description or "")]
    assert len(refused) == 1 and refused[0].method.startswith("editMessage"), refused

    # Not counted, and not in the way: the two can start a new duel.
    again = await post_challenge(api, bob, friends)
    await accepted(api, alice, again)
    assert (await storage.duels.on_inline(again.inline_message_id or "")) is not None
    assert not refused_calls(api, allow=("message is not modified", "MESSAGE_ID_INVALID"))
    await bot.kill()
    await bot.close_storage()


def duel_gone() -> DuelRecord:
    raise AssertionError("no duel on the inline message")


async def test_decline_withdraw_a_second_accept_and_nudges_turned_off(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    api = fake_api
    alice, bob = two_friends(api)
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    a_chat, b_chat = await started(api, alice), await started(api, bob)
    friends = api.user_chat(alice, bob)

    async def pressed(user: FakeUser, m: FakeMessage, op: str, *, force: bool = False) -> str:
        data = next(d for d in [*challenge_buttons(m.callback_data()), *former_challenge(m)]
                    if d.endswith(op))
        answer = await api.wait_for_answer(api.press_button(user, m, data, force=force),
                                           timeout=TIMEOUT)
        return answer.text or ""

    # Decline: not one's own; the other's ends it.
    declined = await post_challenge(api, alice, friends)
    assert "your own" in (await pressed(alice, declined, ":d")).lower()
    await quiet()
    assert not declined.edits
    assert await pressed(bob, declined, ":d") == ""
    await api.wait_for(lambda: not declined.buttons(), TIMEOUT, "the declined challenge")
    assert "declined" in (declined.text or "") and len(declined.edits) == 1

    # Withdraw: the challenger's only.
    withdrawn = await post_challenge(api, alice, friends)
    assert await pressed(bob, withdrawn, ":w") == "Only the challenger can withdraw it."
    await quiet()
    assert not withdrawn.edits
    assert await pressed(alice, withdrawn, ":w") == ""
    await api.wait_for(lambda: not withdrawn.buttons(), TIMEOUT, "the withdrawn challenge")
    assert "withdrew" in (withdrawn.text or "") and len(withdrawn.edits) == 1

    # Bob turns his nudges off in /settings in his private chat.
    since = api.last_seq
    panel = await nudges_off(api, bob, b_chat)
    assert not (await storage.chats.get_settings(bob.id)).nudges
    mark = api.last_seq

    # Accepted, then a second Accept on the same challenge: a toast, and nothing changes.
    table = await post_challenge(api, alice, friends)
    await accepted(api, bob, table)
    shown, edits = table.content_key(), len(table.edits)
    assert await pressed(bob, table, ":a", force=True) == "This challenge is no longer open."
    await quiet()
    assert (table.content_key(), len(table.edits)) == (shown, edits)
    assert len(await stored.duels(storage, (await storage.duels.on_inline(
        table.inline_message_id or "") or duel_gone()).chat_id)) == 1

    # Bob is never nudged: on his turn Alice gets the silent copy; on hers, a nudge.
    moves = await play_on(api, table, {alice.id: alice, bob.id: bob}, random.Random(6),
                          check=alice_gets_the_copies(api, table, alice, a_chat))
    assert not any(HINT in c for c in captions(table))  # Bob started the bot: nothing to say
    await the_end(api, storage, table, moves, [a_chat, b_chat])
    assert not copies_to(api, bob, mark), copies_to(api, bob, mark)
    assert [m for m in api.bot_messages(b_chat) if m.message_id >= panel.message_id] == [panel]
    assert copies_to(api, bob, since)  # the settings panel itself
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()


def challenge_buttons(data: list[str]) -> list[str]:
    return [d for d in data if d.startswith(f"{InlineChallengePress.PREFIX}:")]


def former_challenge(m: FakeMessage) -> list[str]:
    """The challenge buttons a message had before it became the table."""
    return challenge_buttons([str(b.get("callback_data", "")) for old in m.edits
                              for row in old.get("reply_markup", {}).get("inline_keyboard", [])
                              for b in row])


async def nudges_off(api: FakeTelegramAPI, user: FakeUser, chat: FakeChat) -> FakeMessage:
    """The user turns nudges off with /settings in their private chat; the settings panel."""
    sent = api.send_command(user, chat, "settings")
    panel = await api.wait_for_message(chat, lambda m: any(
        d.startswith("s:u") for d in m.callback_data()), after_message_id=sent.message_id,
        timeout=TIMEOUT)
    off = next(b["callback_data"] for b in panel.buttons()
               if b.get("callback_data", "").startswith("s:u") and b["text"] == "off")
    answer = await api.wait_for_answer(api.press_button(user, panel, off), timeout=TIMEOUT)
    assert answer.text == "Saved.", answer.text
    await api.wait_for(lambda: "duel anywhere: off" in (panel.text or ""), TIMEOUT,
                       "the panel showing it")
    return panel


async def test_every_table_has_its_picture_when_the_one_reachable_player_wants_no_nudges(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """Alice started the bot but wants no nudges; Bob never started it. Nobody can be
    nudged, and the other player is not always reachable: the picture must still go
    somewhere (silently) for the table to show it."""
    api = fake_api
    alice, bob = two_friends(api)  # never starts the bot
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    a_chat = await started(api, alice)
    await nudges_off(api, alice, a_chat)
    table = await post_challenge(api, alice, api.user_chat(alice, bob))
    await accepted(api, bob, table)
    pictures: list[str] = []

    async def silent_copy_of_each_table(waiting: list[int]) -> None:
        await api.wait_for(lambda: len(nudges(api, a_chat)) == 1, TIMEOUT, "Alice's one copy")
        [copy] = nudges(api, a_chat)
        assert api.notifications_for(copy) == 0 and "Your move" not in (copy.caption or "")
        assert table.photo is not None and copy.photo is not None
        assert table.photo.file_unique_id == copy.photo.file_unique_id, (
            f"the table shows an old picture ({waiting} to act)")
        pictures.append(table.photo.file_unique_id)

    moves = await play_on(api, table, {alice.id: alice, bob.id: bob}, random.Random(8),
                          check=silent_copy_of_each_table)
    assert len(set(pictures)) == len(pictures) == moves  # a picture anew for every table
    await the_end(api, storage, table, moves, [a_chat])
    assert not [r.summary() for r in api.calls("editMessageCaption")
                if r.params.get("inline_message_id") == table.inline_message_id]
    assert not copies_to(api, bob)
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()


@every_engine
async def test_two_accepts_at_once_make_one_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """In a group, Bob and Carol press Accept on Alice's challenge at the same moment: one
    plays her, the other is told the challenge is no longer open."""
    api = fake_api
    alice, bob = two_friends(api)
    carol = api.add_user("Carol", username="carol")
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    await started(api, alice)
    group = api.create_group("Friends", members=[alice, bob, carol])
    table = await post_challenge(api, alice, group)
    data = accept_data(table)
    queries = [api.press_button(u, table, data) for u in (bob, carol)]
    answers = [(await api.wait_for_answer(q, timeout=TIMEOUT)).text for q in queries]
    await api.wait_for(lambda: duel_keyboard(table), TIMEOUT, "the table on the message")
    assert sorted(answers, key=bool) == [None, "This challenge is no longer open."], answers
    duel = await storage.duels.on_inline(table.inline_message_id or "")
    assert duel is not None
    winner = bob if answers[0] is None else carol
    assert duel.players == (alice.id, winner.id)
    await quiet()
    assert len(table.edits) == 1  # the challenge became the table, once
    assert not refused_calls(api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()


def version_in(snapshot: dict[str, object]) -> int | None:
    """The duel version a snapshot's move buttons carry (d:<duel>:<version>:<action>)."""
    markup = snapshot.get("reply_markup")
    rows = markup.get("inline_keyboard", []) if isinstance(markup, dict) else []
    found = {int(b["callback_data"].split(":")[2]) for row in rows for b in row
             if str(b.get("callback_data", "")).startswith("d:")}
    assert len(found) <= 1, found
    return found.pop() if found else None


async def test_turn_timers_remind_and_time_out_on_the_inline_message(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """Nobody plays: each turn is reminded once on the table at half time, and times out
    once; the second timeout in a row loses the duel. The line on how to be nudged is said
    once all the same; Alice, who started the bot, is nudged anew at her turn's reminder."""
    api = fake_api
    alice, bob = two_friends(api)  # never starts the bot
    # The pair's turn timer is the default 300 s: 3 s here.
    bot = await launch_bot(env=QUICK | {"SIXSHOOTER_TIME_SCALE": "0.01"})
    storage = await bot.storage()
    a_chat = await started(api, alice)
    table = await post_challenge(api, alice, api.user_chat(alice, bob))
    await accepted(api, bob, table)
    await api.wait_for(lambda: not duel_keyboard(table), 45.0, "the duel's end on its timers")
    assert "wins the duel" in (table.caption or ""), table.caption
    versions = [*table.edits[1:], table.to_dict()]  # the tables (the challenge aside)
    texts = captions(table)[1:]
    # Said on the first table only (its reminder redraws it, the line with it).
    assert {version_in(v) for v, c in zip(versions, texts, strict=True) if HINT in c} == {0}
    # One copy to Alice for each: loud when she is to act (a nudge anew at a reminder too).
    copies = [r for r in api.calls("sendPhoto") if r.params.get("chat_id") == alice.id]
    assert [not r.params.get("disable_notification") for r in copies] == [
        "👉 Alice" in c for c in texts], "\n=====\n".join(texts)
    reminded = [version_in(v) for v, c in zip(versions, texts, strict=True)
                if "your move" in c.split("\n")[0]]
    timed_out = [version_in(v) for v, c in zip(versions, texts, strict=True)
                 if "ran out of time" in c.split("\n")[0]]
    assert reminded and len(set(reminded)) == len(reminded), reminded
    assert len(timed_out) == len(reminded), (reminded, timed_out)
    row = await stored.settled(storage, (await storage.duels.on_inline(
        table.inline_message_id or "") or duel_gone()).id)
    assert row.status == DuelStatus.FINISHED
    await api.wait_for(lambda: not nudges(api, a_chat), TIMEOUT, "the nudges deleted")
    assert len(await storage.results.for_chat(row.chat_id)) == 1

    # The next duel's message is deleted and nobody plays: the reminder finds it gone.
    again = await post_challenge(api, alice, api.user_chat(alice, bob))
    await accepted(api, bob, again)
    second = await storage.duels.on_inline(again.inline_message_id or "") or duel_gone()
    api.delete_inline_message(again)
    await stored.until(lambda: stored.duel(storage, second.id),
                       lambda d: d.status == DuelStatus.ABANDONED, "the second duel abandoned")
    await api.wait_for(lambda: not nudges(api, a_chat), TIMEOUT, "its nudges deleted")
    assert len(await storage.results.for_chat(row.chat_id)) == 1  # not counted
    assert not copies_to(api, bob)
    assert not refused_calls(api, allow=("message is not modified", "MESSAGE_ID_INVALID"))
    await bot.kill()
    await bot.close_storage()


async def test_a_refused_file_id_is_sent_anew(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """Telegram refuses the picture's file_id for the inline message once: the table is
    brought up to date all the same, with a copy sent anew, and one nudge left."""
    api = fake_api
    alice, bob = two_friends(api)
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    f = await friendly(api, alice, bob)
    private, players, table, where = f.private, f.players, f.table, f.where
    rng = random.Random(2)
    moves = await play_on(api, table, players, rng, limit=2)
    duel = await stored.settled(storage, (await storage.duels.on_inline(where)
                                          or duel_gone()).id)
    user, data = next_move(table, players, rng)
    with Refused(api, "editMessageMedia", "wrong file identifier/HTTP URL specified"):
        answer = await api.wait_for_answer(api.press_button(user, table, data),
                                           timeout=TIMEOUT)
        assert answer.text is None, answer.text
        await api.wait_for(lambda: any(not r.ok for r in api.calls("editMessageMedia")),
                           TIMEOUT, "the refused edit")
    moves += 1
    await api.wait_for(lambda: f":{moves}:" in (duel_keyboard(table) or [""])[0]
                       or not duel_keyboard(table), TIMEOUT, "the table brought up to date")
    row = await stored.settled(storage, duel.id)
    assert (row.version, row.shown_version) == (moves, moves)
    waiting = to_act(table)
    await api.wait_for(lambda: all(len(nudges(api, c)) == (1 if u in waiting else 0)
                                   for u, c in private.items()), TIMEOUT, "one nudge")
    moves += await play_on(api, table, players, rng)
    await the_end(api, storage, table, moves, list(private.values()))
    assert not refused_calls(api, allow=("message is not modified", "wrong file identifier"))
    await bot.kill()
    await bot.close_storage()
