"""The duel bot's end-to-end scenarios: the real `sixshooter` process against the fake Bot API.

Each test starts one bot process (a restart keeps its database) and plays people's parts
through the fake: challenges, taps, strangers, forgeries, crashes, flood limits, a forum topic,
hostile names, Russian texts. Every test also checks that Telegram (the fake validates like it)
refused none of the bot's calls, so every HTML text the bot wrote was accepted.
"""

from __future__ import annotations

import asyncio
import json
import random
import re

from tests.support.botprocess import BotProcess, LaunchBot
from tests.support.driver import (
    TIMEOUT,
    Held,
    Table,
    accept,
    actor,
    button,
    challenge_keyboard,
    command,
    costs,
    db_rows,
    dealt_decks,
    duel_id_of,
    duel_keyboard,
    duel_row,
    eventually,
    every_version,
    face_up_cards,
    former_button,
    live_duel_message,
    mentioned_ids,
    open_duel,
    other,
    player,
    press,
    reply_to,
    settled,
    tap,
    text_of,
    version_of,
)
from tests.support.fakeapi import BOT_USERNAME, FakeChat, FakeMessage, FakeTelegramAPI, FakeUser

CARD_DISPLAY = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")


def _table(api: FakeTelegramAPI, *, lang: str = "en", extra: int = 0,
           **group: object) -> tuple[Table, list[FakeUser]]:
    """Alice and Bob at a table in a new group, plus `extra` onlookers in the same group."""
    alice = api.add_user("Alice", username="alice", language_code=lang)
    bob = api.add_user("Bob", username="bob_the_builder", language_code=lang)
    others = [api.add_user(name, username=name.lower(), language_code=lang)
              for name in ("Carol", "Dave", "Eve")[:extra]]
    chat = api.create_group(members=[alice, bob, *others], **group)  # type: ignore[arg-type]
    return Table(api, chat, (alice, bob)), others


def _refused_calls(api: FakeTelegramAPI, *, allow: tuple[str, ...] = ()) -> list[str]:
    """Calls Telegram would have refused, except answers containing one of `allow`."""
    return [r.summary() for r in api.failed_calls()
            if not any(a in (r.description or "") for a in allow)]


def _live(api: FakeTelegramAPI, chat: FakeChat) -> FakeMessage:
    m = live_duel_message(api, chat)
    assert m is not None, "no live duel message"
    return m


def _actor_user(table: Table, m: FakeMessage) -> FakeUser:
    return player(table, actor(m))


async def _move(api: FakeTelegramAPI, table: Table, rng: random.Random) -> FakeMessage:
    """One legal random move by the player to act; returns the message it was made on."""
    m = _live(api, table.chat)
    toast = await tap(api, _actor_user(table, m), m, rng.choice(duel_keyboard(m)))
    assert toast is None, f"a legal tap was refused: {toast}"
    return m


def _tiebreak_answer(table: Table, m: FakeMessage) -> tuple[FakeUser, str] | None:
    """On a tiebreak offer: a player who has not answered, and the 'no' button."""
    keys = duel_keyboard(m)
    if not any(d.endswith(":tn") for d in keys):
        return None
    answered = set(mentioned_ids(m))
    user = next(p for p in table.players if p.id not in answered)
    return user, next(d for d in keys if d.endswith(":tn"))


async def _finish(api: FakeTelegramAPI, table: Table, rng: random.Random) -> int:
    """Play random legal moves (declining any tiebreak) to the end; returns the taps made."""
    taps = 0
    while (m := live_duel_message(api, table.chat)) is not None:
        answer = _tiebreak_answer(table, m)
        user, data = answer or (_actor_user(table, m), rng.choice(duel_keyboard(m)))
        assert await tap(api, user, m, data) is None
        taps += 1
        assert taps < 40, "the duel does not end"
    return taps


def _assert_no_card_in_log(bot: BotProcess) -> None:
    log = bot.log()
    assert not CARD_DISPLAY.findall(log), CARD_DISPLAY.findall(log)[:5]
    for deck in dealt_decks(bot.db_path):
        assert deck not in log
        for i in range(0, 60, 10):  # no hand's five cards (as "AsKd...") either
            assert deck[i:i + 10] not in log, "a hand's cards are in the log"


