"""A SQLite backup of a bot with years of history, and what the bot's writes wait meanwhile.

    python bench/backup.py [--duels 100000] [--rounds 3] [--every 0.02]

Seeds a SQLite database with `--duels` finished duels (bench/history_seed.py: the bot's own
repositories, so its rows are the bot's), then, each round, has a writer write as a tap does (a
transaction of one upsert on the bot's storage, every `--every` seconds) for a few seconds
alone, and again while `bot.storage.backup.Copy` (what `sixshooter db backup` and the automatic
backups run) copies the database in a thread beside it. Prints the backup's time and size
beside the database's, and the writes' waits (p50, p99, max, in ms) alone and during the copy.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.history_seed import seed  # noqa: E402
from bot.storage import Storage  # noqa: E402
from bot.storage.backup import Copy, Made  # noqa: E402

ALONE = 3.0  # seconds of writes with no backup running, each round


async def _writes(storage: Storage, every: float, until: asyncio.Event | float) -> list[float]:
    """Milliseconds each write took, one every `every` seconds, until the event is set (or
    for that many seconds)."""
    waits: list[float] = []
    end = time.monotonic() + until if isinstance(until, float) else None
    n = 0
    while not (until.is_set() if isinstance(until, asyncio.Event) else time.monotonic() > end):
        n += 1
        started = time.perf_counter()
        async with storage.transaction():
            await storage.meta.set("bench-backup", str(n))
        waits.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(every)
    return waits


def _ms(waits: list[float]) -> str:
    ordered = sorted(waits)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return (f"{len(waits)} writes: p50 {statistics.median(ordered):.1f} ms, p99 {p99:.1f} ms, "
            f"max {ordered[-1]:.1f} ms")


async def _round(path: Path, dest: Path, every: float) -> tuple[Made, list[float], list[float]]:
    storage = await Storage.open(str(path))
    try:
        alone = await _writes(storage, every, ALONE)
        done = asyncio.Event()
        writer = asyncio.create_task(_writes(storage, every, done))
        try:
            made = await asyncio.to_thread(Copy(path, dest).run)
        finally:
            done.set()
        during = await writer
    finally:
        await storage.close()
    return made, alone, during


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="sixshooter-bench-backup-") as tmp:
        path = Path(tmp) / "bot.db"
        print(f"seeding {args.duels:,} finished duels ...", flush=True)
        seeded = await seed(str(path), args.duels, 1, 2000)
        print(f"seeded in {seeded['seconds']:.1f} s: the database is "
              f"{path.stat().st_size / 1e6:.1f} MB", flush=True)
        for n in range(args.rounds):
            dest = Path(tmp) / f"backup-{n}.db"
            made, alone, during = await _round(path, dest, args.every)
            print(f"round {n + 1}: backup {made.seconds:.2f} s, {made.size / 1e6:.1f} MB "
                  f"(the database {path.stat().st_size / 1e6:.1f} MB)")
            print(f"  writes alone:       {_ms(alone)}")
            print(f"  writes during copy: {_ms(during)}", flush=True)
            dest.unlink()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duels", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--every", type=float, default=0.02,
                        help="seconds between two writes (a busy bot: 50 a second)")
    asyncio.run(main(parser.parse_args()))
