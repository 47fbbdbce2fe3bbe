"""Who may press what in a duel, through the real `sixshooter` process: strangers, the
player waiting for their turn and forged button data change nothing; a stale button and a
concurrent double tap apply once (the second tap of the same move is answered quietly).
"""

from __future__ import annotations

import random

from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    actor_user,
    costs,
    duel_id_of,
    duel_keyboard,
    live_duel,
    move,
    new_table,
    newest_id,
    open_duel,
    other,
    press,
    quiet,
    refused_calls,
    tap,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeTelegramAPI


async def test_strangers_wrong_turns_and_forged_presses_change_nothing(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, (carol,) = new_table(fake_api, extra=1)
    m = await open_duel(fake_api, table)
    duel_id, version = duel_id_of(m), version_of(m)
    mover = actor_user(table, m)
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
    await quiet()
    assert m.content_key() == shown and len(m.history) == edits
    assert len(fake_api.bot_messages(table.chat)) == messages
    assert (await stored.duel(storage, duel_id)).version == version
    # The real move still works after all that.
    assert await tap(fake_api, mover, m, real) is None
    assert (await stored.duel(storage, duel_id)).version == version + 1
    assert not refused_calls(fake_api)


async def test_stale_buttons_and_a_concurrent_double_tap_apply_once(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    old = duel_keyboard(m)
    rng = random.Random(3)
    await move(fake_api, table, rng)  # the opponent's move: the dealer's turn, a fresh message
    turn = live_duel(fake_api, table.chat)
    assert m.deleted and turn is not m and version_of(turn) == 1
    # A button of version 0, pressed (as a slow client would, on its copy of the deleted
    # message) after the move.
    stale = "This button is out of date: use the latest message of the duel."
    for user in table.players:
        assert await press(fake_api, user, m, old[-1], force=True) == stale
    await quiet()
    assert version_of(turn) == 1 and (await stored.duel(storage, duel_id)).version == 1
    assert not turn.deleted and live_duel(fake_api, table.chat) is turn

    # The dealer double-taps the same button: both presses arrive before the bot fetches.
    data = rng.choice(duel_keyboard(turn))
    dealer = actor_user(table, turn)
    last, since = newest_id(fake_api, table.chat), fake_api.last_seq
    first = fake_api.press_button(dealer, turn, data)
    second = fake_api.press_button(dealer, turn, data)
    answers = [await fake_api.wait_for_answer(q, timeout=TIMEOUT) for q in (first, second)]
    await fake_api.wait_for(lambda: newest_id(fake_api, table.chat) > last, TIMEOUT,
                            "the next bullet")
    await fake_api.wait_for(lambda: turn.deleted, TIMEOUT, "the pressed message to go")
    await quiet()
    # The second is the same move again, on the version it has just made: answered quietly,
    # with no "out of date" alarm.
    assert [a.text for a in answers] == [None, None]
    saved = await stored.duel(storage, duel_id)
    assert saved.version == 2
    fresh = [x for x in fake_api.bot_messages(table.chat, include_deleted=True)
             if x.message_id > last]
    assert len(fresh) == 1 and not fresh[0].deleted  # one next bullet, not two
    spent = costs(fake_api, since)
    assert (spent["sendPhoto"], spent["deleteMessage"]) == (1, 1), spent
    assert stored.actions(saved) == 2
    # The old message's buttons, pressed again later: the dealer's own move is still the
    # last one (quiet), anyone else's press is stale; the new bullet is untouched, and
    # nothing is sent or edited.
    nxt = live_duel(fake_api, table.chat)
    assert nxt is fresh[0] and "bullet 2 of 6" in text_of(nxt)
    shown, since = nxt.content_key(), fake_api.last_seq
    assert await press(fake_api, dealer, turn, data, force=True) is None
    assert await press(fake_api, other(table, dealer.id), turn, data, force=True) == stale
    await quiet()
    assert nxt.content_key() == shown and (await stored.duel(storage, duel_id)).version == 2
    assert live_duel(fake_api, table.chat) is nxt
    # Nothing was sent or edited; the bot may only try again to delete the old messages.
    spent = costs(fake_api, since)
    assert set(spent) <= {"answerCallbackQuery", "deleteMessage"}, spent
    assert {r.params["message_id"] for r in fake_api.calls("deleteMessage")} == {
        m.message_id, turn.message_id}
    # (A press on its copy of a message already deleted makes the bot delete it again, to be
    # sure it has no live buttons: Telegram says "not found", which is harmless.)
    assert not refused_calls(fake_api, allow=("message to delete not found",))
