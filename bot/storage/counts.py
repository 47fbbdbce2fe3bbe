"""How many games are live in the database as a whole (every worker's), for the metrics."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bot.storage.db import Database
from bot.storage.games import LiveGames

LiveCounts = dict[str, int]  # live games by the game's kind ("duel", "sixcard", ...)


async def live_counts(db: Database, games: Iterable[LiveGames[Any, Any]]) -> LiveCounts:
    """The games live now in each of the `games`' tables, in one statement (each count an
    index's, partial on status = 'live')."""
    games = list(games)
    if not games:
        return {}
    row = await db.fetchone("SELECT " + ", ".join(
        f"(SELECT count(*) FROM {g.table} WHERE status = 'live')" for g in games))
    return {g.kind: int(row[i]) if row is not None else 0 for i, g in enumerate(games)}
