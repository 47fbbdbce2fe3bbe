"""Each player's skill rating in a chat (table ratings, migration V10): moved by every result
in the result's own transaction, so a rating never disagrees with the results it came from.

    await rate(db, Game(chat_id, players, winner))  # in insert_result, with the result's row
    await RatingRepo(db).for_chat(chat_id)          # -> {user_id: Rating}
    await backfill(db)                              # once, after V10: every chat's replayed

The maths, and the replay of a chat's results in order, are `rules.rating`'s (Weng-Lin);
here are only the rows. Practice duels against the
bot write no result, so they never rate. A surrender or a timeout is a result with a winner:
a loss for the rating like any other.
"""

from __future__ import annotations

import logging

from bot.storage.db import Database, chat_lock
from rules import rating
from rules.rating import Game, Rating, replay

log = logging.getLogger(__name__)

BACKFILL = "ratings_backfill"  # the bot_meta key V10 leaves for the first open after it


async def _get(db: Database, chat_id: int, user_id: int) -> Rating | None:
    row = await db.fetchone(
        "SELECT mu, sigma, duels FROM ratings WHERE chat_id = ? AND user_id = ?",
        (chat_id, user_id))
    return Rating(row["mu"], row["sigma"], row["duels"]) if row else None


async def _put(db: Database, chat_id: int, user_id: int, r: Rating) -> None:
    await db.execute(
        "INSERT INTO ratings (chat_id, user_id, mu, sigma, duels) VALUES (?, ?, ?, ?, ?)"
        " ON CONFLICT (chat_id, user_id) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, duels = excluded.duels",
        (chat_id, user_id, r.mu, r.sigma, r.duels))


async def rate(db: Database, g: Game) -> tuple[Rating, Rating]:
    """Move both players' ratings by a duel's result `g` (in a transaction: the caller's, if
    any), under the chat's lock: a read, then a write of the chat's rows, one worker at a
    time. Returns both new ratings."""
    async with db.transaction(chat_lock(g.chat_id)):
        rows = await db.fetchall(
            "SELECT user_id, mu, sigma, duels FROM ratings WHERE chat_id = ?"
            " AND user_id IN (?, ?)", (g.chat_id, *g.players))
        known = {r["user_id"]: Rating(r["mu"], r["sigma"], r["duels"]) for r in rows}
        a, b = (known.get(p) or rating.initial() for p in g.players)
        na, nb = rating.after_duel(a, b, g.winner())
        await db.execute(
            "INSERT INTO ratings (chat_id, user_id, mu, sigma, duels)"
            " VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)"
            " ON CONFLICT (chat_id, user_id) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, duels = excluded.duels",
            (g.chat_id, g.players[0], na.mu, na.sigma, na.duels,
             g.chat_id, g.players[1], nb.mu, nb.sigma, nb.duels))
    return na, nb


class RatingRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, chat_id: int, user_id: int) -> Rating | None:
        """`user_id`'s rating in `chat_id`; None before their first counted duel there."""
        return await _get(self.db, chat_id, user_id)

    async def for_chat(self, chat_id: int) -> dict[int, Rating]:
        """Every rated player of the chat: {user_id: Rating}."""
        rows = await self.db.fetchall(
            "SELECT user_id, mu, sigma, duels FROM ratings WHERE chat_id = ? ORDER BY user_id",
            (chat_id,))
        return {r["user_id"]: Rating(r["mu"], r["sigma"], r["duels"]) for r in rows}


async def backfill(db: Database) -> int:
    """Once, after migration V10: every chat's ratings computed from its stored results, in
    order (finished_at, duel_id), replacing whatever rows there are. One transaction, which
    also drops the request; returns the number of results replayed. Under a lock: workers
    starting at once replay it once."""
    async with db.transaction(lock=BACKFILL):
        if await db.fetchone("SELECT 1 FROM bot_meta WHERE key = ?", (BACKFILL,)) is None:
            return 0
        rows = await db.fetchall(
            "SELECT chat_id, player0_id, player1_id, winner_id FROM results"
            " ORDER BY chat_id, finished_at, duel_id")
        ratings = replay(Game(r["chat_id"], (r["player0_id"], r["player1_id"]), r["winner_id"])
                         for r in rows)
        await db.execute("DELETE FROM ratings")
        for (chat_id, user_id), r in sorted(ratings.items()):
            await _put(db, chat_id, user_id, r)
        await db.execute("DELETE FROM bot_meta WHERE key = ?", (BACKFILL,))
    if rows:
        log.info("database %s: ratings of %d player(s) computed from %d result(s)", db.path,
                 len(ratings), len(rows))
    return len(rows)
