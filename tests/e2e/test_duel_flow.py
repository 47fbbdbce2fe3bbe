"""Whole duels through the real bot process and the fake Bot API."""

from __future__ import annotations

import random

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Table,
    actor,
    duel_keyboard,
    gone,
    live_duel_message,
    mentioned_ids,
    open_duel,
    play_to_the_end,
    text_of,
)
from tests.support.fakeapi import FakeTelegramAPI

# Played at machine speed: the bot's own pacing to 20 calls a minute per group would hold this
# duel for a minute without testing anything here (tests/e2e/test_flood_e2e.py tests the pacing).
QUICK = {"SIXSHOOTER_RATE_LIMIT": "off"}



def _table(api: FakeTelegramAPI, *, lang: str = "en") -> Table:
    alice = api.add_user("Alice", username="alice", language_code=lang)
    bob = api.add_user("Bob", username="bob_the_builder", language_code=lang)
    chat = api.create_group(members=[alice, bob])
    return Table(api, chat, (alice, bob))


async def test_a_whole_duel_between_two_friends(fake_api: FakeTelegramAPI,
                                                launch_bot: LaunchBot) -> None:
    await launch_bot(env=QUICK)
    table = _table(fake_api)
    first = await open_duel(fake_api, table)
    # The challenge's message is the duel's header: the first deal's commitment is there, the
    # live bullet mentions only whoever must act.
    header = fake_api.bot_messages(table.chat)[0]
    assert "Duel: Alice vs Bob, 50 chips each" in text_of(header)
    assert "Round 1 deck hash: " in text_of(header)
    assert first.photo is not None and "deck hash" not in text_of(first)
    assert actor(first) in {p.id for p in table.players}
    assert mentioned_ids(first) == [actor(first)]
    result = await play_to_the_end(fake_api, table, random.Random(1))
    assert result.photo is not None
    assert "wins the duel" in text_of(result) or "draw" in text_of(result).lower()
    # A finished duel leaves its header and its result: every bullet's message is gone (when
    # the group's flood budget has room for the deletes).
    await gone(fake_api, *[m for m in fake_api.bot_messages(table.chat) if duel_keyboard(m)])
    assert fake_api.bot_messages(table.chat) == [header, result]
    # One commitment in the header per deal, and one /verify copy button per deal.
    copies = [b["copy_text"]["text"] for b in result.buttons() if "copy_text" in b]
    assert len(copies) >= 2 and all(c.startswith("/verify ") for c in copies)
    assert text_of(header).count("deck hash") == len(copies)
    assert live_duel_message(fake_api, table.chat) is None
    assert not any(duel_keyboard(m) for m in fake_api.bot_messages(table.chat))
