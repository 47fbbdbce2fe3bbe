"""One member cannot freeze the group (issue 23), against a fake Bot API that enforces
Telegram's flood limits (20 sends and edits a minute per group, 30 a second per bot, a 429
with retry_after beyond them): a burst of /stats in the middle of a duel neither delays the
next press nor breaks a limit, and a 429 keeps everything away from its chat until it ends."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    Table,
    actor,
    duel_keyboard,
    live_duel_message,
    newest_id,
    open_duel,
    play_bullet_move,
    player,
)
from tests.support.fakeapi import FakeMessage, FakeTelegramAPI
from tests.support.fakeapi.model import FakeChat, RecordedRequest

BURST = 30
ANSWERED_WITHIN = 1.0  # seconds from the press to its answer
TABLE_WITHIN = 10.0  # ... and to the next player's table
HANDFUL = 3  # /stats replies the burst may draw
PATIENCE = 240.0  # how long the test waits at most (the figures are printed either way)
PENALTY = 30  # seconds of the injected 429
SETTLE = 5.0  # seconds the test goes on watching after the table


def replies_to(api: FakeTelegramAPI, chat: FakeChat, asked: list[FakeMessage]) -> list[
        FakeMessage]:
    ids = {m.message_id for m in asked}
    return [m for m in api.bot_messages(chat, include_deleted=True)
            if m.reply_to is not None and m.reply_to.message_id in ids]


def answers(api: FakeTelegramAPI, query_id: str) -> list[RecordedRequest]:
    """The bot's answers to this press, taken or refused (too old)."""
    return [r for r in api.calls("answerCallbackQuery")
            if str(r.params.get("callback_query_id")) == query_id]


def limited(api: FakeTelegramAPI) -> int:
    return sum(1 for r in api.requests if r.status == 429)


async def test_a_burst_of_stats_in_a_duel_neither_delays_the_next_press_nor_breaks_a_limit(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    fake_api.enable_flood_control(per_group_per_minute=20, per_bot_per_second=30)
    await launch_bot()
    alice = fake_api.add_user("Alice", username="alice", language_code="en")
    bob = fake_api.add_user("Bob", username="bob_b", language_code="en")
    carol = fake_api.add_user("Carol", username="carol", language_code="en")
    table = Table(fake_api, fake_api.create_group(members=[alice, bob, carol]), (alice, bob))
    await open_duel(fake_api, table)
    rng = random.Random(23)
    for _ in range(2):
        assert await play_bullet_move(fake_api, table, rng)
    asked = [fake_api.send_command(carol, table.chat, "stats") for _ in range(BURST)]
    await fake_api.wait_updates_fetched(timeout=20)
    m = live_duel_message(fake_api, table.chat)
    assert m is not None
    last = newest_id(fake_api, table.chat)
    started, started_wall = time.monotonic(), time.time()
    query = fake_api.press_button(player(table, actor(m)), m, rng.choice(duel_keyboard(m)))
    fresh = await fake_api.wait_for_message(
        table.chat, lambda x: bool(duel_keyboard(x)), after_message_id=last, timeout=PATIENCE)
    drawn = time.monotonic() - started
    assert fresh is not None
    with contextlib.suppress(TimeoutError):  # an answer may follow its table
        await fake_api.wait_for(lambda: answers(fake_api, query.id), 2.0, "the answer")
    tried = [r.time - started_wall for r in answers(fake_api, query.id)]
    answered = (query.answered_at or 0.0) - started if query.answered else None
    await asyncio.sleep(SETTLE)  # what else the burst draws
    replies = len(replies_to(fake_api, table.chat, asked))
    print(f"\n{BURST} /stats mid-duel: press "
          + (f"answered in {answered:.2f} s" if answered is not None else
             f"never answered (the bot's answer came {tried[0] if tried else float('nan'):.1f} s "
             "after the press, too old)")
          + f", its table sent in {drawn:.2f} s, {replies} /stats replies, "
          f"{limited(fake_api)} 429s")
    assert answered is not None
    assert answered <= ANSWERED_WITHIN
    assert drawn <= TABLE_WITHIN
    assert replies <= HANDFUL
    assert limited(fake_api) == 0


async def test_a_429_keeps_every_call_away_from_its_chat_until_it_ends(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    await launch_bot()
    users = [fake_api.add_user(n, username=n.lower(), language_code="en")
             for n in ("Dora", "Eve", "Finn", "Gus")]
    penalised = fake_api.create_group("Penalised", members=users[:3])
    other = fake_api.create_group("Other", members=users[3:])
    fake_api.inject_rate_limit("sendMessage", count=1, retry_after=PENALTY)
    asked = [fake_api.send_command(users[0], penalised, "rules")]  # its reply draws the 429
    await fake_api.wait_for(lambda: limited(fake_api) == 1, 20, "the 429")
    hit = next(r for r in fake_api.requests if r.status == 429)
    assert int(hit.params["chat_id"]) == penalised.id
    # More asks while the chat is held, each once (no repeat to coalesce), one after another.
    for u, c in [(u, c) for u in users[:3] for c in ("rules", "help")][1:]:
        asked.append(fake_api.send_command(u, penalised, c))
        await asyncio.sleep(0.5)  # handled, and waiting, before the next comes
    # Another chat is served meanwhile.
    quick = fake_api.send_command(users[3], other, "rules")
    await fake_api.wait_for(lambda: replies_to(fake_api, other, [quick]), 10, "the other reply")
    assert time.time() - hit.time < PENALTY / 2
    await fake_api.wait_for(
        lambda: len(replies_to(fake_api, penalised, asked)) == len(asked), PENALTY + 30,
        "the waiting replies")
    calls = [r for r in fake_api.requests if r.seq > hit.seq
             and str(r.params.get("chat_id")) == str(penalised.id)]
    assert calls and min(r.time for r in calls) >= hit.time + PENALTY - 0.05
    replied = [m.reply_to.message_id for m in replies_to(fake_api, penalised, asked)
               if m.reply_to is not None]
    assert replied == [m.message_id for m in asked]  # the waiting replies in order
    assert limited(fake_api) == 1
