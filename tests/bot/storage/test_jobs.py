"""Due rows (bot.storage.jobs) on both engines: arming, claiming, leases, and finishing only
the row as it was claimed."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage
from bot.storage.jobs import OVERDUE

T = 1_700_000_000.0
LEASE = 30.0


async def test_a_row_is_claimed_once_due_and_finished(store: Storage) -> None:
    jobs = store.jobs
    assert await jobs.schedule("k", "1", T + 10, {"version": 3})
    assert await jobs.next_due() == T + 10
    assert await jobs.claim("w1", T + 9, LEASE, 10) == []  # not yet due
    [job] = await jobs.claim("w1", T + 10, LEASE, 10)
    assert (job.kind, job.key, job.data, job.owner, job.lease_until) == (
        "k", "1", {"version": 3}, "w1", T + 10 + LEASE)
    assert await jobs.claim("w2", T + 11, LEASE, 10) == []  # held
    assert await jobs.finish(job)
    assert await jobs.get("k", "1") is None and await jobs.next_due() is None


async def test_claims_oldest_first_up_to_the_limit(store: Storage) -> None:
    for n, due in enumerate((T + 3, T + 1, T + 2, T + 50)):
        await store.jobs.schedule("k", str(n), due)
    first = await store.jobs.claim("w", T + 5, LEASE, 2)
    assert [j.key for j in first] == ["1", "2"]
    rest = await store.jobs.claim("w", T + 5, LEASE, 10)
    assert [j.key for j in rest] == ["0"]


async def test_re_arming_replaces_the_row_and_its_lease(store: Storage) -> None:
    jobs = store.jobs
    await jobs.schedule("k", "1", T, {"v": 1})
    [old] = await jobs.claim("w1", T, LEASE, 10)
    await jobs.schedule("k", "1", T + 5, {"v": 2})  # re-armed while the old claim runs
    again = await jobs.get("k", "1")
    assert again is not None and again.owner is None and again.data == {"v": 2}
    assert again.generation != old.generation
    assert not await jobs.finish(old)  # the old claim's finish leaves the re-armed row
    assert not await jobs.retry(old, T + 100)
    assert not await jobs.renew(old, T + 100)
    kept = await jobs.get("k", "1")
    assert kept is not None and kept.due_at == T + 5 and kept.attempts == 0
    [new] = await jobs.claim("w2", T + 5, LEASE, 10)
    assert new.data == {"v": 2} and await jobs.finish(new)


async def test_sooner_only_keeps_a_row_due_sooner(store: Storage) -> None:
    jobs = store.jobs
    assert await jobs.schedule("tick", "all", T + 10, sooner_only=True)  # new: written
    assert not await jobs.schedule("tick", "all", T + 20, sooner_only=True)
    assert (await jobs.next_due()) == T + 10
    assert await jobs.schedule("tick", "all", T + 5, sooner_only=True)
    assert (await jobs.next_due()) == T + 5


async def test_a_dead_owners_row_is_taken_after_its_lease(store: Storage) -> None:
    jobs = store.jobs
    await jobs.schedule("k", "1", T)
    [dead] = await jobs.claim("dead", T, LEASE, 10)
    assert await jobs.next_due() == T + LEASE  # the lease's end: someone should look then
    assert await jobs.claim("live", T + LEASE - 1, LEASE, 10) == []
    [taken] = await jobs.claim("live", T + LEASE, LEASE, 10)
    assert taken.owner == "live" and taken.generation == dead.generation
    assert not await jobs.finish(dead)  # the dead one's late finish is not the taker's
    assert await jobs.finish(taken)


async def test_renewing_keeps_the_row_held(store: Storage) -> None:
    jobs = store.jobs
    await jobs.schedule("k", "1", T)
    [job] = await jobs.claim("w1", T, LEASE, 10)
    assert await jobs.renew(job, T + 2 * LEASE)
    assert await jobs.claim("w2", T + LEASE + 1, LEASE, 10) == []


async def test_retry_counts_a_failure_and_frees_the_row(store: Storage) -> None:
    jobs = store.jobs
    await jobs.schedule("k", "1", T, [1, "a"])
    [job] = await jobs.claim("w1", T, LEASE, 10)
    assert await jobs.retry(job, T + 4)
    assert await jobs.claim("w2", T + 3, LEASE, 10) == []
    [again] = await jobs.claim("w2", T + 4, LEASE, 10)
    assert again.attempts == 1 and again.data == [1, "a"] and again.owner == "w2"


async def test_release_and_cancel(store: Storage) -> None:
    jobs = store.jobs
    await jobs.schedule("k", "1", T)
    await jobs.schedule("k", "2", T)
    a, b = await jobs.claim("w1", T, LEASE, 10)
    assert await jobs.release(a)
    assert [j.key for j in await jobs.claim("w2", T, LEASE, 10)] == [a.key]
    assert await jobs.release_all() == 2
    assert await jobs.cancel("k", b.key) and not await jobs.cancel("k", b.key)
    assert [j.key for j in await jobs.claim("w3", T, LEASE, 10)] == [a.key]


async def test_counts_waiting_rows_due_and_overdue(store: Storage) -> None:
    jobs = store.jobs
    now = T + 1000
    await jobs.schedule("k", "late", now - OVERDUE - 1)
    await jobs.schedule("k", "due", now - 1)
    await jobs.schedule("k", "later", now + 60)
    await jobs.schedule("k", "held", now - OVERDUE - 5)
    await jobs.claim("w", now - OVERDUE - 2, LEASE * 10, 1)  # takes "held", the oldest
    counts = await jobs.counts(now)
    assert (counts.due, counts.overdue) == (2, 1)


async def test_concurrent_claims_in_one_process_never_share_a_row(store: Storage) -> None:
    for n in range(20):
        await store.jobs.schedule("k", str(n), T)
    batches = await asyncio.gather(*(store.jobs.claim(f"w{i}", T, LEASE, 3) for i in range(8)))
    keys = [j.key for batch in batches for j in batch]
    assert sorted(keys, key=int) == [str(n) for n in range(20)]


async def test_claims_from_several_processes_at_once_take_disjoint_rows(database: str) -> None:
    if not database.startswith("postgresql"):
        pytest.skip("several processes share a database only on PostgreSQL")
    stores = [await Storage.open(database) for _ in range(3)]
    try:
        for n in range(90):
            await stores[0].jobs.schedule("k", str(n), T)
        taken: list[str] = []
        for _ in range(90):  # rounds of three claims at the same moment, one per process
            batches = await asyncio.gather(*(s.jobs.claim(f"w{i}", T, LEASE, 4)
                                             for i, s in enumerate(stores)))
            taken += [j.key for batch in batches for j in batch]
            if not any(batches):
                break
        assert len(taken) == len(set(taken)) == 90
    finally:
        for s in stores:
            await s.close()
