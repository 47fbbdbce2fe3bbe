"""Every game's live records, written once: a game's table holds one row per game played, its
state as JSON with a `version` that grows with every applied action.

    save         a compare-and-swap on the version: a double tap, a replayed update or a
                 racing timer never applies an action twice (the loser gets None and should
                 reload). One statement; when the game writes something of its own with it
                 (the duel's result and deals, six-card's chips), one transaction with it.
    set_message  which message shows the game, at which version (never back: a slow edit
    mark_shown   of an older version that finishes after a newer one is ignored); `lagging`:
    lagging      the games whose message does not show the saved version (the bot stopped,
                 or Telegram failed, between the save and the edit)
    state        the saved state parsed once (`bot.storage.states`), fed by the save

    move_chat    a group became a supergroup: the games move to its new id, forgetting
                 their message (the old group's ids mean nothing there)

A game's repository is a `LiveGames` over its table and its record (a `LiveRecord` with the
game's own fields), and adds only what is its own (how a game starts, its queries). It lives
in its own module here (bot/storage/<game>.py); nothing else in storage names it: the
`Storage` builds it when asked (`Storage.of`), and moves and counts the live games of every
repository it built (`Storage.games`).

Where a game is shown is a value: a `ChatMessage` (a chat's message), or an `InlineMessage`
(a message sent through the bot in any chat, known by its `inline_message_id` alone: a table
whose rows may be shown there says so with `INLINE` and has that column).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from bot.storage.db import Database, Row
from bot.storage.states import States


class GameStatus(StrEnum):
    LIVE = "live"
    FINISHED = "finished"
    ABANDONED = "abandoned"  # the chat went away (the bot was removed) before the end


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """A message in a chat: where a game is shown (its table's `message_id`, in the game's
    chat)."""

    chat_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class InlineMessage:
    """A message sent through the bot in a chat the bot may not be in (inline mode): known
    by its id alone, edited in place, never deleted by the bot."""

    inline_message_id: str


Where = ChatMessage | InlineMessage  # where a game may be shown


@dataclass(frozen=True, slots=True)
class LiveRecord:
    """What every game's row holds; each game's record adds its own fields."""

    id: int
    chat_id: int
    thread_id: int | None
    state_json: str
    version: int
    status: GameStatus
    message_id: int | None  # the message showing the game
    shown_version: int | None  # the version that message shows
    created_at: int
    updated_at: int

    @property
    def is_live(self) -> bool:
        return self.status is GameStatus.LIVE

    @property
    def needs_redraw(self) -> bool:
        """The message does not show the saved version (e.g. a crash between save and edit)."""
        return self.shown_version != self.version

    @property
    def shown_on(self) -> Where | None:
        """The message showing the game (None: not shown yet)."""
        return None if self.message_id is None else ChatMessage(self.chat_id, self.message_id)


R = TypeVar("R", bound=LiveRecord)
S = TypeVar("S")

# What a game writes with its save or its abandon, in the same transaction (the CAS won).
Also = Callable[[Database], Awaitable[object]]


class LiveGames(Generic[R, S]):
    """A game's table of live records (`kind`: the game's name, as the metrics and a chat's
    move name it; `table`: its name; `record`: a row to a record; `states`: the game's parsed
    states, one for every repository of the process)."""

    # What else a game's row forgets when its chat moves (`move_chat`): ", column = value".
    MOVED_RESET = ""
    # Its rows may be shown on an inline message (the table has `inline_message_id`).
    INLINE = False

    def __init__(self, db: Database, kind: str, table: str, record: Callable[[Row], R],
                 states: States[S]) -> None:
        self.db = db
        self.kind = kind
        self.table = table
        self.record = record
        self.states = states
        self._save = (f"UPDATE {table} SET state = ?, status = ?, version = version + 1,"
                      " updated_at = ? WHERE id = ? AND version = ? AND status = 'live'")
        self._abandon = (f"UPDATE {table} SET status = 'abandoned', version = version + 1,"
                         " updated_at = ? WHERE")
        self._shown = " AND (shown_version IS NULL OR shown_version <= ?)"

    # --- reads -------------------------------------------------------------------------

    async def get(self, game_id: int) -> R | None:
        row = await self.db.fetchone(f"SELECT * FROM {self.table} WHERE id = ?", (game_id,))
        return self.record(row) if row else None

    async def live_in_chat(self, chat_id: int) -> list[R]:
        return await self.select("chat_id = ? AND status = 'live' ORDER BY id", chat_id)

    async def all_live(self) -> list[R]:
        """Every live game, to bring their messages and timers back after a restart, oldest
        first: sorted here, so that the live games' partial index serves the query (ordered
        by id, SQLite would read the whole table in the order of its key instead)."""
        return sorted(await self.select("status = 'live'"), key=lambda r: r.id)

    async def lagging(self) -> list[R]:
        """Live or finished games whose message does not show the saved version (the bot
        stopped, or Telegram failed, between the save and the edit)."""
        return await self.select("status <> 'abandoned'"
                                 " AND (shown_version IS NULL OR shown_version <> version)"
                                 " ORDER BY id")

    async def select(self, where: str, *params: object) -> list[R]:
        """The game's records whose rows match `where` (with its `?` parameters)."""
        rows = await self.db.fetchall(f"SELECT * FROM {self.table} WHERE {where}", params)
        return [self.record(r) for r in rows]

    # --- states ------------------------------------------------------------------------

    def state(self, record: R) -> S:
        """The record's saved state, parsed once: shared, read it only."""
        return self.states.parsed(record.id, record.state_json)

    def fresh(self, record: R) -> S:
        """The record's saved state to apply a move to (the shared one stays as it is)."""
        return self.states.fresh(record.id, record.state_json)

    # --- writes ------------------------------------------------------------------------

    async def save(self, game_id: int, expected_version: int, state_json: str,
                   status: GameStatus = GameStatus.LIVE, *, now: int, state: S | None = None,
                   also: Also | None = None, lock: str | None = None) -> int | None:
        """Store a new state if the live game is still at `expected_version`: the new
        version, or None when someone else saved first (nothing is written). `also` writes
        the game's own rows with it, in one transaction (under `lock`, when that is a
        read-then-write: taken before the game's row is locked, as every holder takes it);
        an exception there undoes the save. `state`: the state `state_json` saves, kept for
        its readers (`state`)."""
        update = (self._save, (state_json, status.value, now, game_id, expected_version))
        if also is None:  # most moves: one statement, no transaction around
            if await self.db.execute(*update) != 1:
                return None
        else:
            async with self.db.transaction(lock):
                if await self.db.execute(*update) != 1:
                    return None
                await also(self.db)
        if state is not None:
            self.states.kept(game_id, state_json, state)
        return expected_version + 1

    async def abandon(self, game_id: int, *, now: int, also: Also | None = None) -> bool:
        """Close a live game without counting it (its chat went away), with `also` in the
        same transaction; False if it was not live any more."""
        async with self.db.transaction():
            if await self.db.execute(f"{self._abandon} id = ? AND status = 'live'",
                                     (now, game_id)) != 1:
                return False
            if also is not None:
                await also(self.db)
        return True

    async def abandon_chat(self, chat_id: int, *, now: int) -> list[int]:
        """Close every live game of a chat without counting it (bumping their versions);
        their ids."""
        async with self.db.transaction():
            rows = await self.db.fetchall(
                f"SELECT id FROM {self.table} WHERE chat_id = ? AND status = 'live'", (chat_id,))
            await self.db.execute(f"{self._abandon} chat_id = ? AND status = 'live'",
                                  (now, chat_id))
        return [int(r["id"]) for r in rows]

    async def move_chat(self, old_id: int, new_id: int) -> tuple[list[int], int]:
        """Every game of chat `old_id` moved to `new_id` (in the caller's transaction): each
        forgets its message, and a live one which version it shows, so that it is shown
        again in the new chat. The live ones' ids, and the rows moved."""
        live = await self.db.fetchall(
            f"SELECT id FROM {self.table} WHERE chat_id = ? AND status = 'live' ORDER BY id",
            (old_id,))
        moved = await self.db.execute(
            f"UPDATE {self.table} SET chat_id = ?, message_id = NULL{self.MOVED_RESET},"
            " shown_version = CASE WHEN status = 'live' THEN NULL ELSE shown_version END"
            " WHERE chat_id = ?", (new_id, old_id))
        return [int(r["id"]) for r in live], moved

    # --- its message -------------------------------------------------------------------

    async def set_message(self, game_id: int, where: Where, shown_version: int) -> bool:
        """Record that `where` shows the game at `shown_version`. Not a compare-and-swap on
        the game, but it never goes back: a slow edit of an older version that finishes after
        a newer one is ignored (False), and so is a message of a chat the game is not in."""
        if isinstance(where, InlineMessage):
            if not self.INLINE:
                raise ValueError(f"a {self.kind} is never shown on an inline message")
            changed = await self.db.execute(
                f"UPDATE {self.table} SET shown_version = ?"
                f" WHERE id = ? AND inline_message_id = ?{self._shown}",
                (shown_version, game_id, where.inline_message_id, shown_version))
            return changed == 1
        changed = await self.db.execute(
            f"UPDATE {self.table} SET message_id = ?, shown_version = ?"
            f" WHERE id = ? AND chat_id = ?{self._shown}",
            (where.message_id, shown_version, game_id, where.chat_id, shown_version))
        return changed == 1

    async def mark_shown(self, game_id: int, shown_version: int) -> None:
        """Stop trying to show a game whose chat is gone (its message stays as it is)."""
        await self.db.execute(
            f"UPDATE {self.table} SET shown_version = ? WHERE id = ?{self._shown}",
            (shown_version, game_id, shown_version))
