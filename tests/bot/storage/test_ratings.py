"""Ratings (table ratings, migration V10): moved with every result in its transaction, never by
a practice duel, replayed once from the stored results of an older database, and moved with a
group that becomes a supergroup (the rating on more duels kept)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage import (
    MIGRATIONS,
    DuelResult,
    DuelStatus,
    ResultReason,
    Storage,
    StorageError,
    open_database,
)
from bot.storage.chat_move import move_chat
from bot.storage.db import numbered
from bot.storage.ratings import Game, replay
from rules import rating
from rules.rating import Rating

CHAT, OTHER, NEW = -42, -43, -1_001_000_000_042
ALICE, BOB, CAROL = 101, 202, 303
T0 = 1_700_000_000



def result(duel_id: int, players: tuple[int, int], winner: int | None, *, chat: int = CHAT,
           at: int = 0, reason: ResultReason = ResultReason.NORMAL) -> DuelResult:
    return DuelResult(duel_id=duel_id, chat_id=chat, players=players, final_stacks=(50, 50),
                      start_stack=50, winner_id=winner, reason=reason, best_hands=(None, None),
                      bonus_chips=(0, 0), bullets=6, finished_at=T0 + at)


async def finish(store: Storage, r: DuelResult) -> None:
    """A duel played to `r` through the save that finishes it."""
    duel = await store.duels.create(r.chat_id, None, r.players, "v0", T0)
    assert duel.id == r.duel_id
    assert await store.duels.save(duel.id, 0, "end", DuelStatus.FINISHED, now=T0 + 1,
                                  result=r) == 1


async def test_a_finished_duel_moves_both_ratings_with_its_result(store: Storage) -> None:
    await finish(store, result(1, (ALICE, BOB), ALICE))
    win, loss = rating.after_duel(rating.initial(), rating.initial(), 0)
    assert await store.ratings.for_chat(CHAT) == {ALICE: win, BOB: loss}
    await finish(store, result(2, (BOB, ALICE), None, reason=ResultReason.TIEBREAK))
    b2, a2 = rating.after_duel(loss, win, None)
    assert await store.ratings.for_chat(CHAT) == {ALICE: a2, BOB: b2}
    assert await store.ratings.get(CHAT, CAROL) is None
    assert await store.ratings.for_chat(OTHER) == {}


async def test_a_surrender_and_a_timeout_are_losses(store: Storage) -> None:
    await finish(store, result(1, (ALICE, BOB), BOB, reason=ResultReason.SURRENDER))
    await finish(store, result(2, (ALICE, BOB), BOB, reason=ResultReason.TIMEOUT))
    a, b = rating.initial(), rating.initial()
    for _ in range(2):
        a, b = rating.after_duel(a, b, 1)
    assert await store.ratings.for_chat(CHAT) == {ALICE: a, BOB: b}


async def test_a_result_that_fails_moves_no_rating(store: Storage) -> None:
    await finish(store, result(1, (ALICE, BOB), ALICE))
    before = await store.ratings.for_chat(CHAT)
    duel = await store.duels.create(CHAT, None, (ALICE, BOB), "v0", T0)
    await store.db.execute(  # a row in the way, so the result's insert fails
        "INSERT INTO results (duel_id, chat_id, player0_id, player1_id, stack0, stack1,"
        " start_stack, winner_id, reason, bullets, finished_at)"
        " VALUES (?, ?, ?, ?, 50, 50, 50, NULL, 'normal', 6, 0)", (duel.id, CHAT, ALICE, BOB))
    with pytest.raises(StorageError, match=r"(?i)unique"):
        await store.duels.save(duel.id, 0, "end", DuelStatus.FINISHED, now=T0,
                               result=result(duel.id, (ALICE, BOB), ALICE))
    assert await store.ratings.for_chat(CHAT) == before


async def test_a_practice_duel_rates_nobody(store: Storage) -> None:
    duel = await store.duels.create(CHAT, None, (ALICE, 999), "v0", T0)
    await store.duels.save(duel.id, 0, "end", DuelStatus.FINISHED, now=T0 + 1)  # no result
    assert await store.ratings.for_chat(CHAT) == {}


async def test_an_older_database_gets_its_ratings_replayed_in_order(tmp_path: Path) -> None:
    path = tmp_path / "v9.db"
    old = await open_database(path, migrations=numbered(MIGRATIONS[:9]))
    stored = [  # inserted out of order: the replay sorts by (finished_at, duel_id)
        result(3, (BOB, CAROL), CAROL, at=50),
        result(1, (ALICE, BOB), ALICE, at=10),
        result(2, (ALICE, CAROL), None, at=10),
        result(4, (ALICE, BOB), BOB, chat=OTHER, at=5),
    ]
    for r in stored:
        await old.insert("INSERT INTO duels (id, chat_id, player0_id, player1_id, state,"
                         " created_at, updated_at) VALUES (?, ?, ?, ?, 'x', 0, 0)",
                         (r.duel_id, r.chat_id, *r.players))
        await old.execute(
            "INSERT INTO results (duel_id, chat_id, player0_id, player1_id, stack0, stack1,"
            " start_stack, winner_id, reason, bullets, finished_at)"
            " VALUES (?, ?, ?, ?, 50, 50, 50, ?, 'normal', 6, ?)",
            (r.duel_id, r.chat_id, *r.players, r.winner_id, r.finished_at))
    await old.close()

    store = await Storage.open(path)
    try:
        assert await store.db.schema_version() == len(MIGRATIONS)
        a, b, c = rating.initial(), rating.initial(), rating.initial()
        a, b = rating.after_duel(a, b, 0)  # duel 1
        a, c = rating.after_duel(a, c, None)  # duel 2, same time: by duel id
        b, c = rating.after_duel(b, c, 1)  # duel 3
        assert await store.ratings.for_chat(CHAT) == {ALICE: a, BOB: b, CAROL: c}
        elsewhere = rating.after_duel(rating.initial(), rating.initial(), 1)
        assert await store.ratings.for_chat(OTHER) == dict(zip((ALICE, BOB), elsewhere,
                                                               strict=True))
        assert await store.meta.get("ratings_backfill") is None  # asked once, done
        await store.db.execute("DELETE FROM ratings WHERE chat_id = ?", (OTHER,))
    finally:
        await store.close()
    again = await Storage.open(path)  # not run twice
    try:
        assert await again.ratings.for_chat(OTHER) == {}
        assert len(await again.ratings.for_chat(CHAT)) == 3
    finally:
        await again.close()


def test_replay_is_the_ratings_one_duel_at_a_time() -> None:
    games = [Game(CHAT, (ALICE, BOB), ALICE), Game(CHAT, (BOB, ALICE), BOB),
             Game(OTHER, (ALICE, CAROL), None)]
    out = replay(games)
    a1, b1 = rating.after_duel(rating.initial(), rating.initial(), 0)
    b2, a2 = rating.after_duel(b1, a1, 0)
    assert out[(CHAT, ALICE)] == a2 and out[(CHAT, BOB)] == b2
    assert out[(OTHER, ALICE)].duels == out[(OTHER, CAROL)].duels == 1
    assert replay([]) == {}


async def put(store: Storage, chat: int, user: int, r: Rating) -> None:
    await store.db.execute("INSERT INTO ratings (chat_id, user_id, mu, sigma, duels)"
                           " VALUES (?, ?, ?, ?, ?)", (chat, user, r.mu, r.sigma, r.duels))


async def test_a_supergroup_keeps_each_players_rating_on_more_duels(store: Storage) -> None:
    only_old, old_more, old_fewer = Rating(30, 3, 9), Rating(28, 2, 20), Rating(21, 5, 2)
    new_fewer, new_more, only_new = Rating(26, 6, 1), Rating(33, 4, 7), Rating(24, 7, 1)
    await put(store, CHAT, ALICE, only_old)
    await put(store, CHAT, BOB, old_more)
    await put(store, NEW, BOB, new_fewer)
    await put(store, CHAT, CAROL, old_fewer)
    await put(store, NEW, CAROL, new_more)
    await put(store, NEW, 404, only_new)
    await move_chat(store.db, CHAT, NEW, now=T0)
    assert await store.ratings.for_chat(CHAT) == {}
    assert await store.ratings.for_chat(NEW) == {ALICE: only_old, BOB: old_more,
                                                 CAROL: new_more, 404: only_new}
    await move_chat(store.db, CHAT, NEW, now=T0 + 1)  # a second signal: nothing left
    assert len(await store.ratings.for_chat(NEW)) == 4
