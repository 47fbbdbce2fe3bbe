"""Each player's casino balance per chat: the chips six-card poker is played with.

A balance is never negative (a CHECK, and every write is conditional) and never spent twice:

* a new six-card game takes its stake from the balance in the transaction that inserts the
  game, as a compare-and-swap on the balance's version (`take`; the caller read it to build
  the game);
* every save of a game moves the chips its action moved, in the save's transaction (`move`),
  and so is the game's net once it is over;
* `rebuy` gives a player at zero a fresh balance at most once per `REBUY_EVERY` seconds, never
  while a game of theirs is live (its stakes are off the balance), and counts it.

No game rule here: the chips each save moves are the caller's (the rules') to compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.storage.db import Database, Rollback, Row, StorageError, chat_lock
from bot.storage.rows import record_of

START_BALANCE = 1000
REBUY_EVERY = 24 * 3600  # seconds between two rebuys


@dataclass(frozen=True, slots=True)
class BalanceRecord:
    chat_id: int
    user_id: int
    balance: int
    version: int
    rebuys: int
    last_rebuy_at: int | None
    games: int  # six-card games finished
    net: int  # their total net
    created_at: int
    updated_at: int


class RebuyRefusal(Enum):
    NOT_ZERO = "not_zero"
    TOO_SOON = "too_soon"
    IN_PLAY = "in_play"  # a live game holds stakes


@dataclass(frozen=True, slots=True)
class Rebuy:
    """What `rebuy` did: the balance after it, or why not (and, too soon, the wait left)."""

    balance: BalanceRecord
    refusal: RebuyRefusal | None = None
    wait: int = 0  # seconds until the next rebuy is allowed (TOO_SOON)

    @property
    def done(self) -> bool:
        return self.refusal is None


class BalanceError(StorageError):
    """A save would have taken the balance below zero: the game and the balance disagree.
    Nothing was written."""


def _balance(row: Row) -> BalanceRecord:
    return record_of(BalanceRecord, row)


async def take(db: Database, chat_id: int, user_id: int, stake: int, *, version: int,
               now: int) -> bool:
    """Take a new game's `stake` off the balance if it is still at `version` and holds it
    (call inside the transaction that inserts the game); False if not."""
    changed = await db.execute(
        "UPDATE balances SET balance = balance - ?, version = version + 1, updated_at = ?"
        " WHERE chat_id = ? AND user_id = ? AND version = ? AND balance >= ?",
        (stake, now, chat_id, user_id, version, stake))
    return changed == 1


async def move(db: Database, chat_id: int, user_id: int, moved: int, *, now: int,
               finished_net: int | None = None) -> bool:
    """Add `moved` chips (negative: a fee or a bet; positive: a payout or a refund) to the
    balance, counting a finished game and its net when `finished_net` is given; False (nothing
    written) if the balance would go below zero."""
    finished = 0 if finished_net is None else 1
    changed = await db.execute(
        "UPDATE balances SET balance = balance + ?, games = games + ?, net = net + ?,"
        " version = version + 1, updated_at = ? WHERE chat_id = ? AND user_id = ?"
        " AND balance + ? >= 0",
        (moved, finished, finished_net or 0, now, chat_id, user_id, moved))
    return changed == 1


class BalanceRepo:
    def __init__(self, db: Database, start_balance: int = START_BALANCE,
                 rebuy_every: int = REBUY_EVERY) -> None:
        self.db = db
        self.start_balance = start_balance
        self.rebuy_every = rebuy_every

    async def balance(self, chat_id: int, user_id: int, *, now: int) -> BalanceRecord:
        """The player's balance in the chat, opened with the starting balance on first use."""
        async with self.db.transaction():
            await self.db.execute(
                "INSERT INTO balances (chat_id, user_id, balance, created_at,"
                " updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (chat_id, user_id, self.start_balance, now, now),
            )
            found = await self.get_balance(chat_id, user_id)
        assert found is not None
        return found

    async def get_balance(self, chat_id: int, user_id: int) -> BalanceRecord | None:
        row = await self.db.fetchone(
            "SELECT * FROM balances WHERE chat_id = ? AND user_id = ?", (chat_id, user_id))
        return _balance(row) if row else None

    async def rebuy(self, chat_id: int, user_id: int, *, now: int) -> Rebuy:
        """A fresh starting balance for a player at zero, at most once per `rebuy_every`.
        Under the chat's lock: a second rebuy at once (another worker) reads the first's."""
        async with self.db.transaction(chat_lock(chat_id)):
            current = await self.balance(chat_id, user_id, now=now)
            if await self.db.fetchone(
                    "SELECT 1 FROM sixcard_games WHERE chat_id = ? AND user_id = ?"
                    " AND status = 'live'", (chat_id, user_id)) is not None:
                return Rebuy(current, RebuyRefusal.IN_PLAY)
            if current.balance != 0:
                return Rebuy(current, RebuyRefusal.NOT_ZERO)
            if current.last_rebuy_at is not None:
                wait = current.last_rebuy_at + self.rebuy_every - now
                if wait > 0:
                    return Rebuy(current, RebuyRefusal.TOO_SOON, wait)
            changed = await self.db.execute(
                "UPDATE balances SET balance = ?, rebuys = rebuys + 1, last_rebuy_at = ?,"
                " version = version + 1, updated_at = ?"
                " WHERE chat_id = ? AND user_id = ? AND version = ? AND balance = 0",
                (self.start_balance, now, now, chat_id, user_id, current.version),
            )
            if changed != 1:  # cannot happen inside the transaction; never give twice
                raise Rollback
            after = await self.get_balance(chat_id, user_id)
        assert after is not None
        return Rebuy(after)
