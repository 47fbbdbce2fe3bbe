"""Users the bot has seen: names for mentions, languages, and @username lookup."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.db import Database, Row
from bot.storage.row_cache import RowCache


@dataclass(frozen=True, slots=True)
class UserRecord:
    id: int
    first_name: str
    last_name: str | None
    username: str | None  # without the @
    language_code: str | None
    is_bot: bool
    updated_at: int

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


def normalize_username(username: str | None) -> str | None:
    """'@Name' -> 'Name'; blank -> None."""
    if username is None:
        return None
    username = username.strip().removeprefix("@")
    return username or None


def user_of(row: Row) -> UserRecord:
    return UserRecord(
        id=row["id"], first_name=row["first_name"], last_name=row["last_name"],
        username=row["username"], language_code=row["language_code"],
        is_bot=bool(row["is_bot"]), updated_at=row["updated_at"],
    )


class UserRepo:
    """Reads by id are served from memory once seen (`bot.storage.row_cache`: on SQLite for the
    process, every write going through `upsert`; on PostgreSQL for one update)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._by_id: RowCache[UserRecord] = RowCache(db)

    async def remember(
        self, user_id: int, first_name: str, last_name: str | None, username: str | None,
        language_code: str | None, is_bot: bool, *, now: int,
    ) -> bool:
        """`upsert` only if the user's row says otherwise; True if written. Every update
        calls it, and most change nothing."""
        known = self._by_id.get(user_id) if self._by_id.whole else await self.get(user_id)
        if known is not None and (known.first_name, known.last_name, known.username,
                                  known.language_code, known.is_bot) == (
                first_name, last_name, normalize_username(username), language_code, is_bot):
            return False
        await self.upsert(user_id, first_name, last_name, username, language_code, is_bot,
                          now=now)
        return True

    async def upsert(
        self,
        user_id: int,
        first_name: str,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
        is_bot: bool = False,
        *,
        now: int,
    ) -> UserRecord:
        """Record a user seen in an update.

        Telegram usernames are unique at any moment, so a username this user now holds is
        taken away from any other known user who held it before.
        """
        username = normalize_username(username)
        async with self.db.transaction():
            if username is not None:
                await self.db.execute(
                    "UPDATE users SET username = NULL"
                    " WHERE lower(username) = lower(?) AND id <> ?",
                    (username, user_id),
                )
            await self.db.execute(
                "INSERT INTO users"
                " (id, first_name, last_name, username, language_code, is_bot, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET first_name = excluded.first_name,"
                " last_name = excluded.last_name, username = excluded.username,"
                " language_code = excluded.language_code, is_bot = excluded.is_bot,"
                " updated_at = excluded.updated_at",
                (user_id, first_name, last_name, username, language_code, int(is_bot), now),
            )
        record = UserRecord(user_id, first_name, last_name, username, language_code, is_bot, now)
        if username is not None:
            for other in [u for u in self._by_id.values() if u.id != user_id and u.username
                          and u.username.lower() == username.lower()]:
                self._by_id.drop(other.id)
        self._by_id.put(user_id, record)
        return record

    def keep(self, record: UserRecord) -> None:
        """The user's row as just read with others (bot.storage.update_rows)."""
        self._by_id.put(record.id, record)

    async def get(self, user_id: int) -> UserRecord | None:
        async def load() -> UserRecord | None:
            row = await self.db.fetchone("SELECT * FROM users WHERE id = ?", (user_id,))
            return user_of(row) if row else None

        return await self._by_id.read(user_id, load)

    async def get_many(self, user_ids: Iterable[int]) -> dict[int, UserRecord | None]:
        """Each user's record by id (None: never seen): those not kept in memory read in one
        statement, not one each (a duel's table names both its players)."""
        found: dict[int, UserRecord | None] = {}
        for user_id in dict.fromkeys(user_ids):
            found[user_id] = self._by_id.get(user_id)
        missing = [uid for uid, known in found.items() if known is None]
        if missing:
            marks = ", ".join("?" * len(missing))
            for row in await self.db.fetchall(f"SELECT * FROM users WHERE id IN ({marks})",
                                              tuple(missing)):
                record = user_of(row)
                found[record.id] = record
                self._by_id.put(record.id, record)
        return found

    async def find_by_username(self, username: str) -> UserRecord | None:
        """A known user by @username, case-insensitively ('@' optional)."""
        name = normalize_username(username)
        if name is None:
            return None
        row = await self.db.fetchone(
            "SELECT * FROM users WHERE lower(username) = lower(?)"
            " ORDER BY updated_at DESC LIMIT 1",
            (name,),
        )
        return user_of(row) if row else None
