"""Each deal of a duel (table deals): its commitment from the save that deals, its salt from
the save that ends the deal, so a deal is found by its salt with one indexed query.

The deals come from the rules' public view of the duel (`deals_of`): every finished deal's
proof, and the commitment of the deal in play. Its salt stays out until the deal is over, as
it does in the view.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.db import Database
from rules.duel import DuelState, PublicView

log = logging.getLogger(__name__)

BACKFILL = "deals_backfill"  # the bot_meta key V6 leaves for the first open after it


@dataclass(frozen=True, slots=True)
class Deal:
    round: int  # 1, 2; 3, 4, ... for tiebreak deals
    commitment: str  # published before play
    salt: str | None = None  # lowercase hex, once the deal is over; None while in play


def deals_of(view: PublicView) -> tuple[Deal, ...]:
    """The deals a duel's public view shows, oldest first: each finished one with its salt,
    then the one in play (if any) with its commitment only."""
    done = tuple(Deal(p.round, p.commitment, p.salt) for p in view.proofs)
    if view.commitment is not None and all(d.round != view.round for d in done):
        return (*done, Deal(view.round, view.commitment))
    return done


async def record_deals(db: Database, duel_id: int, deals: Iterable[Deal]) -> None:
    """Write the duel's deals (call inside the save's transaction). A stored deal keeps its
    row; only its salt is added, once known."""
    for d in deals:
        await db.execute(
            "INSERT INTO deals (duel_id, round, commitment, salt) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (duel_id, round) DO UPDATE SET salt = excluded.salt"
            " WHERE deals.salt IS NULL AND excluded.salt IS NOT NULL",
            (duel_id, d.round, d.commitment, d.salt),
        )


async def backfill(db: Database) -> int:
    """Once, after migration V6: write the deals of the duels saved before it, read from their
    states through the rules' public view. One transaction, which also drops the request;
    returns the number of duels read. Under a lock: workers starting at once replay it once."""
    async with db.transaction(lock=BACKFILL):
        if await db.fetchone("SELECT 1 FROM bot_meta WHERE key = ?", (BACKFILL,)) is None:
            return 0
        rows = await db.fetchall("SELECT id, state FROM duels ORDER BY id")
        for row in rows:
            try:
                view = DuelState.from_json(row["state"]).public_view()
            except (ValueError, LookupError, TypeError):  # a state these rules cannot read
                log.warning("duel %d: its state cannot be read; no deals recorded", row["id"])
                continue
            await record_deals(db, row["id"], deals_of(view))
        await db.execute("DELETE FROM bot_meta WHERE key = ?", (BACKFILL,))
    if rows:
        log.info("database %s: the deals of %d duel(s) recorded", db.path, len(rows))
    return len(rows)
