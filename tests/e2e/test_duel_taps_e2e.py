"""Taps feel solid (issue 11, item 5), through the real `sixshooter` process: a double tap on a
move just made is answered silently (no "out of date" alarm), whether the move passed the turn
to the dealer or ended the bullet; re-selecting a setting that is already chosen edits
nothing. Telegram (the fake refuses what it refuses) is asked for nothing it would refuse,
"message is not modified" included.
"""

from __future__ import annotations

import random

from tests.support import stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    TIMEOUT,
    actor_user,
    command,
    costs,
    duel_id_of,
    duel_keyboard,
    live_duel,
    moves_on,
    new_table,
    newest_id,
    open_duel,
    other,
    press,
    quiet,
    tap,
    version_of,
)
from tests.support.fakeapi import FakeTelegramAPI

STALE = "This button is out of date: use the latest message of the duel."


async def test_a_double_tap_on_a_move_is_answered_silently(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    bot = await launch_bot()
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(11)

    # The opponent's move passes the turn to the dealer: a fresh message, the pressed one
    # deleted. The same tap again (a slow client, on its copy of the old message) is the move
    # just made: silent, applied once, the live message left alone.
    mover, data = actor_user(table, m), rng.choice(duel_keyboard(m))
    assert moves_on(m, data)
    assert await tap(fake_api, mover, m, data) is None
    turn = live_duel(fake_api, table.chat)
    assert m.deleted and turn is not m
    shown, since = turn.content_key(), fake_api.last_seq
    assert await press(fake_api, mover, m, data, force=True) is None
    await quiet()
    assert (await stored.duel(storage, duel_id)).version == 1 and turn.content_key() == shown
    assert set(costs(fake_api, since)) == {"answerCallbackQuery"}, costs(fake_api, since)
    # The same button pressed by the other player is not their move: out of date.
    assert await press(fake_api, other(table, mover.id), m, data, force=True) == STALE

    # The dealer's move ends the bullet, and both taps arrive before the bot fetches: one is
    # applied, the other is answered silently, and the next bullet is sent once.
    dealer, data = actor_user(table, turn), rng.choice(duel_keyboard(turn))
    assert dealer.id != mover.id and moves_on(turn, data)
    last = newest_id(fake_api, table.chat)
    first = fake_api.press_button(dealer, turn, data)
    second = fake_api.press_button(dealer, turn, data)
    answers = [await fake_api.wait_for_answer(q, timeout=TIMEOUT) for q in (first, second)]
    await fake_api.wait_for(lambda: newest_id(fake_api, table.chat) > last, TIMEOUT,
                            "the next bullet")
    await fake_api.wait_for(lambda: turn.deleted, TIMEOUT, "the pressed message to go")
    await quiet()
    assert [a.text for a in answers] == [None, None]
    assert (await stored.duel(storage, duel_id)).version == 2
    assert newest_id(fake_api, table.chat) == last + 1  # one next bullet, not two
    # A third tap, later, of a button of the deleted message: silent, nothing sent or edited.
    nxt = live_duel(fake_api, table.chat)
    shown, since = nxt.content_key(), fake_api.last_seq
    assert await press(fake_api, dealer, turn, data, force=True) is None
    await quiet()
    assert nxt.content_key() == shown and live_duel(fake_api, table.chat) is nxt
    assert set(costs(fake_api, since)) == {"answerCallbackQuery"}, costs(fake_api, since)
    assert version_of(nxt) == 2 and (await stored.duel(storage, duel_id)).version == 2
    # Nothing Telegram refuses: the other player's stale press on the deleted message asks
    # for no second deleteMessage of it ("message to delete not found").
    assert not fake_api.failed_calls(), [r.summary() for r in fake_api.failed_calls()]


async def test_re_selecting_a_setting_edits_nothing(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    table, _ = new_table(fake_api)
    alice = table.players[0]  # the group's creator
    shown = await command(fake_api, alice, table.chat, "settings")

    def ticked() -> list[str]:
        return [b["callback_data"] for b in shown.buttons() if b["text"].startswith("✅ ")]

    def data_of(text: str) -> str:
        return str(next(b["callback_data"] for b in shown.buttons() if b["text"] == text))

    current = ticked()
    assert len(current) == 8  # language, timer, stack, cards out, reveals, season, its reset,
    # the suits' colours
    edits = len(shown.history)
    for data in current:  # every value already chosen, chosen again
        assert await press(fake_api, alice, shown, data) == "Saved."
    await quiet()
    assert len(shown.history) == edits and ticked() == current
    # A new value is shown at once; then chosen again, it edits nothing more.
    assert await press(fake_api, alice, shown, data_of("100")) == "Saved."
    await fake_api.wait_for(lambda: len(shown.history) > edits, TIMEOUT, "the edit")
    assert "✅ 100" in shown.button_texts()
    edits = len(shown.history)
    assert await press(fake_api, alice, shown, data_of("✅ 100")) == "Saved."
    await quiet()
    assert len(shown.history) == edits
    assert not fake_api.failed_calls(), [r.summary() for r in fake_api.failed_calls()]
