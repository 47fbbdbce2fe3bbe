"""Six-card games: a `LiveGames` (`bot.storage.games`: the compare-and-swap save, which
message shows which version, the parsed states) with what is six-card's own: one player, the
game's net once over, and the chips each write moves on the player's balance
(`bot.storage.balances`), in the same transaction:

* `create` takes the new game's stake from the balance in the transaction that inserts the
  game, as a compare-and-swap on the balance's version (the caller read it to build the game),
  and only if the player has no live game in the chat (also a unique index);
* `save_game` adds the chips the action moved (a fee, a bet, the settlement) to the balance,
  and once the game is over, its net;
* `abandon_game` gives back what the game took.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from bot.storage.balances import BalanceError, move, take
from bot.storage.db import Database, Rollback, Row
from bot.storage.games import GameStatus, LiveGames, LiveRecord
from bot.storage.rows import record_of
from bot.storage.states import States
from rules.sixcard import SixCardGame


@dataclass(frozen=True, slots=True)
class SixCardRecord(LiveRecord):
    user_id: int
    net: int | None  # once finished


class Created(Enum):
    """Why `create` created nothing."""

    BUSY = "busy"  # the player has a live game in this chat
    CHANGED = "changed"  # the balance changed since it was read: read it again


def _game(row: Row) -> SixCardRecord:
    return record_of(SixCardRecord, row, state_json=row["state"],
                     status=GameStatus(row["status"]))


def _copy(game: SixCardGame) -> SixCardGame:
    return SixCardGame.from_json(game.to_json())  # the rules have no cheaper copy


STATES: States[SixCardGame] = States(SixCardGame.from_json, _copy)  # parsed once


class SixCardRepo(LiveGames[SixCardRecord, SixCardGame]):
    def __init__(self, db: Database) -> None:
        super().__init__(db, "sixcard", "sixcard_games", _game, STATES)

    async def create(
        self, chat_id: int, thread_id: int | None, user_id: int, state_json: str, *,
        stake: int, balance_version: int, now: int, state: SixCardGame | None = None,
    ) -> SixCardRecord | Created:
        """Insert a live game and take its `stake` from the balance, both or neither: only
        if the balance is still at `balance_version` (CHANGED otherwise), holds the stake,
        and the player has no live game in the chat (BUSY). `state`: the game `state_json`
        saves, kept for its readers."""
        if stake < 0:
            raise ValueError("a stake is not negative")
        try:
            async with self.db.transaction():
                if await self.live_game(chat_id, user_id) is not None:
                    return Created.BUSY
                if not await take(self.db, chat_id, user_id, stake, version=balance_version,
                                  now=now):
                    raise Rollback
                game_id = await self.db.insert(
                    "INSERT INTO sixcard_games (chat_id, thread_id, user_id, state, created_at,"
                    " updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                    (chat_id, thread_id, user_id, state_json, now, now),
                )
        except Rollback:
            return Created.CHANGED
        if state is not None:
            self.states.kept(game_id, state_json, state)
        return SixCardRecord(
            id=game_id, chat_id=chat_id, thread_id=thread_id, state_json=state_json,
            version=0, status=GameStatus.LIVE, message_id=None, shown_version=None,
            created_at=now, updated_at=now, user_id=user_id, net=None)

    async def live_game(self, chat_id: int, user_id: int) -> SixCardRecord | None:
        found = await self.select("chat_id = ? AND user_id = ? AND status = 'live'",
                                  chat_id, user_id)
        return found[0] if found else None

    async def games_of(self, chat_id: int, user_id: int, limit: int = 20) -> list[SixCardRecord]:
        """The player's latest games in the chat, newest first."""
        return await self.select("chat_id = ? AND user_id = ? ORDER BY id DESC LIMIT ?",
                                 chat_id, user_id, limit)

    async def save_game(
        self, game: SixCardRecord, expected_version: int, state_json: str, *, moved: int,
        finished_net: int | None = None, now: int, state: SixCardGame | None = None,
    ) -> int | None:
        """Store the game's new state if it is live and still at `expected_version`, and add
        `moved` chips (negative: a fee or a bet; positive: a payout) to the balance in the
        same transaction. `finished_net` finishes the game with that net. Returns the new
        version, or None when someone saved first (nothing is written). BalanceError if the
        balance would go below zero."""

        async def chips(db: Database) -> None:
            if finished_net is not None:
                await db.execute("UPDATE sixcard_games SET net = ? WHERE id = ?",
                                 (finished_net, game.id))
            if not await move(db, game.chat_id, game.user_id, moved, now=now,
                              finished_net=finished_net):
                raise BalanceError(
                    f"game {game.id}: moving {moved} chips would overdraw the balance of "
                    f"user {game.user_id} in chat {game.chat_id}")

        status = GameStatus.LIVE if finished_net is None else GameStatus.FINISHED
        return await self.save(game.id, expected_version, state_json, status, now=now,
                               state=state,
                               also=chips if moved or finished_net is not None else None)

    async def abandon_game(self, game: SixCardRecord, *, refund: int, now: int) -> bool:
        """Close a live game without counting it and give `refund` chips (what it took from
        the balance) back, in one transaction. False if it was not live any more."""
        if refund < 0:
            raise ValueError("a refund is not negative")

        async def back(db: Database) -> None:
            await move(db, game.chat_id, game.user_id, refund, now=now)

        return await self.abandon(game.id, now=now, also=back)
