"""bot.storage.db under contention: another process holding the file's write lock, and this
process's own writes and transactions. Reads never wait behind a stalled write; a write that
cannot get the lock fails with StorageError after the busy timeout instead of hanging; every
guarantee of the single-connection design still holds (own writes seen inside a transaction,
nothing uncommitted seen outside it, joined tasks, atomic compare-and-swap)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiosqlite
import pytest

from bot.storage import Database, Rollback, StorageError, open_database
from bot.storage.db import numbered
from bot.storage.sqlite_calls import changes, submit

TIMEOUT = 0.6  # the busy timeout these tests open the database with, in seconds


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await open_database(
        tmp_path / "c.db",
        migrations=numbered(("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT);",)),
        busy_timeout=TIMEOUT)
    await database.execute("INSERT INTO t (k, v) VALUES (1, 'one')")
    yield database
    await database.close()


@pytest.fixture
def other_process(db: Database) -> Iterator[sqlite3.Connection]:
    """Another process's connection to the same file, holding its write lock
    (`BEGIN IMMEDIATE`) until the test commits or rolls it back."""
    raw = sqlite3.connect(db.path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    try:
        yield raw
    finally:
        if raw.in_transaction:
            raw.rollback()
        raw.close()


def committed(db: Database) -> list[tuple[int, str]]:
    """What another process would read now."""
    raw = sqlite3.connect(db.path)
    try:
        return [tuple(r) for r in raw.execute("SELECT k, v FROM t ORDER BY k")]
    finally:
        raw.close()


async def test_the_busy_timeout_is_configurable(db: Database) -> None:
    row = await db.fetchone("PRAGMA busy_timeout")
    assert row is not None and row[0] == round(TIMEOUT * 1000)


async def test_reads_go_on_while_a_write_waits_for_another_processs_lock(
        db: Database, other_process: sqlite3.Connection) -> None:
    start = time.monotonic()
    write = asyncio.create_task(db.execute("INSERT INTO t (k, v) VALUES (2, 'two')"))
    await asyncio.sleep(0.05)  # the write holds this process's writer, stalled in SQLite
    assert not write.done()
    for _ in range(20):
        rows = await db.fetchall("SELECT k, v FROM t ORDER BY k")
        assert [tuple(r) for r in rows] == [(1, "one")]
        one = await db.fetchone("SELECT v FROM t WHERE k = ?", (1,))
        assert one is not None and one["v"] == "one"
    reads_took = time.monotonic() - start
    assert reads_took < TIMEOUT / 2, f"reads waited {reads_took:.2f} s behind a stalled write"
    with pytest.raises(StorageError, match="locked"):
        await write
    failed_after = time.monotonic() - start
    assert TIMEOUT * 0.8 <= failed_after < TIMEOUT * 3, failed_after
    assert committed(db) == [(1, "one")]


async def test_writes_queued_behind_a_stalled_one_fail_within_the_timeout_too(
        db: Database, other_process: sqlite3.Connection) -> None:
    async def in_transaction(k: int) -> None:
        async with db.transaction():
            await db.execute("INSERT INTO t (k, v) VALUES (?, 'tx')", (k,))

    start = time.monotonic()
    outcomes = await asyncio.gather(
        *(db.execute("INSERT INTO t (k, v) VALUES (?, 'w')", (k,)) for k in range(10, 15)),
        *(in_transaction(k) for k in range(20, 23)),
        return_exceptions=True)
    took = time.monotonic() - start
    assert all(isinstance(o, StorageError) for o in outcomes), outcomes
    # At most the timeout waiting for the writer, then at most the timeout in SQLite: not
    # one timeout after another (eight writes would take eight timeouts).
    assert took < TIMEOUT * 2 + 0.5, took
    assert committed(db) == [(1, "one")]


async def test_a_write_still_queued_when_its_time_is_up_is_not_run(tmp_path: Path) -> None:
    """Writes queue on the writer's thread without waiting for each other's round trip; one
    that has not begun by its deadline (the busy timeout, from the call) fails as busy and is
    dropped, never run later."""
    conn = await aiosqlite.connect(tmp_path / "q.db", isolation_level=None)
    try:
        await conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        late = submit(conn, changes, "INSERT INTO t (k) VALUES (?)", (1,),
                      before=time.monotonic() - 0.001, busy=5.0)
        on_time = submit(conn, changes, "INSERT INTO t (k) VALUES (?)", (2,),
                         before=time.monotonic() + 60, busy=60.0)
        with pytest.raises(sqlite3.OperationalError, match="busy"):
            await late
        assert (await on_time)[0] == 1
        rows = await conn.execute_fetchall("SELECT k FROM t")
        assert [tuple(r) for r in rows] == [(2,)]
    finally:
        await conn.close()


async def test_a_write_outside_a_transaction_is_never_part_of_it(db: Database) -> None:
    """A transaction holds the writer: a write made meanwhile waits for its end and stays
    whatever the transaction does (here: rolled back)."""
    async def outside() -> None:
        await asyncio.sleep(0.01)  # the transaction has begun
        await db.execute("INSERT INTO t (k, v) VALUES (30, 'outside')")

    async def inside() -> None:
        with contextlib.suppress(Rollback):
            async with db.transaction():
                await db.execute("INSERT INTO t (k, v) VALUES (31, 'inside')")
                await asyncio.sleep(0.1)
                raise Rollback

    await asyncio.gather(outside(), inside())
    assert committed(db) == [(1, "one"), (30, "outside")]


async def test_once_the_other_process_lets_go_everything_works(
        db: Database, other_process: sqlite3.Connection) -> None:
    with pytest.raises(StorageError):
        await db.execute("UPDATE t SET v = 'lost' WHERE k = 1")
    other_process.execute("INSERT INTO t (k, v) VALUES (5, 'theirs')")
    other_process.execute("COMMIT")
    assert await db.execute("UPDATE t SET v = 'uno' WHERE k = 1") == 1
    async with db.transaction():
        await db.execute("INSERT INTO t (k, v) VALUES (2, 'two')")
    rows = await db.fetchall("SELECT k, v FROM t ORDER BY k")
    assert [tuple(r) for r in rows] == [(1, "uno"), (2, "two"), (5, "theirs")]
    assert committed(db) == [(1, "uno"), (2, "two"), (5, "theirs")]


async def test_a_write_that_waits_less_than_the_timeout_goes_through(
        db: Database, other_process: sqlite3.Connection) -> None:
    write = asyncio.create_task(db.execute("INSERT INTO t (k, v) VALUES (2, 'two')"))
    await asyncio.sleep(TIMEOUT / 3)
    other_process.execute("COMMIT")
    assert await write == 1
    assert committed(db) == [(1, "one"), (2, "two")]


async def test_a_transaction_sees_its_own_writes_and_others_read_on_without_waiting(
        db: Database) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()
    joined: list[list[tuple[int, str]]] = []

    async def rows() -> list[tuple[int, str]]:
        return [tuple(r) for r in await db.fetchall("SELECT k, v FROM t ORDER BY k")]

    async def writer() -> None:
        async with db.transaction():
            await db.execute("INSERT INTO t (k, v) VALUES (2, 'two')")
            assert await rows() == [(1, "one"), (2, "two")]  # its own write
            joined.append(await asyncio.create_task(rows()))  # a task started inside joins
            inside.set()
            await release.wait()

    task = asyncio.create_task(writer())
    await inside.wait()
    # Another task reads the committed state at once, not after the transaction.
    assert await asyncio.wait_for(rows(), TIMEOUT / 2) == [(1, "one")]
    release.set()
    await task
    assert joined == [[(1, "one"), (2, "two")]]
    assert await rows() == [(1, "one"), (2, "two")]


async def test_a_write_waiting_on_a_long_transaction_gives_up_after_the_timeout(
        db: Database) -> None:
    release = asyncio.Event()
    inside = asyncio.Event()

    async def long_transaction() -> None:
        async with db.transaction():
            await db.execute("UPDATE t SET v = 'busy' WHERE k = 1")
            inside.set()
            await release.wait()

    task = asyncio.create_task(long_transaction())
    await inside.wait()
    took = time.monotonic()
    with pytest.raises(StorageError, match="busy"):
        await db.execute("INSERT INTO t (k, v) VALUES (3, 'three')")
    took = time.monotonic() - took
    assert TIMEOUT * 0.8 <= took < TIMEOUT * 3, took
    release.set()
    await task
    assert committed(db) == [(1, "busy")]


async def test_compare_and_swap_stays_atomic_with_readers(db: Database) -> None:
    await db.execute("CREATE TABLE c (id INTEGER PRIMARY KEY, version INTEGER)")
    await db.execute("INSERT INTO c (id, version) VALUES (1, 0)")

    async def bump() -> bool:
        row = await db.fetchone("SELECT version FROM c WHERE id = 1")  # on a reader
        assert row is not None
        await asyncio.sleep(0)
        try:
            async with db.transaction():
                changed = await db.execute(
                    "UPDATE c SET version = version + 1 WHERE id = 1 AND version = ?",
                    (row["version"],))
                if changed != 1:
                    raise Rollback
        except Rollback:
            return False
        return True

    wins = await asyncio.gather(*(bump() for _ in range(8)))
    row = await db.fetchone("SELECT version FROM c WHERE id = 1")
    assert row is not None and row["version"] == sum(wins) >= 1


async def test_a_cancelled_begin_leaves_no_transaction_open(
        db: Database, other_process: sqlite3.Connection) -> None:
    async def transaction() -> None:
        async with db.transaction():
            await db.execute("INSERT INTO t (k, v) VALUES (7, 'never')")

    task = asyncio.create_task(transaction())
    await asyncio.sleep(0.05)  # its BEGIN IMMEDIATE waits in SQLite for the other process
    task.cancel()
    await asyncio.sleep(0.05)
    other_process.execute("ROLLBACK")  # ... which lets go: the queued BEGIN now succeeds
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.execute("INSERT INTO t (k, v) VALUES (8, 'autocommit')") == 1
    assert committed(db) == [(1, "one"), (8, "autocommit")]  # committed, not in a leftover BEGIN


async def test_reads_cannot_write(db: Database) -> None:
    with pytest.raises(StorageError, match="readonly"):
        await db.fetchone("DELETE FROM t WHERE k = 1 RETURNING k")
    assert committed(db) == [(1, "one")]


async def test_close_waits_for_reads_and_then_refuses_statements(tmp_path: Path) -> None:
    database = await open_database(tmp_path / "x.db", migrations=numbered(("CREATE TABLE t (k);",)))
    reads = [asyncio.create_task(database.fetchall("SELECT * FROM t")) for _ in range(6)]
    await asyncio.sleep(0)
    await database.close()
    assert all(r.done() and r.result() == [] for r in reads)
    with pytest.raises(StorageError, match="closed"):
        await database.fetchone("SELECT 1")
    with pytest.raises(StorageError, match="closed"):
        await database.execute("INSERT INTO t VALUES (1)")
    await database.close()  # twice is fine


async def test_an_in_memory_database_reads_through_the_writer() -> None:
    database = await open_database(":memory:", migrations=numbered(("CREATE TABLE t (k);",)))
    await database.execute("INSERT INTO t VALUES (1)")
    assert [tuple(r) for r in await database.fetchall("SELECT k FROM t")] == [(1,)]
    await database.close()


@pytest.mark.parametrize("second", ["write", "transaction"])
async def test_a_write_behind_one_stalled_on_a_held_file_waits_one_busy_timeout_not_two(
        tmp_path: Path, second: str) -> None:
    """One wait, not two (issue 37): while another process holds the file, a write (or a
    transaction's BEGIN) queued behind one that waits for it fails by its own busy timeout,
    counted from its call, not a whole busy timeout after the one before it gave up."""
    busy = 2.0
    db = await open_database(
        tmp_path / "w.db", migrations=numbered(("CREATE TABLE t (k INTEGER PRIMARY KEY);",)),
        busy_timeout=busy)
    raw = sqlite3.connect(db.path, isolation_level=None)
    raw.execute("BEGIN IMMEDIATE")
    failed: dict[str, float] = {}

    async def attempt(name: str, write: object) -> None:
        with contextlib.suppress(StorageError):
            await write  # type: ignore[misc]
            raise AssertionError(f"{name} was written while the file was held")
        failed[name] = time.monotonic()

    async def in_transaction() -> None:
        async with db.transaction():
            await db.execute("INSERT INTO t (k) VALUES (3)")

    try:
        first = asyncio.ensure_future(attempt("first", db.execute("INSERT INTO t (k) VALUES (1)")))
        await asyncio.sleep(busy / 2)
        issued = time.monotonic()
        then = (db.execute("INSERT INTO t (k) VALUES (2)") if second == "write"
                else in_transaction())
        await asyncio.gather(first, attempt("second", then))
    finally:
        raw.rollback()
        raw.close()
        await db.close()
    # Before: the second began when the first gave up, then waited a whole busy timeout.
    assert failed["second"] - failed["first"] < 0.8 * busy, failed
    assert failed["second"] - issued >= 0.9 * busy  # and it did wait its own, in full
