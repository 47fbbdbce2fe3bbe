"""Challenges: a pending invitation to a duel, settled exactly once.

A challenge starts `pending` at version 0. Accept, decline, withdraw (cancel) and expiry all
race for it through `transition`, a compare-and-swap on the version: exactly one wins.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Database
from bot.storage.users import normalize_username


class ChallengeStatus(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"  # withdrawn by the challenger
    EXPIRED = "expired"


@dataclass(frozen=True, slots=True)
class ChallengeRecord:
    id: int
    chat_id: int
    thread_id: int | None
    challenger_id: int
    target_id: int | None  # None: open to anyone in the chat, or known by username only
    target_username: str | None
    stack: int
    status: ChallengeStatus
    version: int
    message_id: int | None
    duel_id: int | None  # the duel an accepted challenge started
    created_at: int
    expires_at: int

    @property
    def is_pending(self) -> bool:
        return self.status is ChallengeStatus.PENDING


def _challenge(row: sqlite3.Row) -> ChallengeRecord:
    return ChallengeRecord(
        id=row["id"], chat_id=row["chat_id"], thread_id=row["thread_id"],
        challenger_id=row["challenger_id"], target_id=row["target_id"],
        target_username=row["target_username"], stack=row["stack"],
        status=ChallengeStatus(row["status"]), version=row["version"],
        message_id=row["message_id"], duel_id=row["duel_id"],
        created_at=row["created_at"], expires_at=row["expires_at"],
    )


class ChallengeRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        chat_id: int,
        thread_id: int | None,
        challenger_id: int,
        target_id: int | None,
        target_username: str | None,
        stack: int,
        created_at: int,
        expires_at: int,
    ) -> ChallengeRecord:
        if stack <= 0:
            raise ValueError("a challenge needs a positive stack")
        target_username = normalize_username(target_username)
        challenge_id = await self.db.insert(
            "INSERT INTO challenges (chat_id, thread_id, challenger_id, target_id,"
            " target_username, stack, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (chat_id, thread_id, challenger_id, target_id, target_username, stack, created_at,
             expires_at),
        )
        return ChallengeRecord(
            challenge_id, chat_id, thread_id, challenger_id, target_id, target_username, stack,
            ChallengeStatus.PENDING, 0, None, None, created_at, expires_at,
        )

    async def get(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self.db.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return _challenge(row) if row else None

    async def set_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message that shows the challenge (to edit it when it is settled)."""
        changed = await self.db.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )
        return changed > 0

    async def transition(
        self,
        challenge_id: int,
        expected_version: int,
        new_status: ChallengeStatus,
        duel_id: int | None = None,
    ) -> bool:
        """Settle a pending challenge if it is still at `expected_version`; True if this won.

        Accepting inside `db.transaction()` together with `DuelRepo.create` (passing the new
        duel's id) makes the duel exist exactly when the challenge is accepted.
        """
        if new_status is ChallengeStatus.PENDING:
            raise ValueError("a challenge can only leave 'pending'")
        if duel_id is not None and new_status is not ChallengeStatus.ACCEPTED:
            raise ValueError("only an accepted challenge has a duel")
        changed = await self.db.execute(
            "UPDATE challenges SET status = ?, duel_id = ?, version = version + 1"
            " WHERE id = ? AND version = ? AND status = 'pending'",
            (new_status.value, duel_id, challenge_id, expected_version),
        )
        return changed == 1

    async def list_pending(self) -> list[ChallengeRecord]:
        """Every pending challenge, soonest expiry first (to restore expiry timers)."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE status = 'pending' ORDER BY expires_at, id"
        )
        return [_challenge(r) for r in rows]

    async def pending_by_challenger(
        self, chat_id: int, challenger_id: int
    ) -> list[ChallengeRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE chat_id = ? AND challenger_id = ?"
            " AND status = 'pending' ORDER BY id",
            (chat_id, challenger_id),
        )
        return [_challenge(r) for r in rows]

    async def expire_chat(self, chat_id: int) -> int:
        """Expire every pending challenge in a chat (the bot was removed); returns how many."""
        return await self.db.execute(
            "UPDATE challenges SET status = 'expired', version = version + 1"
            " WHERE chat_id = ? AND status = 'pending'",
            (chat_id,),
        )
