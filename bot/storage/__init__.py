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

A game's own repository (its module here, bot/storage/<game>.py: a `LiveGames`) is named by no
other file of storage: `storage.of(TheGameRepo)` builds it once per Storage, and
`Storage.open(where, games=...)` builds the app's games' (as they registered them), so that a
chat's move and the live count (`games`) take them in.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from contextlib import AbstractContextManager, asynccontextmanager
from dataclasses import dataclass, field, fields
from os import PathLike
from typing import Any, TypeVar, cast

from bot.storage import counts, ratings, row_cache, standings, update_rows
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

T = TypeVar("T")


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
    # The repositories of the games' own modules, built when asked (`of`): one per class.
    _own: dict[Callable[[Database], object], object] = field(default_factory=dict, repr=False,
                                                           compare=False)

    @classmethod
    def over(cls, db: Database, games: Iterable[Callable[[Database], LiveGames[Any, Any]]] = (),
             ) -> Storage:
        storage = cls(db, ChatRepo(db), UserRepo(db), ChallengeRepo(db), DuelRepo(db),
                      ResultRepo(db), MetaRepo(db), RatingRepo(db), TournamentRepo(db),
                      DeleteRepo(db), BalanceRepo(db), SixCardRepo(db), TimerRepo(db),
                      FloodRepo(db), InboxRepo(db), JobRepo(db), StandingsRepo(db),
                      PracticeRepo(db))
        for game in games:
            storage.of(game)
        return storage

    def of(self, repo: Callable[[Database], T]) -> T:
        """The repository `repo` builds over the database (a game's own, such as
        `storage.of(SixCardRepo)`): the field's, if the Storage has one of that class, else
        one built at the first ask and kept."""
        found = self._own.get(repo)
        if found is None:
            found = next((r for r in self._fields() if type(r) is repo), None) or repo(self.db)
            self._own[repo] = found
        return cast(T, found)

    @property
    def games(self) -> tuple[LiveGames[Any, Any], ...]:
        """Every game's live records this Storage has: moved with a chat, counted live."""
        found: dict[int, LiveGames[Any, Any]] = {}
        for repo in (*self._fields(), *self._own.values()):
            if isinstance(repo, LiveGames):
                found.setdefault(id(repo), repo)
        return tuple(found.values())

    def _fields(self) -> Iterator[object]:
        return (getattr(self, f.name) for f in fields(self) if f.name not in ("db", "_own"))

    @classmethod
    async def open(cls, where: str | PathLike[str] | Location,
                   games: Iterable[Callable[[Database], LiveGames[Any, Any]]] = ()) -> Storage:
        """Open and migrate the database (a Location, or a SQLite path or URL, or a PostgreSQL
        URL: `bot.storage.engines`), with the `games`' repositories (`of`); after
        migration V6, record the deals of the duels saved before it (once:
        `bot.storage.deals.backfill`); after V10, compute the ratings of the results stored
        before it (once: `bot.storage.ratings.backfill`); after V19, keep the standings of
        the results stored before it (once, in batches: `bot.storage.standings.backfill`)."""
        db = await open_database(where)
        try:
            await backfill(db)
            await ratings.backfill(db)
            await standings.backfill(db)
        except BaseException:
            await db.close()
            raise
        return cls.over(db, games)

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

    async def read_first(self, user_id: int, chat_id: int) -> None:
        """An update's user, chat and chat settings read together, once, where they are kept
        for the update alone (`bot.storage.update_rows`)."""
        await update_rows.read_first(self.db, self.users, self.chats, user_id, chat_id)

    async def try_hold(self, name: str) -> HeldLock | None:
        """A lock held by one process at a time until released or the process ends
        (`Database.try_hold`): the poller's role."""
        return await self.db.try_hold(name)

    async def move_chat(self, old_id: int, new_id: int, *, now: int) -> ChatMove:
        """Every row of chat `old_id` moved to `new_id` (a group that became a supergroup)."""
        return await move_chat(self.db, old_id, new_id, now=now, games=self.games)

    async def ping(self) -> None:
        """Return once the database answers a trivial query; StorageError if it cannot."""
        await self.db.ping()

    async def live_games(self) -> counts.LiveCounts:
        """How many games are live now in the whole database (every worker's), by kind."""
        return await counts.live_counts(self.db, self.games)

    async def close(self) -> None:
        await self.db.close()
