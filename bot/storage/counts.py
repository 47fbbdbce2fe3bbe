"""How many games are live in the database as a whole (every worker's), for the metrics."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Database


@dataclass(frozen=True, slots=True)
class LiveCounts:
    duels: int
    sixcard: int


async def live_counts(db: Database) -> LiveCounts:
    """The duels and six-card games live now (each count an index's, both partial on
    status = 'live')."""
    row = await db.fetchone(
        "SELECT (SELECT count(*) FROM duels WHERE status = 'live'),"
        " (SELECT count(*) FROM sixcard_games WHERE status = 'live')")
    return LiveCounts(int(row[0]), int(row[1])) if row is not None else LiveCounts(0, 0)
