"""Whole duels through the real bot process and the fake Bot API."""

from __future__ import annotations

import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Table,
    actor,
    duel_keyboard,
    live_duel_message,
    open_duel,
    play_to_the_end,
)
from tests.support.fakeapi import FakeTelegramAPI


def _table(api: FakeTelegramAPI, *, lang: str = "en") -> Table:
    alice = api.add_user("Alice", username="alice", language_code=lang)
    bob = api.add_user("Bob", username="bob_the_builder", language_code=lang)
    chat = api.create_group(members=[alice, bob])
    return Table(api, chat, (alice, bob))


async def test_a_whole_duel_between_two_friends(fake_api: FakeTelegramAPI,
                                                launch_bot: LaunchBot) -> None:
    await launch_bot()
    table = _table(fake_api)
    first = await open_duel(fake_api, table)
    assert first.photo is not None and "commitment" in (first.caption or "")
    assert actor(first) in {p.id for p in table.players}
    result = await play_to_the_end(fake_api, table, random.Random(1))
    assert result.photo is not None
    assert "wins the duel" in (result.caption or "") or "draw" in (result.caption or "")
    reveals = [m for m in fake_api.bot_messages(table.chat) if m.photo and not m.reply_markup]
    assert len(reveals) >= 7  # six reveals and the result
    assert live_duel_message(fake_api, table.chat) is None
    assert not any(duel_keyboard(m) for m in fake_api.bot_messages(table.chat))
