"""How long the standings' migration (V19's backfill) takes on a database with a long past.

    python bench/backfill.py [--results 1000000] [--db postgresql://...] [--sqlite-only]

Builds a database at the latest schema, writes `--results` finished duels' results into it
(SQL of the bench's own, in bulk: seeding a million through the repositories, as
bench/history.py does, would take an hour; the backfill reads only table results and the
stored ratings), empties the kept standings and leaves V19's cursor in bot_meta, as a database
upgraded from V18 has it, then times `Storage.open`: what a bot's start-up does with it (the
standings kept from every result, in batches of bot.storage.standings.BATCH). The past is
spread as a popular bot's would be: one group with a tenth of all results, the rest in groups
of a thousand, twelve players each, some players in several groups. Prints, per engine, the
seeding's time, the migration's time, results a second, and the rows it wrote. Asserts
nothing; the databases are dropped after.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sqlite3
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncpg  # noqa: E402

from bot.storage import Storage  # noqa: E402
from bot.storage.result_record import COLUMNS  # noqa: E402
from bot.storage.standings import BACKFILL  # noqa: E402
from tests.support.databases import drop_database, with_database  # noqa: E402

BIG_SHARE = 10  # one group holds 1/BIG_SHARE of the results
PER_GROUP = 1000  # the others hold this many each
SEATS = 12  # players of a group
SHARED = 3  # of whom this many also play in the next group
REASONS = ("normal",) * 16 + ("surrender", "timeout", "tiebreak")
TWO_YEARS = 2 * 365 * 86400
FIELDS = tuple(c.strip() for c in COLUMNS.split(","))


NOW = int(time.time())  # the same past on both engines


def results(n: int, seed: int) -> Iterator[tuple[object, ...]]:
    """`n` results as rows of table results, in (chat, time) order per chat, up to NOW."""
    rng = random.Random(seed)
    now = NOW
    sizes = [n // BIG_SHARE]
    left = n - sizes[0]
    while left > 0:
        sizes.append(min(PER_GROUP, left))
        left -= sizes[-1]
    duel_id = 0
    for g, size in enumerate(sizes):
        chat_id = -1_000_000 - g
        # a few of each group's players play in the group before it too
        first = 10_000 + g * (SEATS - SHARED)
        players = list(range(first, first + SEATS))
        start = now - TWO_YEARS
        step = TWO_YEARS // size
        for k in range(size):
            duel_id += 1
            a, b = rng.sample(players, 2)
            stack = rng.choice((30, 50, 100))
            won = rng.randint(0, stack)
            draw = rng.random() < 0.03
            winner = None if draw else (a if won >= stack // 2 else b)
            s0 = stack if draw else (stack + won if winner == a else stack - won)
            yield (duel_id, chat_id, a, b, s0, 2 * stack - s0, stack, winner,
                   rng.choice(REASONS), rng.randint(1 << 20, 1 << 24),
                   rng.randint(1 << 20, 1 << 24), rng.choice((0, 0, 2, 4)),
                   rng.choice((0, 0, 2, 4)), 6, start + k * step + rng.randint(0, step - 1))


def batches(rows: Iterator[tuple[object, ...]],
            size: int = 20_000) -> Iterator[list[tuple[object, ...]]]:
    batch: list[tuple[object, ...]] = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


UNDO = ("DELETE FROM standings", "DELETE FROM rivalries", "DELETE FROM rating_points")


def seed_sqlite(path: Path, n: int, seed: int) -> None:
    con = sqlite3.connect(path)
    con.execute("PRAGMA foreign_keys = OFF")  # results without their duels' rows
    marks = ", ".join("?" * len(FIELDS))
    with con:
        for batch in batches(results(n, seed)):
            con.executemany(f"INSERT INTO results ({COLUMNS}) VALUES ({marks})", batch)
        for sql in UNDO:
            con.execute(sql)
        con.execute("INSERT INTO bot_meta (key, value) VALUES (?, '')", (BACKFILL,))
    con.close()


async def seed_postgres(url: str, n: int, seed: int) -> None:
    con = await asyncpg.connect(url)
    try:
        # results without their duels' rows: the foreign key's triggers off for this session
        await con.execute("SET session_replication_role = replica")
        for batch in batches(results(n, seed)):
            await con.copy_records_to_table("results", records=batch, columns=list(FIELDS))
        for sql in UNDO:
            await con.execute(sql)
        await con.execute("INSERT INTO bot_meta (key, value) VALUES ($1, '')", BACKFILL)
        await con.execute("ANALYZE")
    finally:
        await con.close()


async def counts(storage: Storage) -> str:
    db = storage.db
    found = []
    for table in ("standings", "rivalries", "rating_points"):
        row = await db.fetchone(f"SELECT count(*) AS n FROM {table}")
        found.append(f"{table} {row['n'] if row else 0:,}")
    return ", ".join(found)


async def run(engine: str, url: str, n: int, seed: int) -> None:
    await (await Storage.open(url)).close()  # the latest schema, nothing to backfill
    began = time.perf_counter()
    if engine == "sqlite":
        seed_sqlite(Path(url), n, seed)
    else:
        await seed_postgres(url, n, seed)
    seeded = time.perf_counter() - began
    began, cpu = time.perf_counter(), time.process_time()
    storage = await Storage.open(url)
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    try:
        left = await storage.db.fetchone("SELECT 1 FROM bot_meta WHERE key = ?", (BACKFILL,))
        rows = await counts(storage)
    finally:
        await storage.close()
    print(f"[{engine}] {n:,} results seeded in {seeded:.1f} s; the migration (Storage.open) "
          f"took {took:.1f} s ({n / took:,.0f} results/s; this process's CPU {cpu:.1f} s)"
          f"{'' if left is None else ', NOT FINISHED'}; wrote {rows}", flush=True)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--db", help="also on PostgreSQL: a server's admin URL, e.g. "
                        "postgresql://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        await run("sqlite", os.path.join(tmp, "bot.db"), args.results, args.seed)
    if args.db:
        name = f"bench_backfill_{uuid.uuid4().hex[:8]}"
        admin = await asyncpg.connect(args.db)
        try:
            await admin.execute(f'CREATE DATABASE "{name}"')
        finally:
            await admin.close()
        url = with_database(args.db, name)
        try:
            await run("postgresql", url, args.results, args.seed)
        finally:
            await drop_database(args.db, url)


if __name__ == "__main__":
    asyncio.run(main())
