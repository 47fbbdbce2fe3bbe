"""The engines, by the scheme of a database's URL: where a location is parsed (once) and opened.

    location = locate("postgresql://bot:pw@db:5432/six")  # StorageError: what is wrong with it
    location.shown, location.engine.can.one_process         # as it may be shown; what it can do
    db = await open_database(location)                      # or a path or URL as it is

A location without a scheme is a SQLite file's path. Adding an engine is a `Database` subclass
(its capabilities, its dialect, how its URL is written) and its schemes here; one that stands
in for another behind a transaction pooler (the URL says `?pooler=transaction`), in
`BEHIND_POOLER`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from importlib import import_module
from os import PathLike, fspath
from urllib.parse import urlsplit

from bot.storage.db import BUSY_TIMEOUT, READERS, Database, Location, Migration, StorageError
from bot.storage.postgres import PostgresDatabase
from bot.storage.sqlite import SqliteDatabase

ENGINES: Mapping[str, type[Database]] = {
    "sqlite": SqliteDatabase,
    "postgresql": PostgresDatabase,
    "postgres": PostgresDatabase,
}
DEFAULT: type[Database] = SqliteDatabase  # a path without a scheme
# psycopg's one round trip a statement instead of asyncpg's two (bot.storage.pooled), imported
# only by a bot behind a pooler: the others need not load psycopg (9 MB).
BEHIND_POOLER: Mapping[type[Database], str] = {
    PostgresDatabase: "bot.storage.pooled.PooledPostgresDatabase"}


def locate(where: str | PathLike[str]) -> Location:
    """Where a database is (a path, or a URL of a registered scheme), as its engine reads it;
    StorageError saying what is wrong with it."""
    text = fspath(where)
    named = "://" in text or text.partition(":")[0] in ENGINES  # "sqlite:x.db" too: refused
    try:
        scheme = urlsplit(text).scheme if named else ""
    except ValueError as e:  # an unclosed [: said by the engine's own parsing if it has one
        scheme = text.partition(":")[0].lower()
        if scheme not in ENGINES:
            raise StorageError(f"not a usable database URL ({e})") from None
    if not scheme:
        return DEFAULT.locate(text)
    engine = ENGINES.get(scheme)
    if engine is None:
        raise StorageError(f"unknown database scheme {scheme!r}; give a SQLite file path "
                           "(or sqlite:///path) or a postgresql:// URL")
    location = engine.locate(text)
    if location.pooled:
        return replace(location, engine=_stand_in(location.engine))
    return location


def _stand_in(engine: type[Database]) -> type[Database]:
    """The engine standing in for `engine` behind a transaction pooler."""
    module, _, name = BEHIND_POOLER[engine].rpartition(".")
    stand_in = getattr(import_module(module), name)
    assert isinstance(stand_in, type) and issubclass(stand_in, engine)
    return stand_in


async def open_database(
    where: str | PathLike[str] | Location,
    *,
    migrations: Sequence[Migration] | None = None,
    busy_timeout: float = BUSY_TIMEOUT,
    readers: int = READERS,
) -> Database:
    """Connect to the database `where` is (parsed here unless it is a `Location` already) and
    run the pending migrations (None: its engine's own); StorageError if that fails."""
    if busy_timeout <= 0:
        raise ValueError("the busy timeout must be positive")
    location = where if isinstance(where, Location) else locate(where)
    return await location.engine.connect(
        location, migrations=migrations, busy_timeout=busy_timeout, readers=readers)
