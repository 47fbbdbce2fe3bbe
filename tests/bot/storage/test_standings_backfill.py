"""The kept standings of an older database (bot.storage.standings.backfill, after V19): filled
in batches, each with its cursor in one transaction, so a bot stopped halfway goes on where it
stopped, and workers opening the database together fill each batch once, all to the rows the
results' saves would have kept."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import DuelResult, DuelStatus, ResultReason, Storage
from bot.storage import standings as kept

CHATS = (-300, -200, -100)
T0 = 1_767_000_000
KEPT = ("standings", "rivalries", "rating_points")


async def play(store: Storage) -> int:
    """A few chats' duels, through the saves that finish them; how many."""
    n = 0
    for i in range(36):
        chat = CHATS[i % 3] if i < 30 else CHATS[0]  # the first chat bigger than a batch
        players = (1 + i % 4, 1 + (i * 7 + 1) % 5)
        if players[0] == players[1]:
            players = (players[0], 6)
        record = await store.duels.create(chat, None, players, "v0", T0 + i * 86_400)
        winner = None if i % 5 == 0 else players[i % 2]
        r = DuelResult(duel_id=record.id, chat_id=chat, players=players,
                       final_stacks=(40 + i % 20, 60 - i % 20), start_stack=50,
                       winner_id=winner, reason=ResultReason.NORMAL, best_hands=(i, None),
                       bonus_chips=(i % 3, 0), bullets=6, finished_at=T0 + i * 86_400)
        assert await store.duels.save(record.id, 0, "end", DuelStatus.FINISHED,
                                      now=r.finished_at, result=r) == 1
        n += 1
    return n


async def rows(store: Storage) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(tuple(r[c] for c in r.keys()) for r in  # noqa: SIM118
                      await store.db.fetchall(f"SELECT * FROM {t}")) for t in KEPT}


async def as_before_v18(store: Storage) -> None:
    for table in KEPT:
        await store.db.execute(f"DELETE FROM {table}")
    await store.meta.set(kept.BACKFILL, "")


@pytest.fixture
def small_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(kept, "BATCH", 7)
    monkeypatch.setattr(kept, "USERS", 2)


@pytest.mark.usefixtures("small_batches")
async def test_a_backfill_stopped_halfway_goes_on_from_its_cursor(
        store: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    played = await play(store)
    expected = await rows(store)
    await as_before_v18(store)
    chats_after, calls = kept._chats_after, []

    async def stopped(db: object, after: int) -> tuple[int, int]:
        calls.append(after)
        if len(calls) == 3:
            raise KeyboardInterrupt  # the bot stopped in the middle of a batch
        return await chats_after(store.db, after)

    monkeypatch.setattr(kept, "_chats_after", stopped)
    with pytest.raises(KeyboardInterrupt):
        await kept.backfill(store.db)
    cursor = await store.meta.get(kept.BACKFILL)
    assert cursor is not None and cursor.startswith("chats:")  # two batches done, kept
    done = int(cursor.partition(":")[2])
    monkeypatch.setattr(kept, "_chats_after", chats_after)
    resumed = await kept.backfill(store.db)
    assert 0 < resumed < played  # only what was left
    assert await rows(store) == expected
    assert await store.meta.get(kept.BACKFILL) is None
    assert done in CHATS


@pytest.mark.usefixtures("small_batches")
async def test_workers_opening_together_fill_each_batch_once(store: Storage,
                                                             database: str) -> None:
    played = await play(store)
    expected = await rows(store)
    others = [await Storage.open(database) for _ in range(2)]  # three workers
    try:
        await as_before_v18(store)
        done = await asyncio.gather(*(kept.backfill(s.db) for s in (store, *others)))
        assert sum(done) == played  # every result replayed by exactly one of them
        assert await rows(store) == expected
    finally:
        for other in others:
            await other.close()
