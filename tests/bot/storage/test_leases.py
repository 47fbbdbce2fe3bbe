"""The lease (bot.storage.locks), the poller's hold through a transaction pooler: one holder at a
time, by the database's clock, asked directly and through PgBouncer in transaction mode alike;
SQLite's file lock has no lease (tests/bot/test_instance.py)."""

from __future__ import annotations

import asyncio
import itertools
import os
import socket
import subprocess
import time
from collections.abc import AsyncIterator

import pytest

from bot.storage import HeldLock, Storage, locks

SHORT = 1.5  # seconds a lease lasts here, so that a lapse takes a test little time


async def hold(storage: Storage, name: str = "role") -> HeldLock | None:
    """The lease `name` for this storage's process (`Database.try_hold` through a pooler)."""
    return await locks.take_lease(storage.db, f"holder-{id(storage)}", name)


@pytest.fixture
async def pair(database: str, monkeypatch: pytest.MonkeyPatch
               ) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two processes' storages on one PostgreSQL database, leases of `SHORT` seconds (each
    taken by `hold` as that process's poller would through a pooler)."""
    monkeypatch.setattr(locks, "LEASE", SHORT)
    one = await Storage.open(database)
    if one.engine == "sqlite":
        await one.close()
        pytest.skip("SQLite's is the file lock of bot.instance (tests/bot/test_instance.py)")
    two = await Storage.open(database)
    try:
        yield one, two
    finally:
        await one.close()
        await two.close()


async def test_a_renewed_lease_is_never_taken(pair: tuple[Storage, Storage]) -> None:
    one, two = pair
    held = await hold(one)
    assert held is not None
    until = time.monotonic() + 3 * SHORT
    while time.monotonic() < until:  # two lease lengths and more, renewed as the poller does
        assert await held.alive()
        assert await hold(two) is None
        await asyncio.sleep(SHORT / 4)
    await held.release()
    assert not await held.alive()
    taken = await hold(two)  # released: taken at once
    assert taken is not None
    await taken.release()


async def test_a_lapsed_lease_is_taken_over_and_its_holder_has_stepped_down(
        pair: tuple[Storage, Storage]) -> None:
    one, two = pair
    taken_at = time.monotonic()
    held = await hold(one)  # then never renewed: a kill -9, a network cut
    assert held is not None
    successor: HeldLock | None = None
    while successor is None:
        assert time.monotonic() - taken_at < SHORT + 5, "the lapsed lease was never taken"
        successor = await hold(two)
        if successor is None:
            await asyncio.sleep(0.05)
    took = time.monotonic() - taken_at
    assert took >= SHORT - 0.2  # by the database's clock, not before it lapsed
    # The old holder has given up by itself: it knows its lease ended by now, and a late
    # renewal cannot take it back.
    assert not await held.alive()
    assert await successor.alive()
    assert await hold(one) is None
    await held.release()  # gives up nothing of the successor's
    assert await successor.alive()
    await successor.release()


async def test_two_contenders_never_hold_at_once(pair: tuple[Storage, Storage]) -> None:
    """Each takes the lease, renews it, and now and then stalls past its length (as a leader cut
    off or frozen would); the spans in which each knew it held (from its take's answer to the
    sending of its last confirmed renewal) never overlap, and both lead in turn."""
    spans: list[tuple[float, float, str]] = []

    async def contend(storage: Storage, who: str, stall_every: int) -> None:
        end = time.monotonic() + 5 * SHORT
        while time.monotonic() < end:
            held = await hold(storage)
            if held is None:
                await asyncio.sleep(0.05)
                continue
            start = last = time.monotonic()
            for n in itertools.count(1):
                await asyncio.sleep(SHORT * 1.3 if n % stall_every == 0 else SHORT / 5)
                sent = time.monotonic()
                if not await held.alive():
                    break
                last = sent
            spans.append((start, last, who))
            await held.release()

    one, two = pair
    await asyncio.gather(contend(one, "one", 3), contend(two, "two", 4))
    spans.sort()
    assert {w for _, _, w in spans} == {"one", "two"}, spans
    for (_, end, _), (start, _, _) in itertools.pairwise(spans):
        assert end < start, spans


async def test_a_holder_cut_off_steps_down_before_its_lease_lapses(
        pair: tuple[Storage, Storage], monkeypatch: pytest.MonkeyPatch) -> None:
    """Its renewals hang (a network cut): `alive()` says False before the lease's end as the
    database counts it, so the successor, who waits for that end, never overlaps it."""
    one, two = pair
    sent = time.monotonic()
    held = await hold(one)
    assert held is not None
    assert await held.alive()
    renewed = time.monotonic()

    async def cut_off(*_: object) -> int:
        await asyncio.sleep(3600)
        return 0

    monkeypatch.setattr(one.db, "execute", cut_off)
    while await held.alive():
        await asyncio.sleep(0.05)
    stepped_down = time.monotonic()
    assert stepped_down <= renewed + SHORT - locks.MARGIN + 0.1
    assert await hold(two) is None  # the database ends it only later: a margin, no overlap
    while (successor := await hold(two)) is None:
        assert time.monotonic() - sent < SHORT + 5, "the lapsed lease was never taken"
        await asyncio.sleep(0.05)
    assert time.monotonic() - renewed >= SHORT - 0.2
    await successor.release()


async def test_a_dead_process_of_this_machine_is_taken_over_at_once(
        pair: tuple[Storage, Storage]) -> None:
    """A kill -9 and the same worker started again on this machine: the lease of the dead one
    is taken at once, as its inbox updates are (bot.instance.dead_here), not after its lapse;
    a live process's of this machine, or another machine's, waits for its lapse."""
    one, two = pair
    gone = f"{socket.gethostname()}/{_ended_pid()}/abc123"
    other = f"elsewhere.example/{os.getpid()}/aaa111"
    assert await locks.take_lease(one.db, other, "role") is not None
    assert await locks.take_lease(two.db, "me/1/x", "role") is None  # another machine's: waits
    await one.db.execute("UPDATE leases SET holder = ? WHERE name = 'role'", (gone,))
    taken = await locks.take_lease(two.db, f"{socket.gethostname()}/{os.getpid()}/me", "role")
    assert taken is not None  # the dead one's, at once
    await one.db.execute("UPDATE leases SET holder = ? WHERE name = 'role'",
                         (f"{socket.gethostname()}/{os.getppid()}/live01",))
    assert await locks.take_lease(one.db, "me/2/y", "role") is None  # a live process's: waits


def _ended_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid
