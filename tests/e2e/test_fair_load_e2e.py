"""One busy chat must not hold up the others: a flood of commands and a flood penalty in one
group, while a duel in another group goes on at its normal pace."""

from __future__ import annotations

import random
import time

from tests.support.botprocess import LaunchBot
from tests.support.driver import Table, actor, duel_keyboard, open_duel, tap
from tests.support.fakeapi import FakeTelegramAPI

FLOOD = 300  # more commands than python-telegram-bot's default 256 concurrent updates


async def test_a_flood_and_its_429_in_one_chat_do_not_hold_up_another_chats_presses(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob_b", language_code="en")
    table = Table(fake_api, fake_api.create_group(members=[alice, bob]), (alice, bob))
    m = await open_duel(fake_api, table)
    spammer = fake_api.add_user("Spammer", username="spammer", language_code="en")
    busy = fake_api.create_group("Busy", members=[spammer])
    # The busy group's first reply draws a 30-second flood penalty, for that chat only.
    fake_api.inject_rate_limit("sendMessage", count=1, retry_after=30)
    for _ in range(FLOOD):
        fake_api.send_command(spammer, busy, "rules")
    await fake_api.wait_updates_fetched(timeout=20)
    user = next(p for p in table.players if p.id == actor(m))
    started = time.perf_counter()
    toast = await tap(fake_api, user, m, random.Random(1).choice(duel_keyboard(m)))
    waited = time.perf_counter() - started
    answered = len(fake_api.bot_messages(busy))
    assert toast is None  # the press was taken, answered and drawn ...
    assert answered < FLOOD // 2  # ... while the flood was still being worked off
    print(f"a press in a quiet chat, behind {FLOOD} commands and a 30 s penalty in another: "
          f"answered and drawn in {waited * 1000:.0f} ms ({answered} flood replies out)")
