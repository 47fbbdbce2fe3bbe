"""Challenges: a pending invitation to a duel, settled exactly once.

A challenge starts `pending` at version 0. Accept, decline, withdraw (cancel) and expiry all
race for it through `transition`, a compare-and-swap on the version: exactly one wins.

A player has at most one pending challenge per chat: `create` checks and inserts in one
transaction (and the unique index `challenges_one_pending` backs it), returning
`AlreadyPending` instead of a second one. The row is saved before its message is sent (the
buttons carry its id and version); a send that failed is undone with `discard_unsent`, and a
challenge whose message was never recorded (a crash between the insert and the send) stops
blocking its player after `UNSENT_GRACE` seconds (`expire_unsent`).

An accepted challenge stays with its duel (its message is the duel's header). One declined,
withdrawn or expired is nobody's a while after its expiry time: a press on its old buttons
finds it settled or gone alike ("no longer open"). So every `create` first drops those
`KEEP_SETTLED` seconds past their expiry (`prune`, through their own partial index): the
table holds the duels' challenges and the last day's others, not every challenge ever made.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Database, Row, UniqueViolation
from bot.storage.rows import record_of
from bot.storage.users import normalize_username

# Seconds after which a pending challenge with no message recorded counts as never sent: more
# than a send to Telegram takes with its retries when all goes well, so a challenge whose
# message is on its way is left alone.
UNSENT_GRACE = 10
KEEP_SETTLED = 24 * 3600  # seconds past its expiry time a settled, unaccepted challenge stays


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


@dataclass(frozen=True, slots=True)
class AlreadyPending:
    """Why `create` made nothing: the challenger already has a pending challenge in the chat
    (`existing`; None when it was inserted concurrently and could not be read back)."""

    existing: ChallengeRecord | None


@dataclass(frozen=True, slots=True)
class Settled:
    """A challenge this call settled, and the message showing it when it was settled (None:
    not known yet; its sender then finds the challenge settled and edits the message)."""

    message_id: int | None


def _challenge(row: Row) -> ChallengeRecord:
    return record_of(ChallengeRecord, row, status=ChallengeStatus(row["status"]))


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
    ) -> ChallengeRecord | AlreadyPending:
        """A new pending challenge, unless the challenger has one in this chat already.

        One transaction: a never-sent challenge of theirs older than `UNSENT_GRACE` is expired
        first (it must not block them), then the check, then the insert. Before it, apart (it
        is no part of this challenge, and holds no lock through it), `prune`.
        """
        if stack <= 0:
            raise ValueError("a challenge needs a positive stack")
        target_username = normalize_username(target_username)
        await self.prune(before=created_at - KEEP_SETTLED)
        async with self.db.transaction():
            await self.db.execute(
                "UPDATE challenges SET status = 'expired', version = version + 1"
                " WHERE chat_id = ? AND challenger_id = ? AND status = 'pending'"
                " AND message_id IS NULL AND created_at <= ?",
                (chat_id, challenger_id, created_at - UNSENT_GRACE),
            )
            pending = await self.pending_by_challenger(chat_id, challenger_id)
            if pending:
                return AlreadyPending(pending[0])
            try:
                async with self.db.transaction():  # a savepoint: the expiry above stays
                    challenge_id = await self.db.insert(
                        "INSERT INTO challenges (chat_id, thread_id, challenger_id, target_id,"
                        " target_username, stack, created_at, expires_at)"
                        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (chat_id, thread_id, challenger_id, target_id, target_username, stack,
                         created_at, expires_at),
                    )
            except UniqueViolation:
                return AlreadyPending(None)  # challenges_one_pending: another insert won
        return ChallengeRecord(
            challenge_id, chat_id, thread_id, challenger_id, target_id, target_username, stack,
            ChallengeStatus.PENDING, 0, None, None, created_at, expires_at,
        )

    async def get(self, challenge_id: int) -> ChallengeRecord | None:
        row = await self.db.fetchone("SELECT * FROM challenges WHERE id = ?", (challenge_id,))
        return _challenge(row) if row else None

    async def set_message(self, challenge_id: int, message_id: int) -> bool:
        """Remember the message that shows a pending challenge; False if it was settled
        before its message was known (then whoever settled it could not edit the message:
        the caller must). With `transition` reporting the message id it saw, exactly one of
        the two edits a settled challenge's message."""
        changed = await self.db.execute(
            "UPDATE challenges SET message_id = ? WHERE id = ? AND status = 'pending'",
            (message_id, challenge_id),
        )
        return changed > 0

    async def discard_unsent(self, challenge_id: int) -> bool:
        """Undo a challenge whose message could not be sent (still pending, no message
        recorded): it never existed for anyone. False if it was settled or shown meanwhile."""
        changed = await self.db.execute(
            "DELETE FROM challenges WHERE id = ? AND status = 'pending' AND message_id IS NULL",
            (challenge_id,),
        )
        return changed == 1

    async def expire_unsent(self, before: int) -> int:
        """Expire every pending challenge created at or before `before` whose message was
        never recorded (the bot stopped between saving and sending). Returns how many."""
        return await self.db.execute(
            "UPDATE challenges SET status = 'expired', version = version + 1"
            " WHERE status = 'pending' AND message_id IS NULL AND created_at <= ?",
            (before,),
        )

    async def transition(
        self,
        challenge_id: int,
        expected_version: int,
        new_status: ChallengeStatus,
        duel_id: int | None = None,
    ) -> Settled | None:
        """Settle a pending challenge if it is still at `expected_version`: what it settled
        (with the message id recorded at that moment, the one to edit), or None if another
        settlement won.

        Accepting inside `db.transaction()` together with `DuelRepo.create` (passing the new
        duel's id) makes the duel exist exactly when the challenge is accepted.
        """
        if new_status is ChallengeStatus.PENDING:
            raise ValueError("a challenge can only leave 'pending'")
        if duel_id is not None and new_status is not ChallengeStatus.ACCEPTED:
            raise ValueError("only an accepted challenge has a duel")
        async with self.db.transaction():
            changed = await self.db.execute(
                "UPDATE challenges SET status = ?, duel_id = ?, version = version + 1"
                " WHERE id = ? AND version = ? AND status = 'pending'",
                (new_status.value, duel_id, challenge_id, expected_version),
            )
            if changed != 1:
                return None
            row = await self.db.fetchone("SELECT message_id FROM challenges WHERE id = ?",
                                         (challenge_id,))
        return Settled(row["message_id"] if row else None)

    async def of_duel(self, duel_id: int) -> ChallengeRecord | None:
        """The challenge that started the duel (its message is the duel's header): asked at
        every deal, found through `challenges_by_duel` (V18)."""
        row = await self.db.fetchone("SELECT * FROM challenges WHERE duel_id = ?", (duel_id,))
        return _challenge(row) if row else None

    async def in_chat(self, chat_id: int) -> list[ChallengeRecord]:
        """Every challenge of a chat, whatever its status, oldest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM challenges WHERE chat_id = ? ORDER BY id", (chat_id,)
        )
        return [_challenge(r) for r in rows]

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

    async def prune(self, *, before: int) -> int:
        """Drop the challenges declined, withdrawn or expired that were to expire before
        `before` (none a tournament's match still names); how many."""
        return await self.db.execute(
            "DELETE FROM challenges WHERE status IN ('declined', 'cancelled', 'expired')"
            " AND expires_at < ? AND NOT EXISTS"
            " (SELECT 1 FROM tournament_matches WHERE challenge_id = challenges.id)",
            (before,),
        )

    async def expire_chat(self, chat_id: int) -> int:
        """Expire every pending challenge in a chat (the bot was removed); returns how many."""
        return await self.db.execute(
            "UPDATE challenges SET status = 'expired', version = version + 1"
            " WHERE chat_id = ? AND status = 'pending'",
            (chat_id,),
        )
