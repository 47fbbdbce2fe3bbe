"""Storage on SQLite (the default) or PostgreSQL: one `Database`, one repository per aggregate.

    storage = await Storage.open(config.database)     # a Location, or a path or URL (engines)
    duel = await storage.duels.get(duel_id)
    new_version = await storage.duels.save(duel.id, duel.version, state.to_json(), now=now)
    async with storage.transaction():                 # several repositories' writes, all or none
        ...
    async with storage.transaction(lock=chat_lock(chat_id)):  # and one at a time per chat,
        ...                                                    # across every worker
    await storage.close()

Features reach the database only through `Storage`: its repositories, `transaction()` and
`move_chat()`; nothing outside this package sees SQL, a connection or `storage.db`. They ask what
the engine can do (`storage.can`), never its name. See `db.py` for the seam and transactions,
`engines.py` for the engines by scheme, `schema/` for the schema.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import dataclass
from os import PathLike

from bot.storage import counts, ratings, row_cache, standings
from bot.storage.balances import BalanceRepo
from bot.storage.challenges import ChallengeRecord, ChallengeRepo, ChallengeStatus
from bot.storage.chat_move import ChatMove, move_chat
from bot.storage.chats import ChatRecord, ChatRepo, ChatSettings
from bot.storage.db import (
    Capabilities,
    Database,
    HeldLock,
    Location,
    Rollback,
    StorageError,
    UniqueViolation,
    chat_lock,
)
from bot.storage.deals import Deal, backfill, deals_of
from bot.storage.deletes import DeleteRepo
from bot.storage.duels import DuelRecord, DuelRepo, DuelStatus
from bot.storage.engines import locate, open_database
from bot.storage.flood import FloodRecord, FloodRepo
from bot.storage.games import ChatMessage, GameStatus, LiveGames, LiveRecord
from bot.storage.inbox import InboxRepo, Incoming
from bot.storage.jobs import DueJob, JobCounts, JobRepo
from bot.storage.meta import MetaRepo
from bot.storage.practice import PracticeRepo, PracticeTally
from bot.storage.ratings import RatingRepo
from bot.storage.results import DuelResult, ResultReason, ResultRepo
from bot.storage.schema import MIGRATIONS
from bot.storage.sixcard import SixCardRecord, SixCardRepo
from bot.storage.standings import BoardPage, Placed, SeasonLine, StandingsRepo
from bot.storage.timers import TimerRecord, TimerRepo
from bot.storage.tournaments import (
    MatchRecord,
    TournamentRecord,
    TournamentRepo,
    TournamentStatus,
)
from bot.storage.users import UserRecord, UserRepo
from bot.storage.watch import Watcher, watch

__all__ = [
    "MIGRATIONS",
    "BalanceRepo",
    "BoardPage",
    "Capabilities",
    "ChallengeRecord",
    "ChallengeRepo",
    "ChallengeStatus",
    "ChatMessage",
    "ChatMove",
    "ChatRecord",
    "ChatRepo",
    "ChatSettings",
    "Database",
    "Deal",
    "DeleteRepo",
    "DueJob",
    "DuelRecord",
    "DuelRepo",
    "DuelResult",
    "DuelStatus",
    "FloodRecord",
    "FloodRepo",
    "GameStatus",
    "HeldLock",
    "InboxRepo",
    "Incoming",
    "JobCounts",
    "JobRepo",
    "LiveGames",
    "LiveRecord",
    "Location",
    "MatchRecord",
    "MetaRepo",
    "Placed",
    "PracticeRepo",
    "PracticeTally",
    "RatingRepo",
    "ResultReason",
    "ResultRepo",
    "Rollback",
    "SeasonLine",
    "SixCardRecord",
    "SixCardRepo",
    "StandingsRepo",
    "Storage",
    "StorageError",
    "TimerRecord",
    "TimerRepo",
    "TournamentRecord",
    "TournamentRepo",
    "TournamentStatus",
    "UniqueViolation",
    "UserRecord",
    "UserRepo",
    "Watcher",
    "chat_lock",
    "deals_of",
    "locate",
    "open_database",
    "watch",
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
    balances: BalanceRepo  # the casino's balances, six-card poker's chips
    sixcard: SixCardRepo  # six-card poker's games
    timers: TimerRepo  # turn timers
    flood: FloodRepo  # the flood budget all workers share (bot.telegram.flood.DatabaseWindow)
    inbox: InboxRepo  # the updates from Telegram, saved before they are acknowledged
    jobs: JobRepo  # due rows: what must happen later, claimed by any worker (bot.common.due)
    standings: StandingsRepo  # the standings kept as results are saved: boards, cards, charts
    practice: PracticeRepo  # practice duels against the bot, counted

    @classmethod
    def over(cls, db: Database) -> Storage:
        return cls(db, ChatRepo(db), UserRepo(db), ChallengeRepo(db), DuelRepo(db), ResultRepo(db),
                   MetaRepo(db), RatingRepo(db), TournamentRepo(db), DeleteRepo(db),
                   BalanceRepo(db), SixCardRepo(db), TimerRepo(db), FloodRepo(db),
                   InboxRepo(db), JobRepo(db), StandingsRepo(db), PracticeRepo(db))

    @classmethod
    async def open(cls, where: str | PathLike[str] | Location) -> Storage:
        """Open and migrate the database (a Location, or a SQLite path or URL, or a PostgreSQL
        URL: `bot.storage.engines`); after
        migration V6, record the deals of the duels saved before it (once:
        `bot.storage.deals.backfill`); after V10, compute the ratings of the results stored
        before it (once: `bot.storage.ratings.backfill`); after V18, keep the standings of
        the results stored before it (once, in batches: `bot.storage.standings.backfill`)."""
        db = await open_database(where)
        try:
            await backfill(db)
            await ratings.backfill(db)
            await standings.backfill(db)
        except BaseException:
            await db.close()
            raise
        return cls.over(db)

    @property
    def engine(self) -> str:
        """The engine's name, to show (metrics, `db copy`); what it can do is `can`."""
        return self.db.engine

    @property
    def can(self) -> Capabilities:
        """What the engine can do (one process only, advisory locks, SKIP LOCKED)."""
        return self.db.can

    @asynccontextmanager
    async def transaction(self, lock: str | None = None) -> AsyncIterator[None]:
        """The repositories' writes in the block commit together or not at all (see
        `Database.transaction`: any exception undoes it, `Rollback` on purpose); with a
        `lock` key (`chat_lock(chat_id)`), no other worker's transaction with that key runs
        meanwhile (a read-then-write of the chat's rows is as if one at a time)."""
        async with self.db.transaction(lock):
            yield

    def one_update(self) -> AbstractContextManager[None]:
        """Around one update's handling: shared by several processes (PostgreSQL), its user,
        chat and settings are read once for the whole update (`bot.storage.row_cache`)."""
        return row_cache.one_update()

    async def try_hold(self, name: str) -> HeldLock | None:
        """A lock held by one process at a time until released or the process ends
        (`Database.try_hold`): the poller's role."""
        return await self.db.try_hold(name)

    async def move_chat(self, old_id: int, new_id: int, *, now: int) -> ChatMove:
        """Every row of chat `old_id` moved to `new_id` (a group that became a supergroup)."""
        return await move_chat(self.db, old_id, new_id, now=now)

    async def ping(self) -> None:
        """Return once the database answers a trivial query; StorageError if it cannot."""
        await self.db.ping()

    async def live_games(self) -> counts.LiveCounts:
        """How many games are live now in the whole database (every worker's)."""
        return await counts.live_counts(self.db)

    async def close(self) -> None:
        await self.db.close()
