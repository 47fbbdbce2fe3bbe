"""The bot's own lasting settings, as text by key (table bot_meta), e.g. its webhook secret."""

from __future__ import annotations

from collections.abc import Callable

from bot.storage.db import Database


class MetaRepo:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def get(self, key: str) -> str | None:
        row = await self.db.fetchone("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set(self, key: str, value: str) -> None:
        await self.db.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def claim(self, key: str, value: str) -> bool:
        """Store `value` unless the key has one; True if this call stored it (of callers
        racing, on any number of workers, exactly one gets True)."""
        return await self.db.execute(
            "INSERT INTO bot_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
            (key, value)) == 1

    async def get_or_create(self, key: str, make: Callable[[], str]) -> str:
        """The stored value; the first time, `make()`'s, stored. Callers racing, on several
        workers too, agree on one value and `make` runs once: one transaction under the key's
        lock, read, then written only if absent."""
        async with self.db.transaction(lock=f"meta:{key}"):
            value = await self.get(key)
            if value is None:
                value = make()
                await self.db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)"
                                      " ON CONFLICT (key) DO NOTHING", (key, value))
        return value
