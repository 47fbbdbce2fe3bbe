"""Duels: the game state as JSON, updated only by compare-and-swap on its version.

Every applied action is one `save(id, expected_version, ...)`. It succeeds only if nobody saved
since the caller loaded the duel, so a double tap, a replayed update or a racing timer can never
apply an action twice: the loser gets None and should reload (or answer "stale button").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from bot.storage.db import Database, Row, chat_lock
from bot.storage.deals import Deal, record_deals
from bot.storage.results import DuelResult, insert_result


class DuelStatus(StrEnum):
    LIVE = "live"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # the chat went away (the bot was removed) before the end


@dataclass(frozen=True, slots=True)
class DuelRecord:
    id: int
    chat_id: int
    thread_id: int | None
    players: tuple[int, int]  # user ids of player 0 and player 1 of the state
    state_json: str
    version: int
    status: DuelStatus
    message_id: int | None  # the Telegram message showing the duel
    shown_version: int | None  # the version that message shows
    created_at: int
    updated_at: int
    header_rounds: int = 0  # deals whose commitment the duel's header shows
    ai_level: str | None = None  # a practice duel: the bot plays seat 1 at this level
    hints: int = 0  # the hints its player took (a practice duel)

    @property
    def practice(self) -> bool:
        return self.ai_level is not None

    @property
    def is_live(self) -> bool:
        return self.status is DuelStatus.LIVE

    @property
    def needs_redraw(self) -> bool:
        """The message does not show the saved version (e.g. a crash between save and edit)."""
        return self.shown_version != self.version

    def player_index(self, user_id: int) -> int | None:
        """0 or 1 for a player of this duel, None for anyone else."""
        return self.players.index(user_id) if user_id in self.players else None


def _duel(row: Row) -> DuelRecord:
    return DuelRecord(
        id=row["id"], chat_id=row["chat_id"], thread_id=row["thread_id"],
        players=(row["player0_id"], row["player1_id"]), state_json=row["state"],
        version=row["version"], status=DuelStatus(row["status"]), message_id=row["message_id"],
        shown_version=row["shown_version"], created_at=row["created_at"],
        updated_at=row["updated_at"], header_rounds=row["header_rounds"],
        ai_level=row["ai_level"], hints=row["hints"],
    )


class DuelRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def create(
        self,
        chat_id: int,
        thread_id: int | None,
        players: tuple[int, int],
        state_json: str,
        created_at: int,
        deals: Iterable[Deal] = (),
        ai_level: str | None = None,
    ) -> DuelRecord:
        """A new live duel; `deals`: those its state shows (`deals_of`), written with it;
        `ai_level`: a practice duel, the bot in seat 1."""
        if players[0] == players[1]:
            raise ValueError("a duel needs two different players")
        async with self.db.transaction():
            duel_id = await self.db.insert(
                "INSERT INTO duels (chat_id, thread_id, player0_id, player1_id, state,"
                " created_at, updated_at, ai_level) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (chat_id, thread_id, players[0], players[1], state_json, created_at,
                 created_at, ai_level),
            )
            await record_deals(self.db, duel_id, deals)
        return DuelRecord(
            duel_id, chat_id, thread_id, players, state_json, 0, DuelStatus.LIVE, None, None,
            created_at, created_at, ai_level=ai_level,
        )

    async def practice_of(self, chat_id: int, user_id: int) -> list[DuelRecord]:
        """The user's finished practice duels against the bot in this chat."""
        rows = await self.db.fetchall(
            "SELECT * FROM duels WHERE chat_id = ? AND player0_id = ? AND ai_level IS NOT NULL"
            " AND status = 'finished' ORDER BY id", (chat_id, user_id))
        return [_duel(r) for r in rows]

    async def get(self, duel_id: int) -> DuelRecord | None:
        row = await self.db.fetchone("SELECT * FROM duels WHERE id = ?", (duel_id,))
        return _duel(row) if row else None

    async def live_for_user_in_chat(self, chat_id: int, user_id: int) -> DuelRecord | None:
        row = await self.db.fetchone(
            "SELECT * FROM duels WHERE chat_id = ? AND status = 'live'"
            " AND (player0_id = ? OR player1_id = ?) ORDER BY id DESC LIMIT 1",
            (chat_id, user_id, user_id),
        )
        return _duel(row) if row else None

    async def live_in_chat(self, chat_id: int) -> list[DuelRecord]:
        rows = await self.db.fetchall(
            "SELECT * FROM duels WHERE chat_id = ? AND status = 'live' ORDER BY id", (chat_id,)
        )
        return [_duel(r) for r in rows]

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
        rows = await self.db.fetchall(
            "SELECT * FROM duels WHERE chat_id = ? ORDER BY id DESC LIMIT ?", (chat_id, limit)
        )
        return [_duel(r) for r in rows]

    async def all_live(self) -> list[DuelRecord]:
        """Every live duel, to bring their messages and timers back after a restart."""
        rows = await self.db.fetchall("SELECT * FROM duels WHERE status = 'live' ORDER BY id")
        return [_duel(r) for r in rows]

    async def lagging(self) -> list[DuelRecord]:
        """Live or finished duels whose message does not show the saved version (the bot
        stopped, or Telegram failed, between the save and the edit)."""
        rows = await self.db.fetchall(
            "SELECT * FROM duels WHERE status <> 'abandoned'"
            " AND (shown_version IS NULL OR shown_version <> version) ORDER BY id"
        )
        return [_duel(r) for r in rows]

    async def save(
        self,
        duel_id: int,
        expected_version: int,
        state_json: str,
        status: DuelStatus = DuelStatus.LIVE,
        *,
        now: int,
        result: DuelResult | None = None,
        deals: Iterable[Deal] = (),
    ) -> int | None:
        """Store a new state if the live duel is still at `expected_version`.

        Returns the new version, or None when someone else saved first (nothing is written).
        A `result` (for a duel that this save finishes) and the `deals` the new state shows
        (`deals_of`: a new deal, the salt of one that ended) are written in the same
        transaction.
        """
        if result is not None and (result.duel_id != duel_id or status is not DuelStatus.FINISHED):
            raise ValueError("a result goes with the save that finishes the same duel")
        # The save that writes a result rates it (a read-then-write of the chat's ratings):
        # the chat's lock first, before the duel's row is locked, as every holder takes it.
        deals = tuple(deals)
        update = ("UPDATE duels SET state = ?, status = ?, version = version + 1, updated_at = ?"
                  " WHERE id = ? AND version = ? AND status = 'live'",
                  (state_json, status.value, now, duel_id, expected_version))
        if not deals and result is None:  # most moves: one statement, no transaction around
            return expected_version + 1 if await self.db.execute(*update) == 1 else None
        async with self.db.transaction(None if result is None else chat_lock(result.chat_id)):
            if await self.db.execute(*update) != 1:
                return None
            await record_deals(self.db, duel_id, deals)
            if result is not None:
                await insert_result(self.db, result)
        return expected_version + 1

    async def set_message(self, duel_id: int, message_id: int, shown_version: int) -> bool:
        """Record which message shows the duel, at which version.

        Not a compare-and-swap on the duel, but it never goes back: a slow edit of an older
        version that finishes after a newer one is ignored (returns False).
        """
        changed = await self.db.execute(
            "UPDATE duels SET message_id = ?, shown_version = ?"
            " WHERE id = ? AND (shown_version IS NULL OR shown_version <= ?)",
            (message_id, shown_version, duel_id, shown_version),
        )
        return changed == 1

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

    async def abandon_chat(self, chat_id: int, *, now: int) -> list[int]:
        """Mark a chat's live duels abandoned (bumping their versions); returns their ids."""
        async with self.db.transaction():
            rows = await self.db.fetchall(
                "SELECT id FROM duels WHERE chat_id = ? AND status = 'live'", (chat_id,)
            )
            await self.db.execute(
                "UPDATE duels SET status = 'abandoned', version = version + 1, updated_at = ?"
                " WHERE chat_id = ? AND status = 'live'",
                (now, chat_id),
            )
        return [int(r["id"]) for r in rows]
