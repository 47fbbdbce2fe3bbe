"""What the health check and the metrics ask the database, on both engines: a ping, the games
live in the whole database, and each statement timed with its failures counted."""

from __future__ import annotations

import pytest

from bot.ops import metrics
from bot.storage import (
    Database,
    DuelRepo,
    DuelStatus,
    LiveGames,
    SixCardRecord,
    SixCardRepo,
    Storage,
    StorageError,
)
from bot.storage.sixcard import STATES
from rules.sixcard import SixCardGame


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


async def test_ping_answers_and_fails_once_closed(database: str) -> None:
    storage = await Storage.open(database)
    await storage.ping()
    await storage.close()
    with pytest.raises(StorageError):
        await storage.ping()


async def test_live_games_counts_only_live_ones(store: Storage) -> None:
    assert await store.live_games() == {"duel": 0, "sixcard": 0}
    first = await store.duels.create(-100, None, (1, 2), "{}", 1000)
    await store.duels.create(-100, None, (3, 4), "{}", 1000)
    await store.duels.abandon_chat(-200, now=1001)  # another chat: nothing changes
    balance = await store.balances.balance(-100, 5, now=1000)
    await store.sixcard.create(-100, None, 5, "{}", stake=10, balance_version=balance.version,
                               now=1000)
    assert await store.live_games() == {"duel": 2, "sixcard": 1}
    assert await store.duels.save(first.id, first.version, "{}", DuelStatus.ABANDONED,
                                  now=1002) is not None
    assert await store.live_games() == {"duel": 1, "sixcard": 1}


async def test_each_statement_is_timed_and_a_failed_one_counted(store: Storage,
                                                                watched: None) -> None:
    engine = store.engine
    timed = value("sixshooter_db_statement_seconds_count", engine=engine)
    failed = value("sixshooter_db_errors_total", engine=engine, error="StorageError")
    await store.ping()
    await store.live_games()
    assert value("sixshooter_db_statement_seconds_count", engine=engine) == timed + 2
    with pytest.raises(StorageError):
        await store.db.fetchone("SELECT * FROM no_such_table")
    assert value("sixshooter_db_errors_total", engine=engine, error="StorageError") == failed + 1



class OtherRepo(LiveGames[SixCardRecord, SixCardGame]):
    """A made-up game's repository (over six-card's table: any table of live records does)."""

    def __init__(self, db: Database) -> None:
        super().__init__(db, "other", "sixcard_games", SixCardRepo(db).record, STATES)


async def test_a_games_own_repository_is_built_once_and_counted(database: str) -> None:
    """`of` gives the Storage's own field for its class, and builds any other repository once;
    a game's repository given at open is counted (and moved with a chat) from the start."""
    store = await Storage.open(database, games=[SixCardRepo, OtherRepo])
    try:
        assert store.of(SixCardRepo) is store.sixcard and store.of(DuelRepo) is store.duels
        assert store.of(OtherRepo) is store.of(OtherRepo)
        assert [g.kind for g in store.games] == ["duel", "sixcard", "other"]
        balance = await store.balances.balance(-100, 5, now=1000)
        game = await store.sixcard.create(-100, None, 5, "{}", stake=10,
                                          balance_version=balance.version, now=1000)
        assert await store.live_games() == {"duel": 0, "sixcard": 1, "other": 1}
        moved = await store.move_chat(-100, -1001, now=1001)
        assert moved.live_of("sixcard") == (game.id,) and moved.live_of("other") == ()
    finally:
        await store.close()
