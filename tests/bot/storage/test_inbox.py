"""The inbox on both engines: saved once, claimed by one owner, taken over after its lease."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Incoming, Storage
from bot.storage.inbox import KEEP_DONE


def batch(*ids: int) -> list[Incoming]:
    return [Incoming(i, f'{{"update_id": {i}}}') for i in ids]


async def test_a_second_delivery_of_an_update_is_not_new(store: Storage) -> None:
    assert await store.inbox.save(batch(1, 2), owner="a", now=0, lease_until=10) == {1, 2}
    assert await store.inbox.save(batch(2, 3), owner="b", now=1, lease_until=11) == {3}
    assert await store.inbox.pending() == 3
    assert await store.inbox.last_id() == 3


async def test_only_expired_leases_are_taken_oldest_first(store: Storage) -> None:
    await store.inbox.save(batch(5, 4), owner="dead", now=0, lease_until=10)
    await store.inbox.save(batch(6), owner="alive", now=0, lease_until=30)
    assert await store.inbox.take_stale("me", before=9, lease_until=40) == []
    taken = await store.inbox.take_stale("me", before=20, lease_until=40)
    assert [u.update_id for u in taken] == [4, 5]
    assert taken[0].body == '{"update_id": 4}'
    # Now mine until 40: nobody else takes them before then.
    assert await store.inbox.take_stale("other", before=29, lease_until=50) == []


async def test_handled_updates_are_never_taken_and_renewal_keeps_them(store: Storage) -> None:
    await store.inbox.save(batch(1, 2), owner="me", now=0, lease_until=10)
    await store.inbox.done(1, now=5)
    assert await store.inbox.renew("me", lease_until=100) == 1  # only 2 is still in hand
    assert await store.inbox.take_stale("other", before=50, lease_until=60) == []
    assert [u.update_id for u in await store.inbox.take_stale(
        "other", before=101, lease_until=200)] == [2]
    assert await store.inbox.pending() == 1


async def test_pruning_keeps_the_newest_row(store: Storage) -> None:
    await store.inbox.save(batch(1, 2, 3), owner="me", now=0, lease_until=10)
    for i in (1, 2, 3):
        await store.inbox.done(i, now=1)
    assert await store.inbox.prune(now=1 + KEEP_DONE / 2) == 0
    assert await store.inbox.prune(now=2 + KEEP_DONE) == 2
    assert await store.inbox.last_id() == 3  # where long polling goes on
    assert await store.inbox.save(batch(3), owner="me", now=3, lease_until=4) == set()


async def test_two_workers_never_take_the_same_update(database: str) -> None:
    one, two = await Storage.open(database), await Storage.open(database)
    try:
        await one.inbox.save(batch(*range(1, 41)), owner="dead", now=0, lease_until=1)
        takes = await asyncio.gather(*(
            s.inbox.take_stale(name, before=5, lease_until=100, limit=7)
            for _ in range(4) for s, name in ((one, "one"), (two, "two"))))
        ids = [u.update_id for t in takes for u in t]
        assert len(ids) == len(set(ids)) == 40
    finally:
        await one.close()
        await two.close()


async def test_a_lock_is_held_by_one_process_until_it_ends(database: str) -> None:
    one, two = await Storage.open(database), await Storage.open(database)
    try:
        first = await one.db.try_hold("test-lock")
        assert first is not None and await first.alive()
        second = await two.db.try_hold("test-lock")
        if one.engine == "sqlite":  # one process by the file lock: nothing to contend
            assert second is not None
            return
        assert second is None
        other = await two.db.try_hold("another-lock")
        assert other is not None
        await other.release()
        await first.release()
        assert not await first.alive()
        taken = await two.db.try_hold("test-lock")
        assert taken is not None
        await taken.release()
    finally:
        await one.close()
        await two.close()


@pytest.mark.parametrize("how", ["terminate"])
async def test_a_lock_ends_with_its_connection(database: str, how: str) -> None:
    one = await Storage.open(database)
    try:
        if one.engine == "sqlite":
            pytest.skip("SQLite's is the file lock of bot.instance (tests/bot/test_instance.py)")
        if "pooler=" in database:
            pytest.skip("through a pooler it is a lease, not a connection (test_leases.py)")
        held = await one.db.try_hold("lost")
        assert held is not None
        held._conn.terminate()  # type: ignore[attr-defined]  # as a kill -9 would
        assert not await held.alive()
        again = await one.db.try_hold("lost")
        assert again is not None
        await again.release()
    finally:
        await one.close()
