"""A duel in a real group chat (issue 11), through the real `sixshooter` process: whoever must
act is notified by a newly sent message that mentions them (an edit notifies no one) and the
message it replaces is deleted; a finished duel leaves its header and its result, and with
the "keep each reveal" setting every bullet too; the result leads somewhere (Rematch,
Standings, a copy button per deal's proof); a tiebreak answered by both at once counts both;
/verify works in reply to the header and to the result.
"""

from __future__ import annotations

import random

from bot.storage import Storage
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Table,
    actor,
    command,
    costs,
    duel_keyboard,
    gone,
    live_duel_message,
    mentioned_ids,
    new_table,
    newest_id,
    press,
    quiet,
    refused_calls,
    reply_to,
    tap,
    text_of,
    tiebreak_answer,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.fakeapi.model import FakeMessage, FakeUser
from tests.support.forcing import force

# The tests below but the first are about what the chat shows, not flood pacing (which the
# first runs under, as the bot does for real): the rate limiter is off for them.
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}


async def _challenge(api: FakeTelegramAPI, table: Table, args: str = "") -> FakeMessage:
    """Player 0 challenges player 1 (in reply to them); the challenge's message."""
    a, b = table.players
    hello = api.send_message(b, table.chat, "a duel?")
    return await command(api, a, table.chat, "duel", args, reply_to=hello)


async def _accept(api: FakeTelegramAPI, user: FakeUser, challenge: FakeMessage) -> FakeMessage:
    accept = next(d for d in challenge.callback_data() if d.endswith(":a"))
    assert await press(api, user, challenge, accept) is None
    return await api.wait_for_message(challenge.chat, lambda m: bool(duel_keyboard(m)),
                                      after_message_id=challenge.message_id, timeout=TIMEOUT)


