"""bot.storage.sqlite_calls: a statement runs on the loop only while nothing of its connection
is in the connection's thread, and the WAL is checkpointed off the loop, so it stays small."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

from bot.storage import Database
from bot.storage.db import numbered
from bot.storage.sqlite_calls import CHECKPOINT_EVERY, Seat, connect_to


async def test_after_a_cancelled_call_in_the_thread_the_next_call_waits_behind_it(
        tmp_path: Path) -> None:
    conn = await connect_to(str(tmp_path / "s.db"))
    seat = Seat(conn, 1000)
    await seat.open_here()
    release = threading.Event()
    ran: list[tuple[str, int]] = []

    def slow(c: sqlite3.Connection, sql: str, params: object) -> None:
        release.wait(5)
        ran.append(("slow", threading.get_ident()))

    def quick(c: sqlite3.Connection, sql: str, params: object) -> None:
        ran.append(("quick", threading.get_ident()))

    try:
        await seat.call(quick, "", ())  # nothing in the thread: on the loop
        assert ran == [("quick", threading.get_ident())]
        ran.clear()
        waiting = asyncio.create_task(seat.in_thread(slow, "", ()))
        await asyncio.sleep(0.05)
        waiting.cancel()  # its caller gone, `slow` still runs in the thread
        later = asyncio.create_task(seat.call(quick, "", ()))
        await asyncio.sleep(0.05)
        assert ran == [] and not later.done()  # not beside `slow`: behind it
        release.set()
        await later
        (first, in_thread), (second, then) = ran
        assert (first, second) == ("slow", "quick")
        assert in_thread == then != threading.get_ident()
        ran.clear()
        await seat.call(quick, "", ())  # the thread is free again: on the loop
        assert ran == [("quick", threading.get_ident())]
    finally:
        release.set()
        await conn.close()


async def test_the_wal_is_checkpointed_every_so_many_commits_and_stays_small(
        tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    db = await Database.open(path, migrations=numbered(("CREATE TABLE t (k INTEGER, v TEXT);",)))
    wal = Path(f"{path}-wal")
    try:
        sizes = []
        for i in range(12 * CHECKPOINT_EVERY):
            await db.execute("INSERT INTO t (k, v) VALUES (?, ?)", (i, "x" * 3000))
            if i % CHECKPOINT_EVERY == CHECKPOINT_EVERY // 2:
                await asyncio.sleep(0.05)  # the checkpoint of the commits before, in its thread
                sizes.append(wal.stat().st_size)
        # without checkpoints every commit's page would stay in the WAL, 4 KB x 1200 commits;
        # checkpointed, the WAL is written again from its start and stops growing
        unchecked = 12 * CHECKPOINT_EVERY * 4096
        assert max(sizes) < unchecked / 2, sizes
        assert sizes[-1] <= sizes[len(sizes) // 2], sizes
        row = await db.fetchone("SELECT count(*) FROM t")
        assert row is not None and row[0] == 12 * CHECKPOINT_EVERY
    finally:
        await db.close()
    raw = sqlite3.connect(path)  # all there for another process once closed
    try:
        assert raw.execute("SELECT count(*) FROM t").fetchone()[0] == 12 * CHECKPOINT_EVERY
    finally:
        raw.close()
