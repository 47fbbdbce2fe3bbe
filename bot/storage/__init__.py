"""SQLite storage through aiosqlite: one `Database`, one repository per aggregate.

    storage = await Storage.open(config.db_path)
    duel = await storage.duels.get(duel_id)
    new_version = await storage.duels.save(duel.id, duel.version, state.to_json(), now=now)
    await storage.close()

See `db.py` for transactions and `migrations.py` for the schema.
"""

from __future__ import annotations

from dataclasses import dataclass
from os import PathLike

from bot.storage import ratings
from bot.storage.challenges import ChallengeRecord, ChallengeRepo, ChallengeStatus
from bot.storage.chats import ChatRecord, ChatRepo, ChatSettings
from bot.storage.db import Database, Rollback, StorageError
from bot.storage.deals import Deal, backfill, deals_of
from bot.storage.deletes import DeleteRepo
from bot.storage.duels import DuelRecord, DuelRepo, DuelStatus
from bot.storage.meta import MetaRepo
from bot.storage.migrations import MIGRATIONS
from bot.storage.ratings import RatingRepo
from bot.storage.results import DuelResult, ResultReason, ResultRepo
from bot.storage.tournaments import (
    MatchRecord,
    TournamentRecord,
    TournamentRepo,
    TournamentStatus,
)
from bot.storage.users import UserRecord, UserRepo

__all__ = [
    "MIGRATIONS",
    "ChallengeRecord",
    "ChallengeRepo",
    "ChallengeStatus",
    "ChatRecord",
    "ChatRepo",
    "ChatSettings",
    "Database",
    "Deal",
    "DeleteRepo",
    "DuelRecord",
    "DuelRepo",
    "DuelResult",
    "DuelStatus",
    "MatchRecord",
    "MetaRepo",
    "RatingRepo",
    "ResultReason",
    "ResultRepo",
    "Rollback",
    "Storage",
    "StorageError",
    "TournamentRecord",
    "TournamentRepo",
    "TournamentStatus",
    "UserRecord",
    "UserRepo",
    "deals_of",
]


@dataclass(frozen=True, slots=True)
class Storage:
    """The database with every repository over it."""

    db: Database
    chats: ChatRepo
    users: UserRepo
    challenges: ChallengeRepo
    duels: DuelRepo
    results: ResultRepo
    meta: MetaRepo
    ratings: RatingRepo
    tournaments: TournamentRepo
    deletes: DeleteRepo  # the janitor's journal

    @classmethod
    def over(cls, db: Database) -> Storage:
        return cls(db, ChatRepo(db), UserRepo(db), ChallengeRepo(db), DuelRepo(db), ResultRepo(db),
                   MetaRepo(db), RatingRepo(db), TournamentRepo(db), DeleteRepo(db))

    @classmethod
    async def open(cls, path: str | PathLike[str]) -> Storage:
        """Open and migrate the database; after migration V6, record the deals of the duels
        saved before it (once: `bot.storage.deals.backfill`); after V10, compute the ratings
        of the results stored before it (once: `bot.storage.ratings.backfill`)."""
        db = await Database.open(path)
        try:
            await backfill(db)
            await ratings.backfill(db)
        except BaseException:
            await db.close()
            raise
        return cls.over(db)

    async def close(self) -> None:
        await self.db.close()