async def _play_checking_each_turn(api: FakeTelegramAPI, table: Table,
                                   rng: random.Random) -> tuple[FakeMessage, int]:
    """Play random moves (declining the tiebreak) to the end; after every accepted tap the
    duel must be in a newly sent message that mentions whoever is to act, the pressed one
    gone. The result message and the number of taps."""
    taps, left = 0, []
    while (m := live_duel_message(api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        if answer is not None:
            user, data = answer
        else:
            user = next(p for p in table.players if p.id == actor(m))
            data = rng.choice(duel_keyboard(m))
        before = newest_id(api, table.chat)
        assert await tap(api, user, m, data) is None
        taps += 1
        left.append(m)
        fresh = api.bot_messages(table.chat)[-1]
        assert fresh.message_id > before, "the turn passed by an edit"
        if duel_keyboard(fresh):  # still on: it names whoever must act now
            if any(d.endswith(":tn") for d in duel_keyboard(fresh)):
                assert set(mentioned_ids(fresh)) == {p.id for p in table.players}
            else:
                assert actor(fresh) in {p.id for p in table.players}
                assert mentioned_ids(fresh) == [actor(fresh)], "only the player to act"
        assert taps < 20
    await gone(api, *left)  # every message a turn left is deleted (when the budget has room)
    assert all(m.deleted for m in left)
    return api.bot_messages(table.chat)[-1], taps


async def test_every_turn_is_a_fresh_message_and_a_duel_leaves_two(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    table, _ = new_table(fake_api)
    start = fake_api.requests[-1].seq
    header = await _challenge(fake_api, table)
    await _accept(fake_api, table.players[1], header)
    assert "Round 1 deck hash" in text_of(header)  # the proof published before play

    result, taps = await _play_checking_each_turn(fake_api, table, random.Random(5))
    await quiet()
    # Ten taps for six bullets (the dealer's hand in each bonus duel is placed for it), one
    # more for a tiebreak offer declined.
    assert taps in (10, 11)
    left = fake_api.bot_messages(table.chat)
    assert [m.message_id for m in left] == [header.message_id, result.message_id]
    assert "Round 2 deck hash" in text_of(header)
    assert "Reply /verify to this message" in text_of(result)
    labels = result.button_texts()
    assert labels[:3] == ["🔁 Rematch", "🏆 Standings", "🔎 Review"]
    assert labels[3:5] == ["📋 Round 1", "📋 Round 2"]
    copies = [b["copy_text"]["text"] for b in result.buttons() if "copy_text" in b]
    assert len(copies) == 2 and all(c.startswith("/verify ") for c in copies)

    # The flood figure: what a whole duel asks of Telegram in this chat.
    calls = costs(fake_api, start)
    chat_calls = sum(n for method, n in calls.items() if method != "answerCallbackQuery")
    assert calls["sendPhoto"] == taps + 1
    assert 1 <= calls["deleteMessage"] + calls["deleteMessages"] <= taps
    deleted = sum(len(r.params["message_ids"]) for r in fake_api.requests
                  if r.seq > start and r.method == "deleteMessages") + calls["deleteMessage"]
    assert deleted == taps
    assert chat_calls <= 2 * taps + 6, calls
    assert refused_calls(fake_api) == []

    # /verify in reply to the header and to the result: every finished deal checks out.
    a = table.players[0]
    for message in (header, result):
        answer = await reply_to(fake_api, a, table.chat, "verify", reply_to=message)
        said = text_of(answer)
        assert said.count("✅") >= 2 and "Round 1" in said and "Round 2" in said, said
    await bot.stop()


async def test_keep_each_reveal_leaves_every_bullet(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice = table.players[0]  # the group's creator: may change the settings
    shown = await command(fake_api, alice, table.chat, "settings")
    keep = next(b["callback_data"] for b in shown.buttons() if b["text"] == "Keep each")
    assert await press(fake_api, alice, shown, keep) == "Saved."
    header = await _challenge(fake_api, table)
    await _accept(fake_api, table.players[1], header)
    result = await finish_declining(fake_api, table, random.Random(8))
    await quiet()
    [record] = await storage.duels.recent_in_chat(table.chat.id, 1)
    done = await storage.results.get(record.id)
    assert done is not None
    ours = [m for m in fake_api.bot_messages(table.chat) if m.message_id > header.message_id]
    reveals = [m for m in ours if m is not result]
    assert len(reveals) == done.bullets >= 6  # one kept reveal per bullet, then the result
    assert all(m.photo is not None and not m.buttons() for m in reveals)
    assert [text_of(m).split("\n")[0] for m in reveals][:3] == [
        "Round 1 · bullet 1 of 6", "Round 1 · bullet 2 of 6", "Round 1 · bullet 3 of 6"]
    assert refused_calls(fake_api) == []


async def finish_declining(api: FakeTelegramAPI, table: Table,
                           rng: random.Random) -> FakeMessage:
    """Random moves (declining a tiebreak) to the end; the result message."""
    taps, pressed = 0, []
    while (m := live_duel_message(api, table.chat)) is not None:
        answer = tiebreak_answer(table, m)
        user, data = answer or (next(p for p in table.players if p.id == actor(m)),
                                rng.choice(duel_keyboard(m)))
        assert await tap(api, user, m, data) is None
        pressed.append(m)
        taps += 1
        assert taps < 20
    await gone(api, *pressed)
    return api.bot_messages(table.chat)[-1]


async def test_rematch_and_standings_from_the_result(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    alice, bob = table.players
    header = await _challenge(fake_api, table, "30")
    await _accept(fake_api, bob, header)
    result, _ = await _play_checking_each_turn(fake_api, table, random.Random(2))
    rematch = next(b["callback_data"] for b in result.buttons() if b["text"] == "🔁 Rematch")
    standings = next(b["callback_data"] for b in result.buttons()
                     if b["text"] == "🏆 Standings")

    # Someone else cannot ask for the rematch.
    carol = fake_api.add_user("Carol", username="carol")
    fake_api.add_member(table.chat, carol)
    assert await press(fake_api, carol, result, rematch) == (
        "Only the two who played can ask for a rematch.")

    # Standings: the chat's board, in reply to the result.
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, carol, result, standings) is None
    board = await fake_api.wait_for_message(table.chat, after_message_id=last, timeout=TIMEOUT)
    assert board.photo is not None and board.reply_to is not None
    assert board.reply_to.message_id == result.message_id

    # Bob asks for a rematch: a challenge to Alice with the same stack, one tap to accept.
    last = newest_id(fake_api, table.chat)
    assert await press(fake_api, bob, result, rematch) == "Rematch offered."
    again = await fake_api.wait_for_message(
        table.chat, lambda m: any(d.startswith("c:") for d in m.callback_data()),
        after_message_id=last, timeout=TIMEOUT)
    assert alice.id in mentioned_ids(again) and "30" in text_of(again)
    # Alice taps Rematch too: that accepts Bob's challenge.
    assert await press(fake_api, alice, result, rematch) is None
    first = await fake_api.wait_for_message(table.chat, lambda m: bool(duel_keyboard(m)),
                                            after_message_id=again.message_id, timeout=TIMEOUT)
    live = await storage.duels.live_in_chat(table.chat.id)
    assert len(live) == 1 and set(live[0].players) == {alice.id, bob.id}
    assert live[0].players[0] == bob.id  # Bob's challenge
    assert '"start_stack":30' in live[0].state_json
    assert actor(first) in (alice.id, bob.id)
    assert refused_calls(fake_api) == []


async def _at_a_tiebreak_offer(api: FakeTelegramAPI, launch_bot: LaunchBot,
                               ) -> tuple[Table, Storage, FakeMessage]:
    """A duel played to level stacks after six bullets: its table, storage and the offer."""
    bot = await launch_bot(env=QUICK)
    storage = await bot.storage()
    table, _ = new_table(api)
    header = await _challenge(api, table)
    await _accept(api, table.players[1], header)
    return table, storage, await force_to_offer(api, table, storage)


async def test_a_tiebreak_answered_by_both_at_once_counts_both(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    table, storage, offer = await _at_a_tiebreak_offer(fake_api, launch_bot)
    text = text_of(offer)
    assert "draw" not in text.lower() and "Play a tiebreak bullet" in text
    assert set(mentioned_ids(offer)) == {p.id for p in table.players}
    yes = next(d for d in duel_keyboard(offer) if d.endswith(":ty"))
    # Both tap "yes" on the same version of the offer before the bot answers either.
    queries = [fake_api.press_button(p, offer, yes) for p in table.players]
    answers = [await fake_api.wait_for_answer(q, timeout=TIMEOUT) for q in queries]
    assert [a.text for a in answers] == [None, None]
    bullet = await fake_api.wait_for_message(
        table.chat, lambda m: bool(duel_keyboard(m)) and not any(
            d.endswith(":ty") for d in duel_keyboard(m)),
        after_message_id=offer.message_id, timeout=TIMEOUT)
    assert "Tiebreak" in text_of(bullet)
    await api_wait_deleted(fake_api, offer)
    # The same "yes" again, by someone who answered: a quiet word, nothing changes.
    state = (await storage.duels.live_in_chat(table.chat.id))[0]
    again = await press(fake_api, table.players[0], offer, yes, force=True)
    assert again in (None, "This button is out of date: use the latest message of the duel.")
    assert (await storage.duels.get(state.id)) == state
    assert refused_calls(fake_api, allow=("message to delete not found",)) == []


async def test_a_second_tiebreak_answer_by_the_same_player_is_a_quiet_toast(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    table, _, offer = await _at_a_tiebreak_offer(fake_api, launch_bot)
    a, b = table.players
    yes = next(d for d in duel_keyboard(offer) if d.endswith(":ty"))
    no = next(d for d in duel_keyboard(offer) if d.endswith(":tn"))
    assert await tap(fake_api, a, offer, yes) is None
    assert not offer.deleted and mentioned_ids(offer) == [b.id]  # edited: Bob still to answer
    assert "Alice wants a tiebreak" in text_of(offer) and "Waiting for Bob" in text_of(offer)
    # Alice changes her mind with the other button of the old offer: she has answered.
    assert await press(fake_api, a, offer, no, force=True) == (
        "You have answered already: waiting for the other player.")
    # Bob declines: one result, the offer gone.
    last = newest_id(fake_api, table.chat)
    no = next(d for d in duel_keyboard(offer) if d.endswith(":tn"))
    assert await tap(fake_api, b, offer, no) is None
    await quiet()
    after = [m for m in fake_api.bot_messages(table.chat) if m.message_id > last]
    assert len(after) == 1 and "Rematch" in " ".join(after[0].button_texts())
    await api_wait_deleted(fake_api, offer)
    assert refused_calls(fake_api) == []


async def force_to_offer(api: FakeTelegramAPI, table: Table, storage: Storage) -> FakeMessage:
    """Play the live duel to level stacks after six bullets; the tiebreak offer."""
    await force(api, table, storage, tiebreak=None)
    m = live_duel_message(api, table.chat)
    assert m is not None and any(d.endswith(":ty") for d in duel_keyboard(m))
    return m


async def api_wait_deleted(api: FakeTelegramAPI, m: FakeMessage) -> None:
    await api.wait_for(lambda: m.deleted, TIMEOUT, f"message {m.message_id} to be deleted")
