"""The flood budget every worker shares (table flood_windows, migration V16): per key (a chat,
the bot as a whole), the times of the calls counted within its window's span, and the end of
the hold a 429 put on it. The window's arithmetic is `bot.telegram.flood`'s; here are the rows.

    records = await repo.read(["bot", "chat:-100"])              # a look, no lock
    wait = await repo.change(["bot", "chat:-100"], decide, now=t)  # a take: read, decide, write
    await repo.hold("chat:-100", until=t + 30, now=t)            # a 429's pause

A `change` is one short transaction whose first statement locks the keys' rows (an upsert,
keys in one order): it returns their latest committed values, even under PostgreSQL's READ
COMMITTED, and another worker's `change` of the same key waits for this one's commit, so two
workers can never both take a window's last place. On SQLite the transaction is the file's
one writer anyway. That is also the cheapest lock: one round trip, where an advisory lock
would be one more per key, before the same read. A hold is one statement that only ever
lengthens it, and a `change` never writes it, so neither can undo the other.

Rows of keys idle past any span and hold are dropped by `prune` (the window calls it now and
then: one DELETE over a table of one row per chat recently written to).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from bot.storage.db import Database, Row

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class FloodRecord:
    key: str
    calls: tuple[float, ...] = ()  # unix times of the calls counted, oldest first
    held_until: float = 0.0  # unix time the key's hold ends (0: never held)


# What a take decides from the keys' records: the records to write (their calls; a hold is
# never written here) and what the take returns.
Decide = Callable[[dict[str, FloodRecord]], tuple[Sequence[FloodRecord], T]]


def _times(text: str) -> tuple[float, ...]:
    return tuple(float(t) for t in text.split())


def _text(calls: Sequence[float]) -> str:
    return " ".join(f"{t:.3f}" for t in calls)


def _record(row: Row) -> FloodRecord:
    return FloodRecord(str(row["key"]), _times(str(row["calls"])), float(row["held_until"]))


def _rows(n: int, per_row: str) -> str:
    """`n` VALUES groups of the same placeholders (the statement for n keys, prepared once)."""
    return ", ".join([per_row] * n)


class FloodRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def read(self, keys: Sequence[str]) -> dict[str, FloodRecord]:
        """The keys' records as last committed (an unknown key: an empty record)."""
        found = {k: FloodRecord(k) for k in keys}
        if len(keys) == 1:
            rows = await self.db.fetchall(
                "SELECT key, calls, held_until FROM flood_windows WHERE key = ?", keys)
        else:
            rows = await self.db.fetchall(
                "SELECT key, calls, held_until FROM flood_windows WHERE key IN"
                f" ({_rows(len(keys), '?')})", keys)
        found.update((str(r["key"]), _record(r)) for r in rows)
        return found

    async def change(self, keys: Sequence[str], decide: Decide[T], *, now: float) -> T:
        """In one transaction: lock and read the keys' rows, let `decide` say what to write
        and what to return, write that (calls only), commit."""
        keys = sorted(set(keys))  # every worker locks them in the same order
        if not keys:
            return decide({})[1]
        async with self.db.transaction():
            rows = await self.db.fetchall(
                "INSERT INTO flood_windows (key, touched_at)"
                f" VALUES {_rows(len(keys), '(?, ?)')} ON CONFLICT (key) DO UPDATE"
                " SET touched_at = excluded.touched_at RETURNING key, calls, held_until",
                [p for k in keys for p in (k, now)])
            records = {k: FloodRecord(k) for k in keys}
            records.update((str(r["key"]), _record(r)) for r in rows)
            writes, result = decide(records)
            if writes:
                await self.db.execute(
                    "INSERT INTO flood_windows (key, calls, touched_at)"
                    f" VALUES {_rows(len(writes), '(?, ?, ?)')} ON CONFLICT (key) DO UPDATE"
                    " SET calls = excluded.calls",
                    [p for w in writes for p in (w.key, _text(w.calls), now)])
        return result

    async def hold(self, key: str, until: float, *, now: float) -> None:
        """Nothing is counted for `key` before `until` (a later hold already there stays)."""
        await self.db.execute(
            "INSERT INTO flood_windows (key, held_until, touched_at) VALUES (?, ?, ?)"
            " ON CONFLICT (key) DO UPDATE SET held_until = CASE"
            " WHEN excluded.held_until > flood_windows.held_until THEN excluded.held_until"
            " ELSE flood_windows.held_until END",
            (key, until, now))

    async def prune(self, before: float) -> int:
        """Drop the keys last taken before `before` whose hold ended by then; how many."""
        return await self.db.execute(
            "DELETE FROM flood_windows WHERE touched_at < ? AND held_until < ?",
            (before, before))
