"""The inbox: every update from Telegram saved before it is acknowledged, crossed off once
handled (`bot.telegram.intake` drives it).

A row is claimed by the worker handling it (`owner`) until `lease_until`; the owner renews the
lease while the update is in its hands. A worker killed mid-update stops renewing, and once
the lease has run out any worker takes the row (`take_stale`: claimed rows skipped, not waited
for, so two workers never take the same one). An update saved twice (a webhook retried after
a lost 200, two pollers overlapping at a take-over) keeps its first row: `save` says which of
its updates are new, and only those are handled. Handled rows stay a day (a late duplicate
still finds them), the newest always: it is where long polling's offset resumes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.db import Database

KEEP_DONE = 24 * 3600.0  # seconds a handled update's row stays


@dataclass(frozen=True, slots=True)
class Incoming:
    update_id: int
    body: str  # the update as Telegram sent it (JSON)


class InboxRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def save(self, updates: Sequence[Incoming], *, owner: str, now: float,
                   lease_until: float) -> set[int]:
        """Save the updates, claimed by `owner`, all or none; the ids of those that were new."""
        new: set[int] = set()
        async with self.db.together(len(updates)):
            for u in updates:
                added = await self.db.execute(
                    "INSERT INTO inbox (update_id, body, received_at, owner, lease_until)"
                    " VALUES (?, ?, ?, ?, ?) ON CONFLICT (update_id) DO NOTHING",
                    (u.update_id, u.body, now, owner, lease_until))
                if added:
                    new.add(u.update_id)
        return new

    async def done(self, update_id: int, *, now: float) -> None:
        await self.db.execute(
            "UPDATE inbox SET done_at = ?, owner = NULL, lease_until = NULL"
            " WHERE update_id = ?", (now, update_id))

    async def renew(self, owner: str, *, lease_until: float) -> int:
        """Extend the lease of every update `owner` still has in hand."""
        return await self.db.execute(
            "UPDATE inbox SET lease_until = ? WHERE owner = ? AND done_at IS NULL",
            (lease_until, owner))

    async def take_stale(self, owner: str, *, before: float, lease_until: float,
                         limit: int = 100) -> list[Incoming]:
        """Claim for `owner` the unhandled updates whose lease ended before `before`, oldest
        first."""
        async with self.db.transaction():  # a write that returns rows: on the writer
            # In order through `inbox_waiting` (V18): the unhandled rows, not the day of
            # handled ones.
            rows = await self.db.fetchall(
                "UPDATE inbox SET owner = ?, lease_until = ? WHERE update_id IN"
                " (SELECT update_id FROM inbox WHERE done_at IS NULL AND lease_until < ?"
                f" ORDER BY update_id LIMIT ?{self.db.SKIP_LOCKED})"
                " RETURNING update_id, body",
                (owner, lease_until, before, limit))
        return sorted((Incoming(r["update_id"], r["body"]) for r in rows),
                      key=lambda u: u.update_id)

    async def owners(self) -> list[str]:
        """Who holds unhandled updates now (or held them until their leases ran out)."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT owner FROM inbox WHERE done_at IS NULL AND owner IS NOT NULL"
            " ORDER BY owner")
        return [str(r["owner"]) for r in rows]

    async def release(self, owner: str) -> int:
        """End every lease of `owner` (a holder known to be dead): any worker takes them."""
        return await self.db.execute(
            "UPDATE inbox SET lease_until = 0 WHERE owner = ? AND done_at IS NULL", (owner,))

    async def pending(self) -> int:
        """Updates saved and not yet handled (for metrics and tests)."""
        row = await self.db.fetchone("SELECT count(*) FROM inbox WHERE done_at IS NULL")
        return int(row[0]) if row else 0

    async def last_id(self) -> int | None:
        """The newest update saved: long polling goes on after it."""
        row = await self.db.fetchone("SELECT max(update_id) FROM inbox")
        return None if row is None or row[0] is None else int(row[0])

    async def prune(self, *, now: float) -> int:
        """Drop the rows handled over a day ago, but never the newest."""
        return await self.db.execute(
            "DELETE FROM inbox WHERE done_at < ?"
            " AND update_id < (SELECT max(update_id) FROM inbox)", (now - KEEP_DONE,))
