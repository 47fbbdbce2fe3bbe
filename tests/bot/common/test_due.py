"""The due-row scheduler (bot.common.due) on both engines, with real loops and short delays:
rows run once when due, failures are retried, leases are renewed and taken over, and two
schedulers over one PostgreSQL database share the rows without running one twice."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

import pytest

from bot.common import due
from bot.storage import DueJob, Storage, StorageError
from bot.telegram import App

APP = cast(App, object())
FAST = (0.01, 0.05)  # backoff: first wait, longest


async def until(done: Callable[[], bool], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not done():
            await asyncio.sleep(0.01)


def scheduler(store: Storage, handlers: dict[str, due.Handler], **kw: Any) -> due.Scheduler:
    kw.setdefault("backoff", FAST)
    return due.Scheduler(APP, store.jobs, can=store.can, handlers=handlers, **kw)


@pytest.fixture
async def running(store: Storage) -> AsyncIterator[list[due.Scheduler]]:
    """Schedulers a test starts, stopped at its end."""
    started: list[due.Scheduler] = []
    yield started
    for s in started:
        await s.stop(grace=0.1)


async def test_a_row_runs_when_due_and_is_crossed_off(
        store: Storage, running: list[due.Scheduler]) -> None:
    seen: list[tuple[Any, str, Any, float]] = []

    async def handler(app: App, key: str, data: Any) -> None:
        seen.append((app, key, data, time.time()))

    s = scheduler(store, {"k": handler})
    await s.start()
    running.append(s)
    armed = time.time()
    await s.later("k", "7", 0.2, {"version": 4})
    await until(lambda: bool(seen))
    await s.idle()
    [(app, key, data, at)] = seen
    assert (app, key, data) == (APP, "7", {"version": 4}) and at >= armed + 0.2
    assert await store.jobs.get("k", "7") is None


async def test_re_arming_wakes_the_loop_sooner_and_replaces_the_row(
        store: Storage, running: list[due.Scheduler]) -> None:
    seen: list[Any] = []

    async def handler(app: App, key: str, data: Any) -> None:
        seen.append(data)

    s = scheduler(store, {"k": handler})
    await s.start()
    running.append(s)
    await s.later("k", "1", 3600.0, "late")  # the loop now sleeps long (SQLite: until then)
    await asyncio.sleep(0.05)
    await s.later("k", "1", 0.0, "now")
    await until(lambda: bool(seen))
    assert seen == ["now"]


async def test_a_repeating_job_arms_its_next_row_before_it_finishes(
        store: Storage, running: list[due.Scheduler]) -> None:
    runs: list[str] = []
    s: due.Scheduler

    async def tick(app: App, key: str, data: Any) -> None:
        runs.append(key)
        if len(runs) < 3:
            await s.later("tick", key, 0.01)  # the next one, before this one is done

    s = scheduler(store, {"tick": tick})
    await s.start()
    running.append(s)
    await s.later("tick", "all", 0.0)
    await until(lambda: len(runs) == 3)
    await s.idle()
    await asyncio.sleep(0.1)
    assert runs == ["all"] * 3 and await store.jobs.get("tick", "all") is None


async def test_a_failing_handler_is_retried_with_backoff(
        store: Storage, running: list[due.Scheduler]) -> None:
    tries: list[float] = []

    async def flaky(app: App, key: str, data: Any) -> None:
        tries.append(time.time())
        if len(tries) < 3:
            raise RuntimeError("not yet")

    s = scheduler(store, {"k": flaky})
    await s.start()
    running.append(s)
    await s.later("k", "1", 0.0)
    await until(lambda: len(tries) == 3)
    await s.idle()
    assert tries[1] - tries[0] >= FAST[0] and tries[2] - tries[1] >= 2 * FAST[0]
    assert await store.jobs.get("k", "1") is None


async def test_a_kind_without_a_handler_waits_rather_than_being_lost(
        store: Storage, running: list[due.Scheduler]) -> None:
    s = scheduler(store, {})
    await s.start()
    running.append(s)
    await s.later("unknown", "1", 0.0)

    async def attempts() -> int:
        job = await store.jobs.get("unknown", "1")
        assert job is not None
        return job.attempts

    async with asyncio.timeout(20):
        while await attempts() < 2:
            await asyncio.sleep(0.02)


async def test_a_long_job_keeps_its_lease(store: Storage, running: list[due.Scheduler]) -> None:
    release, started = asyncio.Event(), asyncio.Event()

    async def slow(app: App, key: str, data: Any) -> None:
        started.set()
        await release.wait()

    s = scheduler(store, {"k": slow}, lease=0.3)
    await s.start()
    running.append(s)
    await s.later("k", "1", 0.0)
    await started.wait()
    await asyncio.sleep(0.9)  # three leases: renewed every 0.1 s meanwhile
    assert await store.jobs.claim("other", time.time(), 30.0, 10) == []
    release.set()
    await s.idle()
    assert await store.jobs.get("k", "1") is None


async def test_a_dead_owners_row_is_run_by_a_live_worker(
        store: Storage, running: list[due.Scheduler]) -> None:
    seen: list[float] = []

    async def handler(app: App, key: str, data: Any) -> None:
        seen.append(time.time())

    await store.jobs.schedule("k", "1", time.time())
    [held] = await store.jobs.claim("dead worker", time.time(), 0.5, 10)  # then it died
    s = scheduler(store, {"k": handler})
    await s.start()  # SQLite: a start frees the dead run's leases; PostgreSQL: the lease ends
    running.append(s)
    await until(lambda: bool(seen))
    assert held.lease_until is not None
    if store.engine == "postgresql":
        assert seen[0] >= held.lease_until
    await s.idle()
    assert len(seen) == 1


async def test_stop_cancels_a_hanging_handler_and_frees_its_row(store: Storage) -> None:
    started = asyncio.Event()

    async def hang(app: App, key: str, data: Any) -> None:
        started.set()
        await asyncio.Event().wait()

    s = scheduler(store, {"k": hang})
    await s.start()
    await s.later("k", "1", 0.0)
    await started.wait()
    await s.stop(grace=0.05)
    job = await store.jobs.get("k", "1")
    assert job is not None and job.owner is None and job.attempts == 0


async def test_two_schedulers_on_one_postgres_run_each_row_once(database: str) -> None:
    if not database.startswith("postgresql"):
        pytest.skip("several processes share a database only on PostgreSQL")
    stores = [await Storage.open(database) for _ in range(2)]
    runs: Counter[str] = Counter()
    by: dict[str, set[int]] = {}

    def handler_of(n: int) -> Callable[[App, str, Any], Awaitable[None]]:
        async def handler(app: App, key: str, data: Any) -> None:
            runs[key] += 1
            by.setdefault(key, set()).add(n)
            await asyncio.sleep(0.02)  # long enough for the other to try the same rows
        return handler

    schedulers = [scheduler(st, {"k": handler_of(n)}, slots=4, poll=0.05)
                  for n, st in enumerate(stores)]
    try:
        now = time.time()
        for i in range(60):
            await stores[i % 2].jobs.schedule("k", str(i), now + (i % 6) * 0.05)
        for s in schedulers:
            await s.start()
        await until(lambda: len(runs) == 60)
        for s in schedulers:
            await s.idle()
        await asyncio.sleep(0.2)  # anything run twice would show by now
        assert set(runs.values()) == {1}
        assert all(len(workers) == 1 for workers in by.values())
        assert {n for workers in by.values() for n in workers} == {0, 1}  # both took a share
        assert await stores[0].jobs.next_due() is None
    finally:
        for s in schedulers:
            await s.stop(grace=0.1)
        for st in stores:
            await st.close()


async def test_the_loop_outlives_a_database_that_is_away(
        store: Storage, running: list[due.Scheduler], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(due, "RETRY_CLAIM", 0.05)
    claim, failures = store.jobs.claim, [StorageError("database 'x': gone"), RuntimeError("a bug")]

    async def flaky_claim(*args: Any) -> list[DueJob]:
        if failures:
            raise failures.pop(0)
        return await claim(*args)

    monkeypatch.setattr(store.jobs, "claim", flaky_claim)
    seen: list[str] = []

    async def handler(app: App, key: str, data: Any) -> None:
        seen.append(key)

    s = scheduler(store, {"k": handler})
    await s.later("k", "1", 0.0)
    await s.start()
    running.append(s)
    await until(lambda: bool(seen))
    assert seen == ["1"] and not failures


async def test_a_start_frees_the_rows_of_this_machines_dead_runs_at_once(
        store: Storage, running: list[due.Scheduler]) -> None:
    gone = await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")
    await gone.wait()
    here = socket.gethostname()
    elsewhere = f"{here}-other/{os.getpid()}/a"
    dead = [f"{here}/{os.getpid()}/earlier", f"{here}/{gone.pid}/b"]
    for n, owner in enumerate([*dead, elsewhere]):
        await store.jobs.schedule("k", str(n), time.time())
        await store.jobs.claim(owner, time.time(), 3600.0, 1)  # held for an hour
    seen: list[str] = []

    async def handler(app: App, key: str, data: Any) -> None:
        seen.append(key)

    s = scheduler(store, {"k": handler})
    await s.start()
    running.append(s)
    await until(lambda: len(seen) >= 2)
    await s.idle()
    if store.engine == "postgresql":  # another machine's row waits for its lease
        assert sorted(seen) == ["0", "1"] and await store.jobs.owners() == [elsewhere]
    else:  # SQLite: one process, any holder was this bot's dead run
        await until(lambda: len(seen) == 3)
