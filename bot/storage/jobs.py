"""Due rows (table `due_jobs`): whatever must happen later, kept where every worker sees it.

    await storage.jobs.schedule("challenge.expire", "17", due_at, {"v": 1})   # arm or re-arm
    for job in await storage.jobs.claim(owner, now, lease=30.0, limit=8):     # my turn
        ...  # run it, renewing the lease while it runs: renew(job, until)
        await storage.jobs.finish(job)          # or retry(job, at) when it failed
    await storage.jobs.cancel("challenge.expire", "17")

A row is one job, named by (kind, key): arming it again replaces it (new due time and data, a
new `generation`, its lease cleared). A claim takes due rows nobody holds (or whose holder's
lease ran out: a worker killed mid-job leaves it to another) and holds them for `lease`
seconds in the claimer's name; on PostgreSQL the claim passes over rows another worker is
claiming at that moment (`FOR UPDATE SKIP LOCKED`, the engine's `SKIP_LOCKED`), so two
workers never claim one row at once. `finish`, `retry`, `renew` and `release` act only on the
row as it was claimed (same generation, same owner): not on one re-armed meanwhile, nor one
another worker took after this claim's lease ran out. `bot.common.due` runs the rows.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from bot.storage.db import Database, Row

OVERDUE = 30.0  # seconds past its due time after which a waiting row counts as overdue

_COLUMNS = "kind, key, due_at, data, generation, attempts, owner, lease_until"
_ARM = ("INSERT INTO due_jobs (kind, key, due_at, data, generation) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (kind, key) DO UPDATE SET due_at = excluded.due_at,"
        " data = excluded.data, generation = excluded.generation, attempts = 0,"
        " owner = NULL, lease_until = NULL")
_AS_CLAIMED = " WHERE kind = ? AND key = ? AND generation = ? AND owner = ?"
_WAITING = "(lease_until IS NULL OR lease_until <= ?)"  # nobody holds it (or held: ran out)


@dataclass(frozen=True, slots=True)
class DueJob:
    kind: str
    key: str
    due_at: float  # unix seconds
    data: Any  # the handler's, as JSON gave it back
    generation: int  # new at every arming
    attempts: int  # failures in a row
    owner: str | None = None  # who holds it (a claim: the claimer)
    lease_until: float | None = None  # held until then


@dataclass(frozen=True, slots=True)
class JobCounts:
    due: int  # due now and waiting for a worker
    overdue: int  # of those, due more than OVERDUE seconds ago


def _job(row: Row) -> DueJob:
    return DueJob(kind=row["kind"], key=row["key"], due_at=float(row["due_at"]),
                  data=json.loads(row["data"]), generation=int(row["generation"]),
                  attempts=int(row["attempts"]), owner=row["owner"],
                  lease_until=None if row["lease_until"] is None else float(row["lease_until"]))


def _claimed(job: DueJob) -> tuple[str, str, int, str | None]:
    return job.kind, job.key, job.generation, job.owner


class JobRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def schedule(self, kind: str, key: str, due_at: float, data: Any = None, *,
                       sooner_only: bool = False) -> bool:
        """Arm the row (kind, key) for `due_at` with `data` (JSON-able), replacing any: its
        lease is cleared, and its older claim can no longer finish it. `sooner_only`: an
        existing row due sooner stays as it is (arming at start-up, idempotently). True if
        the row was written."""
        sql = _ARM + (" WHERE excluded.due_at < due_jobs.due_at" if sooner_only else "")
        changed = await self.db.execute(
            sql, (kind, key, float(due_at), json.dumps(data, separators=(",", ":")),
                  secrets.randbits(62)))
        return changed == 1

    async def cancel(self, kind: str, key: str) -> bool:
        """Drop the row, whoever holds it; False if there was none."""
        return await self.db.execute("DELETE FROM due_jobs WHERE kind = ? AND key = ?",
                                     (kind, key)) == 1

    async def get(self, kind: str, key: str) -> DueJob | None:
        row = await self.db.fetchone(f"SELECT {_COLUMNS} FROM due_jobs"
                                     " WHERE kind = ? AND key = ?", (kind, key))
        return None if row is None else _job(row)

    async def claim(self, owner: str, now: float, lease: float, limit: int) -> list[DueJob]:
        """Up to `limit` rows due by `now` that nobody holds, oldest first, held by `owner`
        until `now + lease`."""
        if limit <= 0:
            return []
        async with self.db.transaction():  # SQLite: on the writer (RETURNING writes)
            # The outer test again: a row another claim took meanwhile is left to it,
            # whichever plan the engine chose for the subquery.
            rows = await self.db.fetchall(
                "UPDATE due_jobs SET owner = ?, lease_until = ? WHERE (kind, key) IN"
                " (SELECT kind, key FROM due_jobs WHERE due_at <= ? AND " + _WAITING
                + " ORDER BY due_at LIMIT ?" + self.db.SKIP_LOCKED + ") AND " + _WAITING
                + f" RETURNING {_COLUMNS}",
                (owner, float(now + lease), float(now), float(now), limit, float(now)))
        return sorted((_job(r) for r in rows), key=lambda j: (j.due_at, j.kind, j.key))

    async def renew(self, job: DueJob, until: float) -> bool:
        """Hold a claimed row until `until`; False if it is no longer this claim's."""
        return await self.db.execute("UPDATE due_jobs SET lease_until = ?" + _AS_CLAIMED,
                                     (float(until), *_claimed(job))) == 1

    async def finish(self, job: DueJob) -> bool:
        """Done: drop the row as claimed (a row re-armed meanwhile stays)."""
        return await self.db.execute("DELETE FROM due_jobs" + _AS_CLAIMED, _claimed(job)) == 1

    async def retry(self, job: DueJob, at: float) -> bool:
        """Failed: due again at `at`, one more failure counted, nobody holding it."""
        return await self.db.execute(
            "UPDATE due_jobs SET due_at = ?, attempts = attempts + 1, owner = NULL,"
            " lease_until = NULL" + _AS_CLAIMED, (float(at), *_claimed(job))) == 1

    async def release(self, job: DueJob) -> bool:
        """Not run after all (a shutdown): anyone may claim it again, at its due time."""
        return await self.db.execute("UPDATE due_jobs SET owner = NULL, lease_until = NULL"
                                     + _AS_CLAIMED, _claimed(job)) == 1

    async def release_all(self) -> int:
        """Every lease dropped: for a start on SQLite, whose file lock means any holder was
        this bot's previous, dead run."""
        return await self.db.execute("UPDATE due_jobs SET owner = NULL, lease_until = NULL"
                                     " WHERE owner IS NOT NULL")

    async def owners(self) -> list[str]:
        """Who holds rows now (or held them until their leases ran out)."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT owner FROM due_jobs WHERE owner IS NOT NULL ORDER BY owner")
        return [str(r["owner"]) for r in rows]

    async def release_owner(self, owner: str) -> int:
        """Every lease of `owner` dropped (a holder known to be dead)."""
        return await self.db.execute("UPDATE due_jobs SET owner = NULL, lease_until = NULL"
                                     " WHERE owner = ?", (owner,))

    async def next_due(self) -> float | None:
        """When the next claim may find something: the earliest due time of a row nobody
        holds, or the end of a lease (its holder may be dead); None without rows."""
        # Both by an index: the first free row in due order, the first lease to end (a
        # held row was due when it was claimed, so its lease's end is when it may be again).
        row = await self.db.fetchone(
            "SELECT (SELECT due_at FROM due_jobs WHERE lease_until IS NULL ORDER BY due_at"
            " LIMIT 1) AS free, (SELECT min(lease_until) FROM due_jobs"
            " WHERE lease_until IS NOT NULL) AS held")
        times = [float(t) for t in (row["free"], row["held"]) if t is not None] if row else []
        return min(times, default=None)

    async def counts(self, now: float) -> JobCounts:
        """How many rows wait for a worker: due now, and overdue (for the metrics)."""
        row = await self.db.fetchone(
            "SELECT COALESCE(SUM(CASE WHEN due_at <= ? THEN 1 ELSE 0 END), 0) AS due,"
            " COALESCE(SUM(CASE WHEN due_at < ? THEN 1 ELSE 0 END), 0) AS overdue"
            " FROM due_jobs WHERE due_at <= ? AND " + _WAITING,
            (float(now), float(now - OVERDUE), float(now), float(now)))
        return JobCounts(0, 0) if row is None else JobCounts(int(row["due"]),
                                                             int(row["overdue"]))
