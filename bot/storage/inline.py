"""Duels between friends anywhere (inline mode): their pairs' "chats", and the challenges
posted through the bot in any chat.

* **A pair's chat.** A duel shown on an inline message has no chat the bot knows (a private
  chat between two people, a group without the bot). Its results, standings, head-to-head and
  ratings are kept as in a chat of their own: one per pair of players, whichever chats they
  play in (the same two people in two private chats are one pair), numbered from `PAIRS`
  downwards. Telegram's chat ids take at most 52 bits, so these never meet a real chat, and
  no group's board ever shows them.
* **An inline challenge** is its message: it is written down at the first press on it (or
  when Telegram says it was chosen), and a press settles it once (`settle`, a compare-and-swap
  from pending), whichever worker gets it.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.challenges import ChallengeStatus
from bot.storage.db import Database, Row, UniqueViolation
from bot.storage.rows import record_of

PAIRS = -(2**53)  # a pair's chat id is PAIRS - its row's id: below every Telegram chat id
KEEP = 2 * 86400  # seconds a challenge that never became a duel is kept


def is_pair_chat(chat_id: int) -> bool:
    """Is this the chat of a pair of players (their duels through inline mode)?"""
    return chat_id <= PAIRS


@dataclass(frozen=True, slots=True)
class InlineChallenge:
    inline_message_id: str
    challenger_id: int
    stack: int
    status: ChallengeStatus
    duel_id: int | None
    created_at: int


def _challenge(row: Row) -> InlineChallenge:
    return record_of(InlineChallenge, row, status=ChallengeStatus(row["status"]))


class InlineRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def pair_chat(self, a: int, b: int) -> int:
        """The chat id of the pair of users `a` and `b` (either order), made on first use."""
        if a == b:
            raise ValueError("a pair is two different players")
        low, high = min(a, b), max(a, b)
        for _ in range(2):  # made by another worker between the read and the insert: read
            row = await self.db.fetchone(
                "SELECT id FROM duel_pairs WHERE low_id = ? AND high_id = ?", (low, high))
            if row is not None:
                return PAIRS - int(row["id"])
            try:
                async with self.db.transaction():
                    new = await self.db.insert(
                        "INSERT INTO duel_pairs (low_id, high_id) VALUES (?, ?)", (low, high))
                return PAIRS - new
            except UniqueViolation:
                continue
        raise AssertionError("the pair's row is neither there nor insertable")

    async def players_of(self, chat_id: int) -> tuple[int, int] | None:
        """The two user ids of a pair's chat (None: not a pair's chat)."""
        if not is_pair_chat(chat_id):
            return None
        row = await self.db.fetchone("SELECT low_id, high_id FROM duel_pairs WHERE id = ?",
                                     (PAIRS - chat_id,))
        return None if row is None else (int(row["low_id"]), int(row["high_id"]))

    async def challenge(self, inline_message_id: str) -> InlineChallenge | None:
        row = await self.db.fetchone(
            "SELECT * FROM inline_challenges WHERE inline_message_id = ?", (inline_message_id,))
        return None if row is None else _challenge(row)

    async def post(self, inline_message_id: str, challenger_id: int, stack: int, *,
                   now: int) -> InlineChallenge:
        """The challenge on that message, written down as pending if it was not yet (a
        press, or Telegram's word that it was chosen, may come first, or twice)."""
        new = await self.db.execute(
            "INSERT INTO inline_challenges (inline_message_id, challenger_id, stack, created_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (inline_message_id) DO NOTHING",
            (inline_message_id, challenger_id, stack, now))
        if new:
            await self.prune(before=now - KEEP)
        found = await self.challenge(inline_message_id)
        assert found is not None
        return found

    async def settle(self, inline_message_id: str, status: ChallengeStatus,
                     duel_id: int | None = None) -> bool:
        """Pending -> `status` (with the duel it became); False if it was settled already."""
        changed = await self.db.execute(
            "UPDATE inline_challenges SET status = ?, duel_id = ?"
            " WHERE inline_message_id = ? AND status = 'pending'",
            (status.value, duel_id, inline_message_id))
        return changed == 1

    async def prune(self, *, before: int) -> int:
        """Forget the challenges made before `before` (unix seconds) that never became a duel:
        their buttons accept for a day only (bot.duel.inline), so the table keeps two days of
        them, not every challenge ever posted."""
        return await self.db.execute(
            "DELETE FROM inline_challenges WHERE duel_id IS NULL AND created_at < ?", (before,))
