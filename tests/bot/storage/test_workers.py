"""Several workers on one PostgreSQL database, each with its own `Storage`, at the same time:
what one writes, the next read through another sees (no cache lies), and every
read-modify-write of a chat's rows ends as if the workers had taken turns (the chat's lock, or
a conditional write). SQLite has one bot per file: these run on PostgreSQL only."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.duel.service import start_duel
from bot.services import Services
from bot.storage import (
    ChallengeRecord,
    ChatSettings,
    DuelResult,
    ResultReason,
    Storage,
    StorageError,
    chat_lock,
    open_database,
)
from bot.storage.challenges import AlreadyPending
from bot.tournament import service as tournaments
from rules import rating

ALICE, BOB, CAROL = 101, 202, 303
T0 = 1_700_000_000
ROUNDS = 12  # races per test: each may interleave, so a missing lock shows within a few


@pytest.fixture
async def pair(database: str) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two workers' storages on one database."""
    if not database.startswith("postgresql"):
        pytest.skip("several workers share PostgreSQL")
    a, b = await Storage.open(database), await Storage.open(database)
    yield a, b
    await a.close()
    await b.close()


# --- no cache lies ------------------------------------------------------------------------

async def test_a_settings_change_on_one_worker_holds_for_the_next_read_on_another(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    assert await a.chats.get_settings(-1) == ChatSettings()  # read (a cache would keep it)
    await b.chats.set_settings(-1, ChatSettings(turn_timer=60))
    assert (await a.chats.get_settings(-1)).turn_timer == 60
    await b.chats.update_settings(-1, lambda s: replace(s, language="ru"))
    assert await a.chats.get_settings(-1) == ChatSettings(turn_timer=60, language="ru")


async def test_users_and_chats_written_on_one_worker_are_read_on_another(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    assert await a.users.remember(ALICE, "Ann", None, "ann", "en", False, now=T0)
    assert not await a.users.remember(ALICE, "Ann", None, "ann", "en", False, now=T0)
    assert await b.users.remember(ALICE, "Anna", None, "ann", "en", False, now=T0 + 1)
    got = await a.users.get(ALICE)
    assert got is not None and got.first_name == "Anna"
    # back to her old name, on the worker that wrote it first: written again
    assert await a.users.remember(ALICE, "Ann", None, "ann", "en", False, now=T0 + 2)
    got = await b.users.get(ALICE)
    assert got is not None and got.first_name == "Ann"

    assert await a.chats.remember(-1, "group", "Saloon", False, now=T0)
    assert await b.chats.mark_left(-1, now=T0 + 1)
    assert await a.chats.remember(-1, "group", "Saloon", False, now=T0 + 2)  # active again
    chat = await b.chats.get(-1)
    assert chat is not None and chat.active


async def first_name(storage: Storage, user_id: int) -> str:
    user = await storage.users.get(user_id)
    assert user is not None
    return user.first_name


async def test_within_one_update_a_row_is_read_once_and_stands_for_the_whole_update(
        pair: tuple[Storage, Storage]) -> None:
    """bot.storage.row_cache on PostgreSQL: the first read of an update stands for the rest of it
    (as if handled at that instant); the next update reads afresh."""
    a, b = pair
    await a.users.upsert(ALICE, "Ann", now=T0)
    with a.one_update():
        assert (await a.chats.get_settings(-1)).turn_timer == ChatSettings().turn_timer
        assert await first_name(a, ALICE) == "Ann"
        await b.chats.set_settings(-1, ChatSettings(turn_timer=60))
        await b.users.upsert(ALICE, "Anna", now=T0 + 1)
        assert (await a.chats.get_settings(-1)).turn_timer == ChatSettings().turn_timer
        assert await first_name(a, ALICE) == "Ann"
        # what this update writes itself, it reads back
        await a.chats.set_settings(-1, ChatSettings(turn_timer=90))
        assert (await a.chats.get_settings(-1)).turn_timer == 90
        await b.chats.set_settings(-1, ChatSettings(turn_timer=60))
    with a.one_update():
        assert (await a.chats.get_settings(-1)).turn_timer == 60
        assert await first_name(a, ALICE) == "Anna"


async def test_within_one_update_a_locked_change_and_a_started_task_read_the_database(
        pair: tuple[Storage, Storage]) -> None:
    """A read-modify-write under the chat's lock never builds on the update's first read
    (another worker's change since would be lost), and a task the update starts (which may
    outlive it) reads what is committed."""
    a, b = pair
    with a.one_update():
        assert await a.chats.get_settings(-1) == ChatSettings()
        await b.chats.set_settings(-1, ChatSettings(turn_timer=60))
        later = await asyncio.create_task(a.chats.get_settings(-1))
        assert later.turn_timer == 60
        before, after = await a.chats.update_settings(-1, lambda s: replace(s, language="ru"))
        assert before.turn_timer == 60 and after == ChatSettings(turn_timer=60, language="ru")
        assert await a.chats.get_settings(-1) == after
    assert await b.chats.get_settings(-1) == ChatSettings(turn_timer=60, language="ru")


# --- read-modify-writes, as if one at a time ----------------------------------------------

async def test_the_chat_lock_makes_two_workers_read_then_write_one_at_a_time(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    await a.meta.set("count", "0")

    async def bump(store: Storage) -> None:
        async with store.transaction(lock=chat_lock(-1)):
            n = int(await store.meta.get("count") or 0)
            await asyncio.sleep(0)  # let the other worker try meanwhile
            await store.meta.set("count", str(n + 1))

    await asyncio.gather(*(bump(s) for _ in range(ROUNDS) for s in pair))
    assert await b.meta.get("count") == str(2 * ROUNDS)


async def test_a_lock_held_elsewhere_is_waited_for_at_most_the_busy_timeout(
        pair: tuple[Storage, Storage], database: str) -> None:
    a, _ = pair
    impatient = Storage.over(await open_database(database, busy_timeout=0.3))
    held, release = asyncio.Event(), asyncio.Event()

    async def holder() -> None:
        async with a.transaction(lock=chat_lock(-1)):
            held.set()
            await release.wait()

    task = asyncio.create_task(holder())
    try:
        await held.wait()
        with pytest.raises(StorageError):
            async with impatient.transaction(lock=chat_lock(-1)):
                pass
        async with impatient.transaction(lock=chat_lock(-2)):  # another chat's: free
            pass
        release.set()
        await task
        async with impatient.transaction(lock=chat_lock(-1)):  # released at the commit
            pass
    finally:
        release.set()
        await task
        await impatient.close()


async def test_settings_changed_on_two_workers_at_once_both_hold(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    for n in range(ROUNDS):
        chat = -100 - n
        await asyncio.gather(
            a.chats.update_settings(chat, lambda s: replace(s, turn_timer=60)),
            b.chats.update_settings(chat, lambda s: replace(s, default_stack=100)))
        assert await a.chats.get_settings(chat) == ChatSettings(turn_timer=60,
                                                                default_stack=100)


def result(duel_id: int, players: tuple[int, int], winner: int) -> DuelResult:
    return DuelResult(duel_id=duel_id, chat_id=-1, players=players, final_stacks=(60, 40),
                      start_stack=50, winner_id=winner, reason=ResultReason.NORMAL,
                      best_hands=(None, None), bonus_chips=(0, 0), bullets=6, finished_at=T0)


async def test_two_results_of_one_player_at_once_both_move_her_rating(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    for n in range(ROUNDS):
        one = await a.duels.create(-1, None, (ALICE, BOB), "{}", T0)
        two = await a.duels.create(-1, None, (ALICE, CAROL), "{}", T0)
        await asyncio.gather(
            a.duels.save(one.id, 0, "{}", now=T0, result=result(one.id, (ALICE, BOB), ALICE),
                         status=one.status.FINISHED),
            b.duels.save(two.id, 0, "{}", now=T0, result=result(two.id, (ALICE, CAROL), ALICE),
                         status=two.status.FINISHED))
        alice = await b.ratings.get(-1, ALICE)
        assert alice is not None and alice.duels == 2 * (n + 1)
    # and as if one at a time: the same as replaying them in their order
    ratings = await a.ratings.for_chat(-1)
    assert ratings[ALICE].duels == 2 * ROUNDS
    assert ratings[BOB].duels == ratings[CAROL].duels == ROUNDS
    assert ratings[ALICE].mu > rating.initial().mu


async def challenge(store: Storage, chat: int, challenger: int, target: int) -> ChallengeRecord:
    c = await store.challenges.create(chat, None, challenger, target, None, 50, T0, T0 + 600)
    assert not isinstance(c, AlreadyPending)
    return c


async def test_two_challenges_of_one_player_accepted_at_once_start_one_duel(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    svc_a = Services(storage=a, rng=random.Random(1), clock=lambda: T0)
    svc_b = Services(storage=b, rng=random.Random(2), clock=lambda: T0)
    for n in range(ROUNDS):
        chat = -200 - n
        mine = await challenge(a, chat, ALICE, BOB)  # Bob accepts on worker a...
        hers = await challenge(a, chat, CAROL, ALICE)  # ...as Alice accepts Carol's on b
        started = await asyncio.gather(start_duel(svc_a, mine, BOB),
                                       start_duel(svc_b, hers, ALICE))
        assert sum(d is not None for d in started) == 1, started  # one live duel per player
        assert len(await b.duels.live_in_chat(chat)) == 1


async def test_two_rebuys_at_once_give_once(pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    for n in range(ROUNDS):
        chat = -300 - n
        await a.balances.balance(chat, ALICE, now=T0)
        await a.db.execute("UPDATE balances SET balance = 0 WHERE chat_id = ?", (chat,))
        done = await asyncio.gather(a.balances.rebuy(chat, ALICE, now=T0 + 1),
                                    b.balances.rebuy(chat, ALICE, now=T0 + 1))
        assert sorted(r.done for r in done) == [False, True]
        after = await b.balances.get_balance(chat, ALICE)
        assert after is not None and after.rebuys == 1 and after.balance == 1000


async def test_players_joining_on_two_workers_at_once_each_get_a_seat(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    for n in range(ROUNDS):
        t = await a.tournaments.open(-400 - n, None, ALICE, 50, False, 3600, T0)
        assert t is not None
        joined = await asyncio.gather(*(pair[p % 2].tournaments.join(t.id, 1000 + p)
                                        for p in range(6)))
        assert all(joined)
        rows = await b.db.fetchall("SELECT user_id, seat FROM tournament_players"
                                   " WHERE tournament_id = ? ORDER BY seat", (t.id,))
        assert [r["seat"] for r in rows] == list(range(7))
        assert sorted(r["user_id"] for r in rows) == sorted([ALICE, *range(1000, 1006)])


async def test_a_value_made_on_two_workers_at_once_is_made_once(
        pair: tuple[Storage, Storage]) -> None:
    for n in range(ROUNDS):
        made: list[str] = []

        def make(store: Storage, made: list[str] = made) -> str:
            made.append(str(id(store)))
            return made[-1]

        got = await asyncio.gather(*(s.meta.get_or_create(f"secret{n}", lambda s=s: make(s))
                                     for s in pair))
        assert got[0] == got[1] and made == [got[0]]


async def test_both_players_of_a_pairing_asking_at_once_make_one_challenge(
        pair: tuple[Storage, Storage]) -> None:
    a, b = pair
    svc_a = Services(storage=a, rng=random.Random(1), clock=lambda: T0)
    svc_b = Services(storage=b, rng=random.Random(2), clock=lambda: T0)
    for n in range(ROUNDS):
        chat = -500 - n
        t = await a.tournaments.open(chat, None, ALICE, 50, False, 3600, T0)
        assert t is not None
        assert await a.tournaments.join(t.id, BOB) and await a.tournaments.join(t.id, CAROL)
        field = await tournaments.load(svc_a, t.id)
        assert field is not None
        assert not isinstance(await tournaments.start(svc_a, field), tournaments.Refusal)
        field = await tournaments.load(svc_a, t.id)
        assert field is not None
        m = field.matches[0]
        asked = await asyncio.gather(tournaments.play(svc_a, field, m.idx, m.player_a),
                                     tournaments.play(svc_b, field, m.idx, m.player_b))
        pending = [c for c in await b.challenges.in_chat(chat) if c.is_pending]
        assert len(pending) == 1, asked  # one challenge: the other press answers it
        match = (await b.tournaments.matches(t.id))[0]
        assert match.idx == m.idx and match.challenge_id == pending[0].id
        assert sorted(type(x).__name__ for x in asked) == ["Answer", "Asked"]
