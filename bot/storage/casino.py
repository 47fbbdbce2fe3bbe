"""The casino: each player's balance per chat and their six-card games.

A balance is never negative (a CHECK, and every write is conditional) and never spent twice:

* `create_game` takes a new game's stake from the balance in the transaction that inserts the
  game, as a compare-and-swap on the balance's version (the caller read it to build the game),
  and only if the player has no live game in the chat (also a unique index).
* `save_game` is a compare-and-swap on the game's version; the chips the action moved (a fee,
  a bet, the settlement) are written to the balance in the same transaction, and so is the
  game's net once it is over.
* `rebuy` gives a player at zero a fresh balance at most once per `REBUY_EVERY` seconds, never
  while a game of theirs is live (its stakes are off the balance), and counts it.

No game rule here: the chips each save moves are the caller's (the rules') to compute.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum

from bot.storage.db import Database, Rollback, Row, StorageError, chat_lock

START_BALANCE = 1000
REBUY_EVERY = 24 * 3600  # seconds between two rebuys


class GameStatus(StrEnum):
    LIVE = "live"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # the chat went away: the stakes went back to the balance


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


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    chat_id: int
    thread_id: int | None
    user_id: int
    state_json: str
    version: int
    status: GameStatus
    message_id: int | None
    shown_version: int | None
    created_at: int
    updated_at: int
    net: int | None  # once finished

    @property
    def is_live(self) -> bool:
        return self.status is GameStatus.LIVE

    @property
    def needs_redraw(self) -> bool:
        return self.shown_version != self.version


class Created(Enum):
    """Why `create_game` created nothing."""

    BUSY = "busy"  # the player has a live game in this chat
    CHANGED = "changed"  # the balance changed since it was read: read it again


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
    return BalanceRecord(
        chat_id=row["chat_id"], user_id=row["user_id"], balance=row["balance"],
        version=row["version"], rebuys=row["rebuys"], last_rebuy_at=row["last_rebuy_at"],
        games=row["games"], net=row["net"], created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def _game(row: Row) -> GameRecord:
    return GameRecord(
        id=row["id"], chat_id=row["chat_id"], thread_id=row["thread_id"],
        user_id=row["user_id"], state_json=row["state"], version=row["version"],
        status=GameStatus(row["status"]), message_id=row["message_id"],
        shown_version=row["shown_version"], created_at=row["created_at"],
        updated_at=row["updated_at"], net=row["net"],
    )


class CasinoRepo:
    def __init__(self, db: Database, start_balance: int = START_BALANCE,
                 rebuy_every: int = REBUY_EVERY) -> None:
        self.db = db
        self.start_balance = start_balance
        self.rebuy_every = rebuy_every

    # --- balances -----------------------------------------------------------------------

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
            if await self.live_game(chat_id, user_id) is not None:
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

    # --- games --------------------------------------------------------------------------

    async def create_game(
        self, chat_id: int, thread_id: int | None, user_id: int, state_json: str, *,
        stake: int, balance_version: int, now: int,
    ) -> GameRecord | Created:
        """Insert a live game and take its `stake` from the balance, both or neither: only
        if the balance is still at `balance_version` (CHANGED otherwise), holds the stake,
        and the player has no live game in the chat (BUSY)."""
        if stake < 0:
            raise ValueError("a stake is not negative")
        try:
            async with self.db.transaction():
                if await self.live_game(chat_id, user_id) is not None:
                    return Created.BUSY
                changed = await self.db.execute(
                    "UPDATE balances SET balance = balance - ?, version = version + 1,"
                    " updated_at = ? WHERE chat_id = ? AND user_id = ? AND version = ?"
                    " AND balance >= ?",
                    (stake, now, chat_id, user_id, balance_version, stake),
                )
                if changed != 1:
                    raise Rollback
                game_id = await self.db.insert(
                    "INSERT INTO sixcard_games (chat_id, thread_id, user_id, state, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (chat_id, thread_id, user_id, state_json, now, now),
                )
        except Rollback:
            return Created.CHANGED
        return GameRecord(game_id, chat_id, thread_id, user_id, state_json, 0, GameStatus.LIVE,
                          None, None, now, now, None)

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self.db.fetchone("SELECT * FROM sixcard_games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def live_game(self, chat_id: int, user_id: int) -> GameRecord | None:
        row = await self.db.fetchone(
            "SELECT * FROM sixcard_games WHERE chat_id = ? AND user_id = ? AND status = 'live'",
            (chat_id, user_id),
        )
        return _game(row) if row else None

    async def live_in_chat(self, chat_id: int) -> list[GameRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM sixcard_games WHERE chat_id = ? AND status = 'live' ORDER BY id",
            (chat_id,))
        return [_game(r) for r in rows]

    async def games_of(self, chat_id: int, user_id: int, limit: int = 20) -> list[GameRecord]:
        """The player's latest games in the chat, newest first."""
        rows = await self.db.fetchall(
            "SELECT * FROM sixcard_games WHERE chat_id = ? AND user_id = ?"
            " ORDER BY id DESC LIMIT ?", (chat_id, user_id, limit))
        return [_game(r) for r in rows]

    async def lagging(self) -> list[GameRecord]:
        """Games whose message does not show the saved version (the bot stopped, or Telegram
        failed, between the save and the edit)."""
        rows = await self.db.fetchall(
            "SELECT * FROM sixcard_games WHERE status <> 'abandoned'"
            " AND (shown_version IS NULL OR shown_version <> version) ORDER BY id")
        return [_game(r) for r in rows]

    async def save_game(
        self, game: GameRecord, expected_version: int, state_json: str, *, moved: int,
        finished_net: int | None = None, now: int,
    ) -> int | None:
        """Store the game's new state if it is live and still at `expected_version`, and add
        `moved` chips (negative: a fee or a bet; positive: a payout) to the balance in the
        same transaction. `finished_net` finishes the game with that net. Returns the new
        version, or None when someone saved first (nothing is written). BalanceError if the
        balance would go below zero."""
        status = GameStatus.LIVE if finished_net is None else GameStatus.FINISHED
        async with self.db.transaction():
            changed = await self.db.execute(
                "UPDATE sixcard_games SET state = ?, status = ?, net = ?, version = version + 1,"
                " updated_at = ? WHERE id = ? AND version = ? AND status = 'live'",
                (state_json, status.value, finished_net, now, game.id, expected_version),
            )
            if changed != 1:
                return None
            finished = 0 if finished_net is None else 1
            if moved or finished:
                changed = await self.db.execute(
                    "UPDATE balances SET balance = balance + ?, games = games + ?,"
                    " net = net + ?, version = version + 1, updated_at = ?"
                    " WHERE chat_id = ? AND user_id = ? AND balance + ? >= 0",
                    (moved, finished, finished_net or 0, now, game.chat_id, game.user_id,
                     moved),
                )
                if changed != 1:
                    raise BalanceError(
                        f"game {game.id}: moving {moved} chips would overdraw the balance of "
                        f"user {game.user_id} in chat {game.chat_id}")
        return expected_version + 1

    async def abandon_game(self, game: GameRecord, *, refund: int, now: int) -> bool:
        """Close a live game without counting it and give `refund` chips (what it took from
        the balance) back, in one transaction. False if it was not live any more."""
        if refund < 0:
            raise ValueError("a refund is not negative")
        async with self.db.transaction():
            changed = await self.db.execute(
                "UPDATE sixcard_games SET status = 'abandoned', version = version + 1,"
                " updated_at = ? WHERE id = ? AND status = 'live'", (now, game.id))
            if changed != 1:
                return False
            await self.db.execute(
                "UPDATE balances SET balance = balance + ?, version = version + 1,"
                " updated_at = ? WHERE chat_id = ? AND user_id = ?",
                (refund, now, game.chat_id, game.user_id))
        return True

    async def set_message(self, game_id: int, message_id: int, shown_version: int) -> bool:
        """Record which message shows the game, at which version; never goes back."""
        changed = await self.db.execute(
            "UPDATE sixcard_games SET message_id = ?, shown_version = ?"
            " WHERE id = ? AND (shown_version IS NULL OR shown_version <= ?)",
            (message_id, shown_version, game_id, shown_version),
        )
        return changed == 1

    async def mark_shown(self, game_id: int, shown_version: int) -> None:
        """Stop trying to show a game whose chat is gone (its message stays as it is)."""
        await self.db.execute(
            "UPDATE sixcard_games SET shown_version = ? WHERE id = ?"
            " AND (shown_version IS NULL OR shown_version <= ?)",
            (shown_version, game_id, shown_version))
