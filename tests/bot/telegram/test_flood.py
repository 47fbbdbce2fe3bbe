"""The flood window: at most `limit` calls in ANY `span` seconds (Telegram's rule), not a
bucket that lets a burst through and then one call every span/limit seconds; a hold from a
429 lets nothing through until it ends. The same for the window in memory and the one in the
database (on each engine), which several workers share."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from bot.storage import Storage, StorageError
from bot.telegram.flood import DatabaseWindow, MemoryWindow, Take, Window

MakeWindow = Callable[["Clock"], Window]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["memory", "database"])
async def make(request: pytest.FixtureRequest, database: str) -> AsyncIterator[MakeWindow]:
    """Windows of one kind: in memory, or in the database (sqlite and postgresql)."""
    if request.param == "memory":
        if "postgresql" in request.node.callspec.id:
            pytest.skip("the memory window runs once")
        yield MemoryWindow
        return
    store = await Storage.open(database)
    yield lambda clock: DatabaseWindow(store.flood, clock)
    await store.close()


async def test_a_full_window_frees_only_as_its_oldest_calls_age_out(make: MakeWindow) -> None:
    clock = Clock()
    window = make(clock)
    for _ in range(20):
        assert await window.take("g", 20, 60) == 0.0
    assert await window.take("g", 20, 60) == pytest.approx(60)
    clock.now += 3  # a bucket of 20 a minute would have one call for it now; the window none
    assert await window.take("g", 20, 60) == pytest.approx(57)
    assert await window.free("g", 20, 60) == 0
    clock.now += 57
    assert await window.free("g", 20, 60) == 20  # all twenty aged out together
    assert await window.take("g", 20, 60) == 0.0


async def test_calls_spread_out_free_one_by_one(make: MakeWindow) -> None:
    clock = Clock()
    window = make(clock)
    for _ in range(3):
        assert await window.take("g", 3, 60) == 0.0
        clock.now += 10
    assert await window.take("g", 3, 60) == pytest.approx(30)  # the first's minute ends at 60
    clock.now += 30
    assert await window.take("g", 3, 60) == 0.0
    assert await window.take("g", 3, 60) == pytest.approx(10)  # then the second's


async def test_keys_are_counted_apart(make: MakeWindow) -> None:
    window = make(Clock())
    assert await window.take("a", 1, 60) == 0.0
    assert await window.take("a", 1, 60) > 0
    assert await window.take("b", 1, 60) == 0.0


async def test_a_hold_lets_nothing_through_until_it_ends(make: MakeWindow) -> None:
    clock = Clock()
    window = make(clock)
    await window.hold("g", 30)
    assert await window.held("g") == pytest.approx(30)
    assert await window.take("g", 20, 60) == pytest.approx(30)
    assert await window.free("g", 20, 60) == 0
    await window.hold("g", 5)  # a shorter one does not shorten it
    clock.now += 29.9
    assert await window.take("g", 20, 60) > 0
    clock.now += 0.2
    assert await window.held("g") == 0.0
    assert await window.take("g", 20, 60) == 0.0
    assert await window.held("other") == 0.0


async def test_take_all_counts_every_key_or_none(make: MakeWindow) -> None:
    clock = Clock()
    window = make(clock)
    both = [Take("bot", 5, 1), Take("g", 2, 60)]
    assert await window.take_all(both) == 0.0
    assert await window.take_all(both) == 0.0
    assert await window.take_all(both) == pytest.approx(60)  # the group is full...
    assert await window.free("bot", 5, 1) == 3  # ...so the bot's place was not taken
    await window.hold("private", 7)
    assert await window.take_all([Take("bot", 5, 1)], held=["private"]) == pytest.approx(7)
    assert await window.free("bot", 5, 1) == 3
    clock.now += 7
    assert await window.take_all([Take("bot", 5, 1)], held=["private"]) == 0.0


async def test_the_database_window_forgets_idle_keys_now_and_then(store: Storage) -> None:
    clock = Clock()
    window = DatabaseWindow(store.flood, clock)
    assert await window.take("g", 20, 60) == 0.0
    await window.hold("held", 1000)
    clock.now += 601  # past PRUNE_EVERY: the next take prunes keys idle for IDLE seconds
    assert await window.take("other", 20, 60) == 0.0
    rows = await store.db.fetchall("SELECT key FROM flood_windows ORDER BY key")
    assert [r["key"] for r in rows] == ["held", "other"]  # the hold still runs: kept


class Broken:
    """A FloodRepo whose database cannot be reached."""

    async def change(self, *args: object, **kwargs: object) -> float:
        raise StorageError("database 'x': ConnectionRefusedError")

    read = hold = prune = change


async def test_without_its_database_the_window_paces_this_process_alone(
        caplog: pytest.LogCaptureFixture) -> None:
    window = DatabaseWindow(Broken(), Clock())  # type: ignore[arg-type]
    for _ in range(3):
        assert await window.take("g", 3, 60) == 0.0
    assert await window.take("g", 3, 60) > 0
    await window.hold("g", 30)
    assert await window.held("g") == pytest.approx(30)
    assert [r.message for r in caplog.records].count(
        "flood budget: the database cannot be reached (StorageError); pacing this process "
        "alone until it can") == 1


# --- several workers on one PostgreSQL database -------------------------------------------

@pytest.fixture
async def workers(database: str) -> AsyncIterator[list[Storage]]:
    """Three workers' storages on one database (PostgreSQL only: SQLite has one bot)."""
    if not database.startswith("postgresql"):
        pytest.skip("several workers share PostgreSQL")
    stores = [await Storage.open(database) for _ in range(3)]
    yield stores
    for s in stores:
        await s.close()


async def test_three_workers_take_at_most_the_limit_together(workers: list[Storage]) -> None:
    clock = Clock()
    windows = [DatabaseWindow(s.flood, clock) for s in workers]
    both = [Take("bot", 1000, 1.15), Take("chat:-5", 20, 60.15)]

    async def worker(window: DatabaseWindow) -> int:
        return sum([await window.take_all(both) == 0.0 for _ in range(15)])

    taken = await asyncio.gather(*(worker(w) for w in windows))
    assert sum(taken) == 20, taken  # 45 tried, at once
    assert await windows[0].free("chat:-5", 20, 60.15) == 0
    assert await windows[1].free("bot", 1000, 1.15) == 980  # none counted for the refused
    clock.now += 60.2
    assert await windows[2].take("chat:-5", 20, 60.15) == 0.0


async def test_a_hold_one_worker_got_holds_every_worker(workers: list[Storage]) -> None:
    clock = Clock()
    a, b, c = (DatabaseWindow(s.flood, clock) for s in workers)
    await a.hold("chat:-5", 30)
    await c.hold("chat:-5", 10)  # a shorter one does not shorten it
    assert await b.held("chat:-5") == pytest.approx(30)
    assert await b.take("chat:-5", 20, 60) == pytest.approx(30)
    assert await c.free("chat:-5", 20, 60) == 0
    clock.now += 30
    assert await b.take("chat:-5", 20, 60) == 0.0
