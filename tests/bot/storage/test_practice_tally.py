"""Practice duels against the bot, counted by the save that finishes each (table
practice_tally, V19), and counted once from the finished ones of an older database."""

from __future__ import annotations

import pytest

from bot.storage import DuelStatus, PracticeTally, Storage, practice, standings
from rules.duel import DuelState, Surrender

CHAT, OTHER = -42, -43
ALICE, BOB, BOT = 101, 202, 999
T0 = 1_700_000_000


async def practise(store: Storage, chat: int, user: int, gives_up: int | None) -> None:
    """A practice duel of `user`'s in `chat`, ended by seat `gives_up`'s surrender (None: left
    live)."""
    state = DuelState.new(50, first_dealer=0)
    record = await store.duels.create(chat, None, (user, BOT), state.to_json(), T0,
                                      ai_level="easy")
    if gives_up is None:
        return
    state.apply(Surrender(), gives_up)
    assert state.is_over
    assert await store.duels.save(record.id, 0, state.to_json(), DuelStatus.FINISHED,
                                  now=T0 + 1, state=state, practice_over=True) == 1


async def play(store: Storage) -> None:
    await practise(store, CHAT, ALICE, 1)  # the bot gave up: Alice won
    await practise(store, CHAT, ALICE, 1)
    await practise(store, CHAT, ALICE, 0)  # Alice gave up
    await practise(store, CHAT, ALICE, None)  # still on: not counted
    await practise(store, OTHER, ALICE, 0)
    await practise(store, CHAT, BOB, 1)


async def test_a_finished_practice_duel_moves_its_players_tally(store: Storage) -> None:
    await play(store)
    assert await store.practice.tally(CHAT, ALICE) == PracticeTally(3, 2, 1)
    assert await store.practice.tally(OTHER, ALICE) == PracticeTally(1, 0, 1)
    assert await store.practice.tally(CHAT, BOB) == PracticeTally(1, 1, 0)
    assert await store.practice.tally(OTHER, BOB) == PracticeTally()


async def test_an_older_database_gets_its_practice_counted_once(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    await play(store)
    await store.db.execute("DELETE FROM practice_tally")
    await store.meta.set(standings.BACKFILL, "practice:")
    monkeypatch.setattr(practice, "BATCH", 2)
    assert await standings.backfill(store.db) == 0  # no result to replay, only duels counted
    assert await store.meta.get(standings.BACKFILL) is None
    assert await store.practice.tally(CHAT, ALICE) == PracticeTally(3, 2, 1)
    assert await store.practice.tally(OTHER, ALICE) == PracticeTally(1, 0, 1)
    assert await store.practice.tally(CHAT, BOB) == PracticeTally(1, 1, 0)