async def _quiet(seconds: float = 0.3) -> None:
    """Let a moment pass in which the bot could (wrongly) still be talking."""
    await asyncio.sleep(seconds)


# --- a complete duel ---------------------------------------------------------------------------


async def test_a_complete_duel_costs_one_answer_and_one_edit_per_tap_and_keeps_cards_secret(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
    first = await open_duel(fake_api, table)
    duel_id = duel_id_of(first)
    rng = random.Random(7)
    taps, bullets_ended = 0, 0
    while (m := live_duel_message(fake_api, table.chat)) is not None:
        answer = _tiebreak_answer(table, m)
        user, data = answer or (_actor_user(table, m), rng.choice(duel_keyboard(m)))
        since, before = fake_api.last_seq, len(fake_api.bot_messages(table.chat))
        assert await tap(fake_api, user, m, data) is None
        taps += 1
        if m is live_duel_message(fake_api, table.chat):
            await _quiet(0.05)
        else:
            await _quiet(0.3 if live_duel_message(fake_api, table.chat) is None else 0.05)
        spent = costs(fake_api, since)
        edits = sum(n for method, n in spent.items() if method.startswith("editMessage"))
        new = len(fake_api.bot_messages(table.chat)) - before
        ended = not duel_keyboard(m)  # the tapped message lost its buttons: its moment is over
        bullets_ended += ended
        assert spent["answerCallbackQuery"] == 1 and edits == 1, (taps, spent)
        assert new == spent["sendPhoto"] == (1 if ended else 0), (taps, spent)
        assert set(spent) <= {"answerCallbackQuery", "editMessageMedia", "editMessageCaption",
                              "sendPhoto"}, spent
    assert bullets_ended >= 6
    result = fake_api.bot_messages(table.chat)[-1]
    assert result.photo is not None and not result.reply_markup
    assert "wins the duel" in text_of(result) or "draw" in text_of(result)
    # Saved once per tap, finished, counted once.
    row = await settled(bot.db_path, duel_id)
    assert (row["version"], row["status"], row["shown_version"]) == (taps, "finished", taps)
    results = db_rows(bot.db_path, "SELECT * FROM results")
    assert len(results) == 1 and results[0]["stack0"] + results[0]["stack1"] == 100
    # No hidden card anywhere: not in a log line, not in any version of any message.
    _assert_no_card_in_log(bot)
    decks = dealt_decks(bot.db_path)
    public = set().union(*(face_up_cards(deck) for deck in decks))
    shown = {c for text in every_version(fake_api, table.chat) for c in CARD_DISPLAY.findall(text)}
    assert shown and shown <= public, shown - public  # only face-up cards, on the buttons
    # Each deal's order is published (the proof) only once that deal is over: never on a
    # message version that still had buttons.
    published = 0
    for m in fake_api.bot_messages(table.chat):
        assert not duel_keyboard(m), "a finished duel left live buttons"
        versions = [(str(v.get("caption") or ""), bool(v.get("reply_markup"))) for v in m.history]
        for text, live in [*versions, (text_of(m), bool(m.reply_markup))]:
            for deck in decks:
                if deck in text:
                    assert not live, "a deck order on a live message"
                    published += 1
    assert published >= 2  # both rounds' proofs
    assert not _refused_calls(fake_api)


# --- who may press what -------------------------------------------------------------------------


async def test_strangers_wrong_turns_and_forged_presses_change_nothing(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol,) = _table(fake_api, extra=1)
    m = await open_duel(fake_api, table)
    duel_id, version = duel_id_of(m), version_of(m)
    mover = _actor_user(table, m)
    waiting = other(table, mover.id)
    shown, edits, messages = m.content_key(), len(m.history), len(fake_api.bot_messages(table.chat))
    real = duel_keyboard(m)[0]

    assert await press(fake_api, carol, m, real) == "Only the two duelists can play in this duel."
    assert await press(fake_api, waiting, m, real) == "It is not your turn."
    forged = {
        f"d:{duel_id}:{version}:b92": "This button is not valid.",  # no hand #10
        f"d:{duel_id}:{version}:b13": "This button is not valid.",  # 3 chips
        f"d:{duel_id}:{version}:xx": "This button is not valid.",
        f"d:{duel_id}:0{version}:b01": "This button is not valid.",  # not canonical
        f"d:{duel_id}:{version}:b01:extra": "This button is not valid.",
        "d:" + "9" * 70: "This button is not valid.",
        "zz:1:2:3": "This button is not valid.",
        "\u00e9": "This button is not valid.",
        f"c:{duel_id}:0:q": "This button is not valid.",
        f"d:{duel_id}:{version}:ty": "This button is out of date: use the latest message of "
                                     "the duel.",  # no tiebreak on offer
        f"d:{duel_id + 1}:0:b01": "This button is out of date: use the latest message of the "
                                  "duel.",  # no such duel
        f"d:{duel_id}:{version + 5}:b01": "This button is out of date: use the latest message "
                                          "of the duel.",
        "c:77:0:a": "This challenge is no longer open.",
    }
    for data, toast in forged.items():
        assert await press(fake_api, mover, m, data, force=True) == toast, data
    # A stranger forging a surrender for a player is still a stranger.
    assert await press(fake_api, carol, m, f"d:{duel_id}:{version}:sr", force=True) == (
        "Only the two duelists can play in this duel.")
    await _quiet()
    assert m.content_key() == shown and len(m.history) == edits
    assert len(fake_api.bot_messages(table.chat)) == messages
    assert duel_row(bot.db_path, duel_id)["version"] == version
    # The real move still works after all that.
    assert await tap(fake_api, mover, m, real) is None
    assert duel_row(bot.db_path, duel_id)["version"] == version + 1
    assert not _refused_calls(fake_api)


async def test_stale_buttons_and_a_concurrent_double_tap_apply_once(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    old = duel_keyboard(m)
    rng = random.Random(3)
    await _move(fake_api, table, rng)  # the opponent's move: the same message, new version
    assert live_duel_message(fake_api, table.chat) is m and version_of(m) == 1
    # A button of version 0, pressed (as a slow client would) after the edit.
    stale = "This button is out of date: use the latest message of the duel."
    for user in table.players:
        assert await press(fake_api, user, m, old[-1], force=True) == stale
    assert version_of(m) == 1 and duel_row(bot.db_path, duel_id)["version"] == 1

    # The dealer double-taps the same button: both presses arrive before the bot fetches.
    data = rng.choice(duel_keyboard(m))
    dealer = _actor_user(table, m)
    count = len(fake_api.bot_messages(table.chat))
    first = fake_api.press_button(dealer, m, data)
    second = fake_api.press_button(dealer, m, data)
    answers = [await fake_api.wait_for_answer(q, timeout=TIMEOUT) for q in (first, second)]
    await fake_api.wait_for(lambda: len(fake_api.bot_messages(table.chat)) > count, TIMEOUT,
                            "the next bullet")
    await _quiet()
    assert sorted((a.text or "") for a in answers) == ["", stale]
    assert duel_row(bot.db_path, duel_id)["version"] == 2
    assert len(fake_api.bot_messages(table.chat)) == count + 1  # one next bullet, not two
    assert not duel_keyboard(m) and len(m.history) == 2  # two edits: the bet, the reveal
    state_log = db_rows(bot.db_path, "SELECT state FROM duels")[0]["state"]
    assert state_log.count('"act"') == 2
    # The reveal's old buttons, pressed again later: stale, and the new bullet is untouched.
    nxt = _live(fake_api, table.chat)
    shown = nxt.content_key()
    assert await press(fake_api, dealer, m, data, force=True) == stale
    await _quiet()
    assert nxt.content_key() == shown and duel_row(bot.db_path, duel_id)["version"] == 2
    assert not _refused_calls(fake_api, allow=("message is not modified",))


# --- crashes ------------------------------------------------------------------------------------


async def test_kill_9_between_taps_and_mid_tap_then_restart_and_finish(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(11)
    await _move(fake_api, table, rng)
    taps = 1

    # kill -9 between taps: nothing lags, so the restart redraws nothing.
    await settled(bot.db_path, duel_id)
    await bot.kill()
    live = _live(fake_api, table.chat)
    shown, count = live.content_key(), len(fake_api.bot_messages(table.chat))
    since = fake_api.last_seq
    await bot.start()
    await _quiet()
    assert live.content_key() == shown and len(fake_api.bot_messages(table.chat)) == count
    assert not {"sendPhoto", "editMessageMedia"} & set(costs(fake_api, since))
    await _move(fake_api, table, rng)  # the old buttons work after the restart
    taps += 1

    # kill -9 after a tap was fetched and saved, before it was answered or shown.
    live = _live(fake_api, table.chat)
    data = rng.choice(duel_keyboard(live))
    with Held(fake_api, "answerCallbackQuery") as held:
        query = fake_api.press_button(_actor_user(table, live), live, data)
        await held.wait_arrived()
        await bot.kill()
    taps += 1
    row = duel_row(bot.db_path, duel_id)
    assert row["version"] == taps and row["shown_version"] == taps - 1  # saved, not shown
    assert version_of(live) == taps - 1 and not query.answered
    await bot.start()
    # Brought up to date at start: the live message carries the saved version.
    await fake_api.wait_for(lambda: (m := live_duel_message(fake_api, table.chat)) is not None
                            and version_of(m) == taps, TIMEOUT, "the redraw after restart")
    # If the update came again, it was refused as stale: nothing was applied twice.
    await _quiet()
    assert duel_row(bot.db_path, duel_id)["version"] == taps
    if query.answered:
        assert query.text == "This button is out of date: use the latest message of the duel."

    taps += await _finish(fake_api, table, rng)
    row = await settled(bot.db_path, duel_id)
    assert (row["version"], row["status"], row["shown_version"]) == (taps, "finished", taps)
    assert len(db_rows(bot.db_path, "SELECT * FROM results")) == 1
    reveals = [x for x in fake_api.bot_messages(table.chat) if x.photo and not x.reply_markup]
    state_log = db_rows(bot.db_path, "SELECT state FROM duels")[0]["state"]
    assert state_log.count('"act"') == taps
    assert len(reveals) >= 7
    # (A press delivered again after the restart may try to take the buttons off a message
    # that has none already: Telegram says "not modified", which is harmless.)
    assert not _refused_calls(fake_api, allow=("message is not modified",))


# --- where and with whom ------------------------------------------------------------------------


async def test_a_duel_in_a_forum_topic_stays_in_the_topic(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api, forum=True)
    topic = fake_api.create_topic(table.chat, "Saloon")
    table.thread = topic
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(5)
    await _move(fake_api, table, rng)
    await _move(fake_api, table, rng)  # the first bullet ends: a reveal and a new message
    assert not duel_keyboard(m)
    busy = await reply_to(fake_api, table.players[0], table.chat, "duel",
                          message_thread_id=topic)
    assert "already have a live duel" in text_of(busy)
    # ... and the duel is shown again below the reply, its old message without buttons.
    again = await fake_api.wait_for_message(
        table.chat, lambda x: bool(duel_keyboard(x)), after_message_id=busy.message_id,
        timeout=TIMEOUT)
    assert not any(duel_keyboard(x) for x in fake_api.bot_messages(table.chat) if x is not again)
    loser = table.players[1]
    fake_api.send_command(loser, table.chat, "surrender", message_thread_id=topic)
    result = await fake_api.wait_for_message(
        table.chat, lambda x: "surrendered" in text_of(x), timeout=TIMEOUT)
    assert duel_row(bot.db_path, duel_id)["status"] == "finished"
    mine = fake_api.bot_messages(table.chat)
    # challenge, reveal, bullet 2, the reply, bullet 2 again, result
    assert len(mine) == 6 and result in mine and again in mine
    for x in mine:
        assert x.message_thread_id == topic and x.is_topic_message, (x.message_id, text_of(x))
    assert not _refused_calls(fake_api)


async def test_hostile_names_are_escaped_and_intact(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    evil = fake_api.add_user("<b>Bo&amp;b</b>", last_name="_*O'Hara*_ \"🤠\" <i", username="evil")
    odd = fake_api.add_user("A&B <script>alert(1)</script>", last_name="👩‍🚀 *_~`|",
                            username="odd_one")
    chat = fake_api.create_group(members=[evil, odd])
    table = Table(fake_api, chat, (evil, odd))
    names = {u.id: u.full_name for u in (evil, odd)}
    first = await open_duel(fake_api, table)
    await _move(fake_api, table, random.Random(2))
    fake_api.send_command(evil, chat, "surrender")
    await fake_api.wait_for_message(chat, lambda x: "surrendered" in text_of(x),
                                    after_message_id=first.message_id, timeout=TIMEOUT)
    checked = 0
    for m in fake_api.bot_messages(chat):
        text = text_of(m)
        assert "&amp;amp;" not in text and "&lt;" not in text and "&#" not in text, text
        entities = m.caption_entities if m.caption is not None else m.entities
        for e in entities:
            if e["type"] == "text_mention":
                # The mention shows the whole name, exactly, linked to the right user.
                start, end = 2 * e["offset"], 2 * (e["offset"] + e["length"])
                shown = text.encode("utf-16-le")[start:end].decode("utf-16-le")
                assert shown == names[e["user"]["id"]], (shown, text)
                checked += 1
    assert checked >= 8
    assert not _refused_calls(fake_api)


# --- challenges ---------------------------------------------------------------------------------


async def test_an_open_challenge_is_taken_by_exactly_one_of_two_quick_takers(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol,) = _table(fake_api, extra=1)
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
    assert "the duel begins" in text_of(offer) and not offer.reply_markup
    duels = db_rows(bot.db_path, "SELECT * FROM duels")
    assert len(duels) == 1
    assert {duels[0]["player0_id"], duels[0]["player1_id"]} == {alice.id, winner.id}
    assert "Alice: 30" in text_of(first)
    assert not _refused_calls(fake_api)


async def test_decline_withdraw_and_cancel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol,) = _table(fake_api, extra=1)
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
    statuses = [r["status"] for r in db_rows(bot.db_path, "SELECT * FROM challenges ORDER BY id")]
    assert statuses == ["declined", "cancelled", "cancelled"]
    assert not db_rows(bot.db_path, "SELECT * FROM duels")
    assert not _refused_calls(fake_api)


async def test_an_unanswered_challenge_expires(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot(env={"SIXSHOOTER_CHALLENGE_TTL": "2"})
    table, _ = _table(fake_api)
    alice, bob = table.players
    offer = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder")
    assert challenge_keyboard(offer)
    await fake_api.wait_for_edit(offer, timeout=TIMEOUT)
    assert "expired" in text_of(offer) and "Alice" in text_of(offer)
    assert not offer.reply_markup
    assert await press(fake_api, bob, offer, former_button(offer, ":a"), force=True) == (
        "This challenge is no longer open.")
    assert [r["status"] for r in db_rows(bot.db_path, "SELECT * FROM challenges")] == ["expired"]
    assert not db_rows(bot.db_path, "SELECT * FROM duels")
    assert not _refused_calls(fake_api)


# --- ending early -------------------------------------------------------------------------------


async def test_surrender_ends_the_duel_and_counts_it(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol,) = _table(fake_api, extra=1)
    alice, bob = table.players
    duel_id = duel_id_of(await open_duel(fake_api, table))
    await _move(fake_api, table, random.Random(4))
    live = _live(fake_api, table.chat)
    nobody = await reply_to(fake_api, carol, table.chat, "surrender")
    assert text_of(nobody) == "You have no live duel here."
    fake_api.send_command(bob, table.chat, "surrender")
    result = await fake_api.wait_for_message(table.chat, lambda x: "surrendered" in text_of(x),
                                             after_message_id=live.message_id, timeout=TIMEOUT)
    assert "Bob surrendered" in text_of(result) and "Alice wins the duel" in text_of(result)
    # The round stopped before its last reveal: the result publishes its salt and deck.
    state = json.loads(duel_row(bot.db_path, duel_id)["state"])
    _, deck, salt = next(e for e in state["log"] if e[0] == "deal")
    assert deck in text_of(result) and salt in text_of(result)
    await fake_api.wait_for(lambda: not live.reply_markup, TIMEOUT, "the buttons to go")
    assert live_duel_message(fake_api, table.chat) is None
    assert await press(fake_api, alice, live, former_button(live, "", start="d:"),
                       force=True) == (
        "This duel is over.")
    again = await reply_to(fake_api, bob, table.chat, "surrender")
    assert text_of(again) == "You have no live duel here."
    [res] = db_rows(bot.db_path, "SELECT * FROM results")
    assert (res["reason"], res["winner_id"]) == ("surrender", alice.id)
    assert res["stack0"] + res["stack1"] == 100
    assert duel_row(bot.db_path, duel_id)["status"] == "finished"
    assert not _refused_calls(fake_api)


# --- Telegram trouble ---------------------------------------------------------------------------


async def test_injected_429s_slow_the_duel_but_it_proceeds_correctly(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(9)
    for method in ("editMessageMedia", "sendPhoto", "answerCallbackQuery"):
        fake_api.inject_rate_limit(method, count=1, retry_after=1)
    since = fake_api.last_seq
    await _move(fake_api, table, rng)
    await _move(fake_api, table, rng)  # the bullet ends: a reveal and the next bullet
    await _move(fake_api, table, rng)
    await _quiet()
    limited = [r for r in fake_api.failed_calls()]
    assert sorted(r.method for r in limited) == [
        "answerCallbackQuery", "editMessageMedia", "sendPhoto"]
    assert all(r.status == 429 for r in limited)
    spent = costs(fake_api, since)
    # Each refused call was made again once, and nothing else was doubled.
    assert spent["answerCallbackQuery"] == 3 + 1
    assert spent["editMessageMedia"] == 3 + 1 and spent["sendPhoto"] == 1 + 1
    row = duel_row(bot.db_path, duel_id)
    assert (row["version"], row["shown_version"]) == (3, 3)
    assert version_of(_live(fake_api, table.chat)) == 3
    assert not duel_keyboard(m) and len(fake_api.bot_messages(table.chat)) == 3
    assert all(q.answered for q in fake_api.callback_queries.values())


async def test_the_bot_removed_from_a_chat_closes_its_duels_without_counting(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol, dave) = _table(fake_api, extra=2)
    alice, _bob = table.players
    m = await open_duel(fake_api, table)
    offer = await command(fake_api, carol, table.chat, "duel", "@dave")
    elsewhere = fake_api.create_group("Elsewhere", members=[alice, carol])
    fake_api.kick_bot(table.chat)
    await eventually(lambda: duel_row(bot.db_path, duel_id_of(m))["status"] == "abandoned",
                     "the duel closed")
    assert [r["status"] for r in db_rows(bot.db_path, "SELECT * FROM challenges")] == [
        "accepted", "expired"]
    # Later presses there are answered with a toast and change nothing; the bot lives on.
    since = fake_api.last_seq
    mover = _actor_user(table, m)
    assert await press(fake_api, mover, m, duel_keyboard(m)[0]) == (
        "This button is out of date: use the latest message of the duel.")
    assert await press(fake_api, dave, offer, button(offer, "a")) == (
        "This challenge is no longer open.")
    assert set(costs(fake_api, since)) == {"answerCallbackQuery"}
    assert not db_rows(bot.db_path, "SELECT * FROM results")
    assert bot.running
    reply = await command(fake_api, alice, elsewhere, "duel", "@carol")
    assert challenge_keyboard(reply)
    # Added back, the chat works again and the old duel does not block anyone.
    fake_api.add_bot(table.chat)
    again = await command(fake_api, alice, table.chat, "duel", "@bob_the_builder")
    assert challenge_keyboard(again), text_of(again)
    assert "Traceback" not in bot.log()
    assert not _refused_calls(fake_api, allow=("Forbidden",))


async def test_a_deleted_live_message_is_replaced_at_the_next_tap(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(6)
    # A tap, and an admin deletes the message before the bot shows the move.
    data = rng.choice(duel_keyboard(m))
    query = fake_api.press_button(_actor_user(table, m), m, data)
    fake_api.delete_message(m)
    assert (await fake_api.wait_for_answer(query, timeout=TIMEOUT)).text is None
    fresh = await fake_api.wait_for_message(table.chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=m.message_id, timeout=TIMEOUT)
    assert version_of(fresh) == 1
    await _quiet()
    row = duel_row(bot.db_path, duel_id)
    assert (row["message_id"], row["shown_version"], row["version"]) == (fresh.message_id, 1, 1)
    assert len(fake_api.bot_messages(table.chat)) == 2  # the challenge and the fresh message
    # Play goes on on the fresh message, across the end of the bullet.
    await _move(fake_api, table, rng)
    assert not duel_keyboard(fresh) and version_of(_live(fake_api, table.chat)) == 2
    assert not _refused_calls(fake_api, allow=("message to edit not found",))


async def test_a_lost_live_message_comes_back_with_duel(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    """The live message deleted while nobody taps: a player's /duel shows the duel again."""
    await launch_bot()
    table, _ = _table(fake_api)
    m = await open_duel(fake_api, table)
    fake_api.delete_message(m)
    busy = await reply_to(fake_api, table.players[1], table.chat, "duel")
    assert "already have a live duel" in text_of(busy)
    fresh = await fake_api.wait_for_message(table.chat, lambda x: bool(duel_keyboard(x)),
                                            after_message_id=busy.message_id, timeout=TIMEOUT)
    assert duel_id_of(fresh) == duel_id_of(m) and version_of(fresh) == 0
    await _move(fake_api, table, random.Random(3))
    assert version_of(_live(fake_api, table.chat)) == 1
    assert not _refused_calls(fake_api, allow=("message to edit not found",))


# --- /duel ---------------------------------------------------------------------------------------


async def test_duel_command_validations(fake_api: FakeTelegramAPI,
                                        launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, _ = _table(fake_api)
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
        (f"@{BOT_USERNAME}", None, "Bots do not duel."),
    ]
    for args, target, expected in cases:
        answer = await reply_to(fake_api, alice, chat, "duel", args, reply_to=target)
        assert expected in text_of(answer), (args, text_of(answer))
    bot_reply = fake_api.bot_messages(chat)[-1]
    answer = await reply_to(fake_api, alice, chat, "duel", reply_to=bot_reply)
    assert "Bots do not duel." in text_of(answer)
    private = fake_api.private_chat(alice)
    answer = await command(fake_api, alice, private, "duel")
    assert "played in groups" in text_of(answer)
    assert not db_rows(bot.db_path, "SELECT * FROM challenges")
    # /duel@SixShooterTestBot with the bounds of the stack.
    offer = await command(fake_api, alice, chat, "duel", "10", reply_to=hello, mention_bot=True)
    assert "Alice challenges Bob to a Six-Shooter duel, 10 chips each" in text_of(offer)
    await press(fake_api, alice, offer, button(offer, "w"))
    offer = await command(fake_api, alice, chat, "duel", "500", reply_to=hello, mention_bot=True)
    assert "500 chips each" in text_of(offer)
    first = await accept(fake_api, bob, offer)
    assert "Alice: 500" in text_of(first) and "Bob: 500" in text_of(first)
    assert not _refused_calls(fake_api)


async def test_one_live_duel_per_player_and_several_duels_in_one_chat(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    table, (carol, dave, eve) = _table(fake_api, extra=3)
    alice, bob = table.players
    chat = table.chat
    first = await open_duel(fake_api, table)
    id1 = duel_id_of(first)
    busy = await reply_to(fake_api, alice, chat, "duel", "@carol")
    assert "already have a live duel" in text_of(busy)
    # The busy player's duel is shown again below: play goes on there.
    first = await fake_api.wait_for_message(
        chat, lambda x: bool(duel_keyboard(x)) and duel_id_of(x) == id1,
        after_message_id=busy.message_id, timeout=TIMEOUT)
    assert "already in a duel" in text_of(await reply_to(fake_api, carol, chat, "duel", "@alice"))
    open_offer = await command(fake_api, eve, chat, "duel")
    assert await press(fake_api, bob, open_offer, button(open_offer, "a")) == (
        "You already have a live duel here: finish it or /surrender first.")
    # Carol and Dave start a second duel in the same chat.
    offer = await command(fake_api, carol, chat, "duel", "@dave 20")
    second = await accept(fake_api, dave, offer)
    table2 = Table(fake_api, chat, (carol, dave))
    id2 = duel_id_of(second)
    assert id1 != id2
    # Moves in both, in turn; each lands on its own message.
    rng = random.Random(8)
    for t, m in ((table, first), (table2, second), (table2, second), (table, first)):
        assert await tap(fake_api, _actor_user(t, m), m, rng.choice(duel_keyboard(m))) is None
    assert not duel_keyboard(first) and not duel_keyboard(second)  # both first bullets over
    live1 = next(m for m in reversed(fake_api.bot_messages(chat))
                 if duel_keyboard(m) and duel_id_of(m) == id1)
    live2 = next(m for m in reversed(fake_api.bot_messages(chat))
                 if duel_keyboard(m) and duel_id_of(m) == id2)
    assert "Alice" in text_of(live1) and "Carol" in text_of(live2)
    assert "Carol" not in text_of(live1) and "Alice" not in text_of(live2)
    # A player of one duel cannot act in the other, even by forging its data onto it.
    shown2 = live2.content_key()
    assert await press(fake_api, alice, live2, duel_keyboard(live2)[0]) == (
        "Only the two duelists can play in this duel.")
    assert await press(fake_api, alice, live2, duel_keyboard(live1)[0], force=True) == (
        "This button is out of date: use the latest message of the duel.")
    await _quiet()
    assert live2.content_key() == shown2, "a forged press changed another duel's message"
    assert duel_row(bot.db_path, id1)["version"] == 2
    assert duel_row(bot.db_path, id2)["version"] == 2
    assert await tap(fake_api, _actor_user(table2, live2), live2, duel_keyboard(live2)[0]) is None
    assert duel_row(bot.db_path, id2)["version"] == 3
    assert not _refused_calls(fake_api)


# --- Russian ------------------------------------------------------------------------------------


async def test_russian_players_get_russian_texts_with_plural_forms(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    table, _ = _table(fake_api, lang="ru")
    alice, bob = table.players
    chat = table.chat
    hello = fake_api.send_message(bob, chat, "привет")
    for stack, words in ((21, "по 21 фишке"), (22, "по 22 фишки"), (25, "по 25 фишек")):
        offer = await command(fake_api, alice, chat, "duel", str(stack), reply_to=hello)
        assert f"Alice вызывает Bob на дуэль Six-Shooter, {words}." in text_of(offer)
        assert text_of(await reply_to(fake_api, alice, chat, "cancel")) == "Ваш вызов отозван."
        assert "отзывает вызов" in text_of(offer)
    assert "Размер стека" in text_of(await reply_to(fake_api, alice, chat, "duel", "5"))
    m = await open_duel(fake_api, table, "31")
    assert "Раунд 1 · пуля 1 из 6" in text_of(m) and "Alice: 31" in text_of(m)
    assert "ваш ход" in text_of(m)
    waiting = other(table, actor(m))
    assert await press(fake_api, waiting, m, duel_keyboard(m)[0]) == "Сейчас не ваш ход."
    one = next(d for d in duel_keyboard(m) if d.endswith("1"))
    assert await tap(fake_api, _actor_user(table, m), m, one) is None
    assert "ставит 1 фишку на руку" in text_of(m)
    assert all("Пас 1" in t or "Игра 2" in t for t in m.button_texts()), m.button_texts()
    two = next(d for d in duel_keyboard(m) if d.endswith("2"))
    assert await tap(fake_api, _actor_user(table, m), m, two) is None  # the bullet ends
    assert "(1 фишка)" in text_of(m) and "(2 фишки)" in text_of(m)
    assert "играет против паса и выигрывает 1 фишку." in text_of(m)
    assert not _refused_calls(fake_api)
