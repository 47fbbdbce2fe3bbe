"""Duels: a `LiveGames` (`bot.storage.games`: the compare-and-swap save, which message shows
which version, the parsed states) with what is a duel's own: its two players, a practice
duel's level and hints, the deals its header shows, its messages, its review, and the result
written with the save that finishes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.db import Database, Row, chat_lock
from bot.storage.deals import Deal, record_deals
from bot.storage.games import (
    Also,
    ChatMessage,
    GameStatus,
    InlineMessage,
    LiveGames,
    LiveRecord,
    Where,
)
from bot.storage.practice import count_practice
from bot.storage.results import DuelResult, insert_result
from bot.storage.rows import record_of
from bot.storage.states import States
from rules.duel import DuelState

DuelStatus = GameStatus  # a duel's status is any game's
STATES: States[DuelState] = States(DuelState.from_json, DuelState.copy)  # parsed once


@dataclass(frozen=True, slots=True)
class DuelRecord(LiveRecord):
    players: tuple[int, int]  # user ids of player 0 and player 1 of the state
    header_rounds: int = 0  # deals whose commitment the duel's header shows
    ai_level: str | None = None  # a practice duel: the bot plays seat 1 at this level
    hints: int = 0  # the hints its player took (a practice duel)
    # Shown on this inline message (a duel between friends anywhere: its chat is their pair's,
    # bot.storage.inline), else on its chat's messages.
    inline_message_id: str | None = None

    @property
    def inline(self) -> bool:
        return self.inline_message_id is not None

    @property
    def shown_on(self) -> Where | None:
        if self.inline_message_id is not None:
            return InlineMessage(self.inline_message_id)
        return None if self.message_id is None else ChatMessage(self.chat_id, self.message_id)

    @property
    def practice(self) -> bool:
        return self.ai_level is not None

    def player_index(self, user_id: int) -> int | None:
        """0 or 1 for a player of this duel, None for anyone else."""
        return self.players.index(user_id) if user_id in self.players else None


def _duel(row: Row) -> DuelRecord:
    return record_of(DuelRecord, row, state_json=row["state"], status=GameStatus(row["status"]),
                     players=(row["player0_id"], row["player1_id"]))


class DuelRepo(LiveGames[DuelRecord, DuelState]):
    MOVED_RESET = ", header_rounds = 0"  # the header stays behind with the old messages
    INLINE = True

    def __init__(self, db: Database) -> None:
        super().__init__(db, "duel", "duels", _duel, STATES)

    async def create(
        self,
        chat_id: int,
        thread_id: int | None,
        players: tuple[int, int],
        state_json: str,
        created_at: int,
        deals: Iterable[Deal] = (),
        ai_level: str | None = None,
        inline_message_id: str | None = None,
    ) -> DuelRecord:
        """A new live duel; `deals`: those its state shows (`deals_of`), written with it;
        `ai_level`: a practice duel, the bot in seat 1; `inline_message_id`: shown on that
        inline message (UniqueViolation if a duel is shown there already)."""
        if players[0] == players[1]:
            raise ValueError("a duel needs two different players")
        async with self.db.transaction():
            duel_id = await self.db.insert(
                "INSERT INTO duels (chat_id, thread_id, player0_id, player1_id, state,"
                " created_at, updated_at, ai_level, inline_message_id)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, thread_id, players[0], players[1], state_json, created_at,
                 created_at, ai_level, inline_message_id),
            )
            await record_deals(self.db, duel_id, deals)
        return DuelRecord(
            id=duel_id, chat_id=chat_id, thread_id=thread_id, state_json=state_json, version=0,
            status=GameStatus.LIVE, message_id=None, shown_version=None, created_at=created_at,
            updated_at=created_at, players=players, ai_level=ai_level,
            inline_message_id=inline_message_id,
        )

    async def on_inline(self, inline_message_id: str) -> DuelRecord | None:
        """The duel shown on that inline message, if any."""
        found = await self.select("inline_message_id = ?", inline_message_id)
        return found[0] if found else None

    async def live_for_user_in_chat(self, chat_id: int, user_id: int) -> DuelRecord | None:
        found = await self.select("chat_id = ? AND status = 'live' AND (player0_id = ?"
                                  " OR player1_id = ?) ORDER BY id DESC LIMIT 1",
                                  chat_id, user_id, user_id)
        return found[0] if found else None

    async def with_salt(self, chat_id: int, salt_hex: str) -> DuelRecord | None:
        """The duel of `chat_id` with a finished deal of this salt (lowercase hex), if any."""
        row = await self.db.fetchone(
            "SELECT duels.* FROM deals JOIN duels ON duels.id = deals.duel_id"
            " WHERE deals.salt = ? AND duels.chat_id = ? ORDER BY duels.id DESC LIMIT 1",
            (salt_hex, chat_id),
        )
        return _duel(row) if row else None

    async def recent_in_chat(self, chat_id: int, limit: int) -> list[DuelRecord]:
        """The chat's latest duels, whatever their status, newest first."""
        return await self.select("chat_id = ? ORDER BY id DESC LIMIT ?", chat_id, limit)

    async def save(
        self,
        duel_id: int,
        expected_version: int,
        state_json: str,
        status: GameStatus = GameStatus.LIVE,
        *,
        now: int,
        state: DuelState | None = None,
        also: Also | None = None,
        lock: str | None = None,
        result: DuelResult | None = None,
        deals: Iterable[Deal] = (),
        practice_over: bool = False,
    ) -> int | None:
        """`LiveGames.save`, with a `result` (for a duel that this save finishes) and the
        `deals` the new state shows (`deals_of`: a new deal, the salt of one that ended)
        written in the same transaction; `practice_over`: it finishes a practice duel, whose
        player's tally (`state`'s winner) moves with it (bot.storage.practice)."""
        if result is not None and (result.duel_id != duel_id or status is not GameStatus.FINISHED):
            raise ValueError("a result goes with the save that finishes the same duel")
        deals = tuple(deals)
        if practice_over and state is None:
            raise ValueError("a practice duel's finishing save says who won: its state")
        if deals or result is not None or practice_over:
            more = also

            async def also(db: Database) -> None:
                await record_deals(db, duel_id, deals)
                if result is not None:
                    await insert_result(db, result)
                if practice_over and state is not None:
                    await count_practice(db, duel_id, state.winner)
                if more is not None:
                    await more(db)

            if result is not None:  # it rates it, a read-then-write of the chat's ratings
                lock = lock or chat_lock(result.chat_id)
        return await super().save(duel_id, expected_version, state_json, status, now=now,
                                  state=state, also=also, lock=lock)

    def at(self, record: DuelRecord, state: DuelState, version: int) -> DuelState:
        """`state.at(version)` (the duel as a message that shows `version` shows it), the one
        kept when this process saved or read that version: read only."""
        found = self.states.find(record.id, lambda s: s.version == version)
        return found if found is not None else state.at(version)

    async def set_header_rounds(self, duel_id: int, rounds: int) -> None:
        """The duel's header now shows the commitments of its first `rounds` deals."""
        await self.db.execute(
            "UPDATE duels SET header_rounds = ? WHERE id = ? AND header_rounds < ?",
            (rounds, duel_id, rounds))

    async def note_message(self, chat_id: int, message_id: int, duel_id: int,
                           kind: str) -> None:
        """`message_id` in `chat_id` is one of the duel's (header, live, reveal, result)."""
        await self.db.execute(
            "INSERT INTO duel_messages (chat_id, message_id, duel_id, kind) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (chat_id, message_id) DO UPDATE SET kind = excluded.kind",
            (chat_id, message_id, duel_id, kind))

    async def messages_of(self, duel_id: int, kind: str) -> list[tuple[int, int]]:
        """The duel's messages of that kind, as (chat id, message id), oldest first."""
        rows = await self.db.fetchall(
            "SELECT chat_id, message_id FROM duel_messages WHERE duel_id = ? AND kind = ?"
            " ORDER BY message_id", (duel_id, kind))
        return [(int(r["chat_id"]), int(r["message_id"])) for r in rows]

    async def forget_message(self, chat_id: int, message_id: int) -> None:
        """That message is no longer one of a duel's (deleted)."""
        await self.db.execute("DELETE FROM duel_messages WHERE chat_id = ? AND message_id = ?",
                              (chat_id, message_id))

    async def by_message(self, chat_id: int, message_id: int) -> DuelRecord | None:
        """The duel that message of the chat belongs to, if it is one of a duel's."""
        row = await self.db.fetchone(
            "SELECT duels.* FROM duel_messages JOIN duels ON duels.id = duel_messages.duel_id"
            " WHERE duel_messages.chat_id = ? AND duel_messages.message_id = ?",
            (chat_id, message_id))
        return _duel(row) if row else None

    async def add_hint(self, duel_id: int) -> int:
        """Count one more hint taken in the duel; the count now (0: no such duel)."""
        async with self.db.transaction():
            await self.db.execute("UPDATE duels SET hints = hints + 1 WHERE id = ?", (duel_id,))
            row = await self.db.fetchone("SELECT hints FROM duels WHERE id = ?", (duel_id,))
        return int(row["hints"]) if row else 0

    async def review_of(self, duel_id: int) -> str | None:
        """The duel's stored review (rules.duel.review's JSON), once computed."""
        row = await self.db.fetchone("SELECT review FROM reviews WHERE duel_id = ?", (duel_id,))
        return str(row["review"]) if row else None

    async def keep_review(self, duel_id: int, review_json: str, *, now: int) -> None:
        await self.db.execute(
            "INSERT INTO reviews (duel_id, review, computed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (duel_id) DO NOTHING", (duel_id, review_json, now))
