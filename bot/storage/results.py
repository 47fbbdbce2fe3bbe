"""Finished duels' results, kept for standings and history."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Database, Row, chat_lock
from bot.storage.ratings import rate
from rules.rating import Game


class ResultReason(StrEnum):
    NORMAL = "normal"  # after the last bullet, or a player ran out of chips
    SURRENDER = "surrender"
    TIMEOUT = "timeout"
    TIEBREAK = "tiebreak"  # decided by tiebreak bullets


@dataclass(frozen=True, slots=True)
class DuelResult:
    """Tuples are indexed like `players` (player 0, player 1 of the duel)."""

    duel_id: int
    chat_id: int
    players: tuple[int, int]
    final_stacks: tuple[int, int]
    start_stack: int
    winner_id: int | None  # None: a draw
    reason: ResultReason
    best_hands: tuple[int | None, int | None]  # HandValue.strength of each one's best hand shown
    bonus_chips: tuple[int, int]  # bonus chips each player won
    bullets: int  # bullets played
    finished_at: int

    def __post_init__(self) -> None:
        if self.players[0] == self.players[1]:
            raise ValueError("a duel has two different players")
        if self.winner_id is not None and self.winner_id not in self.players:
            raise ValueError("the winner must be one of the players")

    @property
    def loser_id(self) -> int | None:
        if self.winner_id is None:
            return None
        return self.players[1] if self.winner_id == self.players[0] else self.players[0]


_COLUMNS = (
    "duel_id, chat_id, player0_id, player1_id, stack0, stack1, start_stack, winner_id, reason,"
    " best0, best1, bonus0, bonus1, bullets, finished_at"
)


async def insert_result(db: Database, result: DuelResult) -> None:
    """Write a result and move both players' ratings by it (bot.storage.ratings), together;
    inside `db.transaction()` they commit with whatever else is in there. The chat's lock
    first (the ratings' read-then-write needs it), before any row is locked."""
    r = result
    async with db.transaction(chat_lock(r.chat_id)):
        await db.execute(
            f"INSERT INTO results ({_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (r.duel_id, r.chat_id, *r.players, *r.final_stacks, r.start_stack, r.winner_id,
             r.reason.value, *r.best_hands, *r.bonus_chips, r.bullets, r.finished_at),
        )
        await rate(db, Game(r.chat_id, r.players, r.winner_id))


def _result(row: Row) -> DuelResult:
    return DuelResult(
        duel_id=row["duel_id"], chat_id=row["chat_id"],
        players=(row["player0_id"], row["player1_id"]),
        final_stacks=(row["stack0"], row["stack1"]), start_stack=row["start_stack"],
        winner_id=row["winner_id"], reason=ResultReason(row["reason"]),
        best_hands=(row["best0"], row["best1"]), bonus_chips=(row["bonus0"], row["bonus1"]),
        bullets=row["bullets"], finished_at=row["finished_at"],
    )


class ResultRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, result: DuelResult) -> None:
        """Write a result on its own; prefer `DuelRepo.save(..., result=...)`, which writes it
        in the same transaction as the state that finishes the duel."""
        await insert_result(self.db, result)

    async def get(self, duel_id: int) -> DuelResult | None:
        row = await self.db.fetchone(
            f"SELECT {_COLUMNS} FROM results WHERE duel_id = ?", (duel_id,)
        )
        return _result(row) if row else None

    async def for_chat(self, chat_id: int) -> list[DuelResult]:
        """Every result in a chat, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM results WHERE chat_id = ? ORDER BY finished_at, duel_id",
            (chat_id,),
        )
        return [_result(r) for r in rows]

    async def chats_since(self, since: int) -> list[int]:
        """The chats with a result finished at `since` or later, by id."""
        rows = await self.db.fetchall(
            "SELECT DISTINCT chat_id FROM results WHERE finished_at >= ? ORDER BY chat_id",
            (since,),
        )
        return [int(r["chat_id"]) for r in rows]

    async def for_player(self, user_id: int) -> list[DuelResult]:
        """Every result `user_id` played in, in any chat, oldest first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM results WHERE player0_id = ? OR player1_id = ?"
            " ORDER BY finished_at, duel_id",
            (user_id, user_id),
        )
        return [_result(r) for r in rows]

    async def recent(self, chat_id: int, limit: int = 10) -> list[DuelResult]:
        """The chat's latest results, newest first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM results WHERE chat_id = ?"
            " ORDER BY finished_at DESC, duel_id DESC LIMIT ?",
            (chat_id, limit),
        )
        return [_result(r) for r in rows]

    async def recent_for_player(self, user_id: int, limit: int = 10) -> list[DuelResult]:
        """`user_id`'s latest results in any chat, newest first."""
        rows = await self.db.fetchall(
            f"SELECT {_COLUMNS} FROM results WHERE player0_id = ? OR player1_id = ?"
            " ORDER BY finished_at DESC, duel_id DESC LIMIT ?",
            (user_id, user_id, limit),
        )
        return [_result(r) for r in rows]
