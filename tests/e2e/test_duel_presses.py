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
    duel_id_of,
    duel_keyboard,
    live_duel,
    live_duel_message,
    move,
    new_table,
    open_duel,
    other,
    press,
    quiet,
    refused_calls,
    tap,
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
    await move(fake_api, table, rng)  # the opponent's move: the same message, new version
    assert live_duel_message(fake_api, table.chat) is m and version_of(m) == 1
    # A button of version 0, pressed (as a slow client would) after the edit.
    stale = "This button is out of date: use the latest message of the duel."
    for user in table.players:
        assert await press(fake_api, user, m, old[-1], force=True) == stale
    assert version_of(m) == 1 and (await stored.duel(storage, duel_id)).version == 1

    # The dealer double-taps the same button: both presses arrive before the bot fetches.
    data = rng.choice(duel_keyboard(m))
    dealer = actor_user(table, m)
    count = len(fake_api.bot_messages(table.chat))
    first = fake_api.press_button(dealer, m, data)
    second = fake_api.press_button(dealer, m, data)
    answers = [await fake_api.wait_for_answer(q, timeout=TIMEOUT) for q in (first, second)]
    await fake_api.wait_for(lambda: len(fake_api.bot_messages(table.chat)) > count, TIMEOUT,
                            "the next bullet")
    await quiet()
    # The second is the same move again, on the version it has just made: answered quietly,
    # with no "out of date" alarm.
    assert [a.text for a in answers] == [None, None]
    saved = await stored.duel(storage, duel_id)
    assert saved.version == 2
    assert len(fake_api.bot_messages(table.chat)) == count + 1  # one next bullet, not two
    assert not duel_keyboard(m) and len(m.history) == 2  # two edits: the bet, the reveal
    assert stored.actions(saved) == 2
    # The reveal's old buttons, pressed again later: the dealer's own move is still the
    # last one (quiet), anyone else's press is stale; the new bullet is untouched, and the
    # reveal (no buttons left) is not edited again.
    nxt = live_duel(fake_api, table.chat)
    shown, reveal = nxt.content_key(), len(m.history)
    assert await press(fake_api, dealer, m, data, force=True) is None
    assert await press(fake_api, other(table, dealer.id), m, data, force=True) == stale
    await quiet()
    assert nxt.content_key() == shown and (await stored.duel(storage, duel_id)).version == 2
    assert len(m.history) == reveal
    assert not refused_calls(fake_api)
