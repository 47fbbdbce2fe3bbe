"""Each player's practice duels against the bot per chat, counted (table practice_tally,
migration V19): moved by the save that finishes a practice duel (`DuelRepo.save(...,
practice_over=True)`), in its transaction, so /stats reads one row instead of parsing every
practice duel the asker ever played.

    await count_practice(db, duel_id, winner)   # in the finishing save's transaction
    await PracticeRepo(db).tally(chat_id, user_id)  # -> PracticeTally
    await backfill_practice(db, after)         # the finished ones saved before V19, a batch
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.db import Database
from rules.duel import DuelState

BATCH = 2000  # finished practice duels a backfill transaction counts

_ADD = (" ON CONFLICT (chat_id, user_id) DO UPDATE SET played = practice_tally.played"
        " + excluded.played, won = practice_tally.won + excluded.won,"
        " lost = practice_tally.lost + excluded.lost")


@dataclass(frozen=True, slots=True)
class PracticeTally:
    played: int = 0
    won: int = 0  # by the player
    lost: int = 0  # to the bot; the rest were drawn


async def count_practice(db: Database, duel_id: int, winner: int | None) -> None:
    """Practice duel `duel_id` just finished: `winner` 0 (its player, seat 0), 1 (the bot) or
    None (a draw). An increment: saves in other chats never wait on it."""
    await db.execute(
        "INSERT INTO practice_tally (chat_id, user_id, played, won, lost)"
        " SELECT chat_id, player0_id, 1, ?, ? FROM duels"
        " WHERE id = ? AND ai_level IS NOT NULL" + _ADD,
        (int(winner == 0), int(winner == 1), duel_id))


async def backfill_practice(db: Database, after: int) -> tuple[int, int]:
    """The next BATCH finished practice duels after id `after` counted (their saved states
    read by the rules: who won); (duels counted, the last one's id), (0, after) at the end."""
    rows = await db.fetchall(
        "SELECT id, chat_id, player0_id, state FROM duels WHERE id > ?"
        " AND ai_level IS NOT NULL AND status = 'finished' ORDER BY id LIMIT ?",
        (after, BATCH))
    tallies: dict[tuple[int, int], list[int]] = {}
    for row in rows:
        winner = DuelState.from_json(row["state"]).winner
        t = tallies.setdefault((row["chat_id"], row["player0_id"]), [0, 0, 0])
        t[0], t[1], t[2] = t[0] + 1, t[1] + (winner == 0), t[2] + (winner == 1)
    for (chat_id, user_id), (played, won, lost) in sorted(tallies.items()):
        await db.execute("INSERT INTO practice_tally (chat_id, user_id, played, won, lost)"
                         " VALUES (?, ?, ?, ?, ?)" + _ADD,
                         (chat_id, user_id, played, won, lost))
    return len(rows), (rows[-1]["id"] if rows else after)


class PracticeRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def tally(self, chat_id: int, user_id: int) -> PracticeTally:
        """`user_id`'s finished practice duels against the bot in the chat."""
        row = await self.db.fetchone(
            "SELECT played, won, lost FROM practice_tally WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id))
        return PracticeTally(row["played"], row["won"], row["lost"]) if row else PracticeTally()
