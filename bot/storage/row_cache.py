"""Rows every update reads (its user, its chat, the chat's settings), kept in memory by key.

* **On SQLite** for the whole process: it is the database's only writer (one bot per file),
  and every write goes through the repository, which keeps the memory in step.
* **On PostgreSQL** for one update's handling alone (`one_update`, around each update's task:
  bot.telegram.intake; the rows are kept in its `Handling`, bot.handling). Any worker may
  write these rows, so a process-wide memory could be stale; but within one update the first
  read stands for the rest, as if the whole update had been handled at that instant. That was
  3.6 reads of the settings and 3.7 of users a tap (issue 21), now one of each. Only the task
  that opened the scope sees it: a task it starts (a sweep, a timer) lives longer than the
  update, so it reads the database.

Either way a write inside a transaction, which may still be undone, forgets the key instead
of keeping the new row; on PostgreSQL a read inside a transaction (a read-modify-write under a
chat's lock) always goes to the database, so it sees what other workers committed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

from bot import handling
from bot.handling import Handling
from bot.storage.db import Database

V = TypeVar("V")


@contextmanager
def one_update(within: Handling | None = None) -> Iterator[None]:
    """The PostgreSQL rows read in this block (by this task) are read once: kept in the
    update's handling (`within`, else the current one, else one for this block)."""
    with handling.opened(within) as scope:
        task, rows = scope.task, scope.rows
        scope.task, scope.rows = asyncio.current_task(), {}
        try:
            yield
        finally:
            scope.task, scope.rows = task, rows


class RowCache(Generic[V]):
    """One repository's rows kept by key, as the module says."""

    def __init__(self, db: Database) -> None:
        self.db = db
        # The memory is the process's (SQLite): a row it does not hold is one this process
        # has neither read nor written, so nothing it would say differently.
        self.whole = db.can.one_process
        self._rows: dict[Hashable, V] = {}

    def _memory(self) -> dict[Any, Any] | None:
        if self.whole:
            return self._rows
        scope = handling.current()
        if scope is None or scope.task is not asyncio.current_task():
            return None
        return scope.rows

    def _key(self, key: Hashable) -> Hashable:
        return key if self.whole else (self, key)

    def get(self, key: Hashable) -> V | None:
        if not self.whole and self.db.in_transaction:
            return None
        memory = self._memory()
        return None if memory is None else memory.get(self._key(key))

    async def read(self, key: Hashable, load: Callable[[], Awaitable[V | None]]) -> V | None:
        """The row of `key`: from memory when held, else `load()`ed (and held when found)."""
        known = self.get(key)
        if known is not None:
            return known
        loaded = await load()
        if loaded is not None:
            self.put(key, loaded)
        return loaded

    def put(self, key: Hashable, value: V) -> None:
        """A row just read or written (forgotten instead inside a transaction)."""
        memory = self._memory()
        if memory is None:
            return
        if self.db.in_transaction:
            memory.pop(self._key(key), None)
        else:
            memory[self._key(key)] = value

    def drop(self, key: Hashable) -> None:
        memory = self._memory()
        if memory is not None:
            memory.pop(self._key(key), None)

    def values(self) -> list[V]:
        memory = self._memory()
        if memory is None:
            return []
        if self.whole:
            return list(memory.values())
        return [v for (kept, _), v in memory.items() if kept is self]
