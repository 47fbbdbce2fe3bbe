"""Finished duels' results, kept for standings and history."""

from __future__ import annotations

from bot.storage.db import Database, chat_lock
from bot.storage.ratings import rate
from bot.storage.result_record import COLUMNS as _COLUMNS
from bot.storage.result_record import DuelResult as DuelResult
from bot.storage.result_record import ResultReason as ResultReason
from bot.storage.result_record import result_of as _result
from bot.storage.standings import keep
from rules.rating import Game


async def insert_result(db: Database, result: DuelResult) -> None:
    """Write a result, move both players' ratings by it (bot.storage.ratings) and the
    standings kept from it (bot.storage.standings), together; inside `db.transaction()` they
    commit with whatever else is in there. The chat's lock first (the ratings' and standings'
    read-then-write needs it), before any row is locked."""
    r = result
    async with db.transaction(chat_lock(r.chat_id)):
        await db.execute(
            f"INSERT INTO results ({_COLUMNS})"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (r.duel_id, r.chat_id, *r.players, *r.final_stacks, r.start_stack, r.winner_id,
             r.reason.value, *r.best_hands, *r.bonus_chips, r.bullets, r.finished_at),
        )
        stored = await rate(db, Game(r.chat_id, r.players, r.winner_id))
        await keep(db, r, stored)


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
        """Every result in a chat, oldest first (for tests and checks: /stats reads the kept
        standings, bot.storage.standings)."""
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
        """Every result `user_id` played in, in any chat, oldest first (for tests and
        checks)."""
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
        """`user_id`'s latest results in any chat, newest first: the latest of each seat, on
        its own index (an OR of both seats reads neither's), merged."""
        seat = (f"SELECT * FROM (SELECT {_COLUMNS} FROM results WHERE {{}} = ?"
                " ORDER BY finished_at DESC, duel_id DESC LIMIT ?) AS {}")
        rows = await self.db.fetchall(
            f"{seat.format('player0_id', 'p0')} UNION ALL {seat.format('player1_id', 'p1')}"
            " ORDER BY finished_at DESC, duel_id DESC LIMIT ?",
            (user_id, limit, user_id, limit, limit),
        )
        return [_result(r) for r in rows]
