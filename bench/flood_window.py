"""What the shared flood budget costs per send: `ChatRateLimiter`'s one `take_all` (the bot's
window and the group's together) on each window, and the round trips it makes to the database.

    python bench/flood_window.py [--takes 2000] [--db postgresql://postgres@127.0.0.1/postgres]

Takes run back to back with Telegram's limits on a clock that moves 1/25 s a look (the bot's
window always has room) over 100 groups in turn (each has room), so every take counts and
writes, as a send does, and the rows are as big as in use; `--workers N` runs N storages on
one PostgreSQL database at once, taking for the same groups (the locks' contention). Round
trips are the statements the window sends plus a transaction's BEGIN and COMMIT. CPU is this
process's (the client's). Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.storage import Database, Storage  # noqa: E402
from bot.telegram.flood import DatabaseWindow, MemoryWindow, Take, Window  # noqa: E402
from tests.support import databases  # noqa: E402

GROUPS = 100


class Clock:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        self.now += 1 / 25
        return self.now


class Trips:
    """Counts a database's round trips: statements, and each transaction's BEGIN and COMMIT."""

    def __init__(self, db: Database) -> None:
        self.n = 0
        for name in ("execute", "insert", "fetchone", "fetchall"):
            self._wrap(db, name)
        enter = db.transaction

        def transaction(*args: Any, **kwargs: Any) -> Any:
            self.n += 2
            return enter(*args, **kwargs)

        db.transaction = transaction  # type: ignore[method-assign]

    def _wrap(self, db: Database, name: str) -> None:
        call = getattr(db, name)

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.n += 1
            return await call(*args, **kwargs)

        setattr(db, name, counted)


async def run(window: Window, takes: int) -> tuple[float, float]:
    """Wall and CPU seconds per take_all; each one counted."""
    start, cpu = time.perf_counter(), time.process_time()
    for n in range(takes):
        key = f"chat:-{1000 + n % GROUPS}"
        wait = await window.take_all([Take("bot", 30, 1.15), Take(key, 20, 60.15)], held=(key,))
        assert wait == 0.0, wait
    return (time.perf_counter() - start) / takes, (time.process_time() - cpu) / takes


async def bench(takes: int, pg: str | None, workers: int) -> None:
    print(f"{'window':<34} {'µs/take':>9} {'CPU µs':>8} {'round trips/take':>17}")

    def line(name: str, wall: float, cpu: float, trips: float) -> None:
        print(f"{name:<34} {wall * 1e6:>9.1f} {cpu * 1e6:>8.1f} {trips:>17.1f}")

    clock = Clock()  # one for all: the rows' times never run ahead of it
    line("memory", *await run(MemoryWindow(clock), takes), 0)
    with tempfile.TemporaryDirectory() as tmp:
        store = await Storage.open(str(Path(tmp) / "bench.db"))
        trips = Trips(store.db)
        line("database, sqlite", *await run(DatabaseWindow(store.flood, clock), takes),
             trips.n / takes)
        await store.close()
    if pg is None:
        print("(no PostgreSQL: pass --db postgresql://...)")
        return
    url = await databases.fresh_database(pg)
    try:
        stores = [await Storage.open(url) for _ in range(workers)]
        trips = Trips(stores[0].db)
        line("database, postgresql, 1 worker",
             *await run(DatabaseWindow(stores[0].flood, clock), takes), trips.n / takes)
        if workers > 1:
            start = time.perf_counter()
            await asyncio.gather(*(run(DatabaseWindow(s.flood, clock), takes // workers)
                                   for s in stores))
            wall = time.perf_counter() - start
            print(f"{f'database, postgresql, {workers} workers':<34} "
                  f"{wall / takes * 1e6:>9.1f} (wall per take, all {workers} at once)")
        for s in stores:
            await s.close()
    finally:
        await databases.drop_database(pg, url)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--takes", type=int, default=2000)
    parser.add_argument("--db", default=databases.admin_url(),
                        help="a PostgreSQL server where a database may be created")
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(bench(args.takes, args.db, args.workers))


if __name__ == "__main__":
    main()
