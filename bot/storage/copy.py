"""A whole database copied into another, across engines (`sixshooter db copy SRC DST`).

    report = await copy_between("sixshooter.db", "postgresql://bot:pw@db/six", force=False)

Every table of the schema is copied in foreign-key order (a table after the tables it refers
to), in batches of rows read in primary-key order (a big table is never in memory at once),
with the values as they are: ids kept, 64-bit ints, floats, text and NULLs unchanged. The
whole copy is one transaction on the target: it lands whole or not at all. A target with any
row in any table is refused (`TargetNotEmpty`) unless `force`, which empties its tables first
in the same transaction. On PostgreSQL the identity columns' sequences are then moved past the
copied ids, so a new row gets a new id. The report has each table's rows in the source and in
the target after the copy, and both schema versions; `report.ok` says whether they all match.

What differs between the engines here (their catalogs: foreign keys, primary keys, identity
columns) each engine says (`Database.CATALOG`), beside the rest of its dialect.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.storage.db import Database, Location, StorageError

if TYPE_CHECKING:
    from bot.storage import Storage

BATCH_PARAMETERS = 900  # parameters per INSERT (under SQLite's oldest limit, 999)
READ_BATCH = 500  # rows read from the source per query

class CopyError(StorageError):
    """The copy cannot start (the two schemas differ); nothing was written."""


class TargetNotEmpty(CopyError):
    """The target has rows and the copy was not told to replace them; nothing was written."""


@dataclass(frozen=True, slots=True)
class TableCount:
    table: str
    source: int  # rows in the source
    target: int  # rows in the target after the copy


@dataclass(frozen=True, slots=True)
class End:
    """One side of a copy, as it may be shown (no password)."""

    path: str
    engine: str
    version: int  # its schema version after the copy


@dataclass(frozen=True, slots=True)
class CopyReport:
    tables: tuple[TableCount, ...]  # in the order they were copied
    source: End
    target: End

    @property
    def source_version(self) -> int:
        return self.source.version

    @property
    def target_version(self) -> int:
        return self.target.version

    @property
    def total(self) -> int:
        return sum(t.target for t in self.tables)

    @property
    def ok(self) -> bool:
        return (self.source_version == self.target_version
                and all(t.source == t.target for t in self.tables))


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


async def _column(db: Database, query: str, table: str) -> list[str]:
    return [str(r[0]) for r in await db.fetchall(db.CATALOG[query], (table,))]


async def copy_order(db: Database) -> list[str]:
    """The schema's tables, each after the tables its foreign keys refer to (then by name)."""
    tables = sorted(await db.tables())
    needs = {t: set(await _column(db, "references", t)) - {t} for t in tables}
    order: list[str] = []
    while needs:
        ready = [t for t in sorted(needs) if not needs[t] & needs.keys()]
        if not ready:
            raise CopyError(f"database {db.path!r}: the foreign keys of "
                            f"{', '.join(sorted(needs))} form a cycle")
        order.extend(ready)
        for t in ready:
            del needs[t]
    return order


async def count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT count(*) FROM {_quote(table)}")
    return int(row[0]) if row else 0


async def is_empty(db: Database, tables: Sequence[str]) -> bool:
    for table in tables:
        if await db.fetchone(f"SELECT 1 FROM {_quote(table)} LIMIT 1") is not None:
            return False
    return True


async def _batches(db: Database, table: str) -> AsyncIterator[list[Any]]:
    """The table's rows, a batch at a time, in primary-key order (keyset paging)."""
    key = await _column(db, "key", table)
    if not key:
        raise CopyError(f"database {db.path!r}: table {table} has no primary key")
    order = ", ".join(_quote(k) for k in key)
    after = (f"{_quote(key[0])} > ?" if len(key) == 1
             else f"({order}) > ({', '.join('?' for _ in key)})")
    sql = f"SELECT * FROM {_quote(table)}"
    last: list[Any] | None = None
    while True:
        if last is None:
            rows = await db.fetchall(f"{sql} ORDER BY {order} LIMIT ?", (READ_BATCH,))
        else:
            rows = await db.fetchall(f"{sql} WHERE {after} ORDER BY {order} LIMIT ?",
                                     (*last, READ_BATCH))
        if not rows:
            return
        yield rows
        last = [rows[-1][k] for k in key]
        if len(rows) < READ_BATCH:
            return


async def _copy_table(source: Database, target: Database, table: str) -> None:
    async for rows in _batches(source, table):
        columns = list(rows[0].keys())
        names = ", ".join(_quote(c) for c in columns)
        one = "(" + ", ".join("?" for _ in columns) + ")"
        per_insert = max(1, BATCH_PARAMETERS // len(columns))
        for start in range(0, len(rows), per_insert):
            chunk = rows[start:start + per_insert]
            values = [row[c] for row in chunk for c in columns]
            await target.execute(f"INSERT INTO {_quote(table)} ({names}) VALUES "
                                 + ", ".join(one for _ in chunk), values)


async def _move_sequences(target: Database, tables: Sequence[str]) -> None:
    """PostgreSQL: each identity column's next value past the largest copied id."""
    for table in tables:
        for column in await _column(target, "identity", table):
            await target.fetchone(
                f"SELECT setval(pg_get_serial_sequence(?, ?), COALESCE(max({_quote(column)}), 0)"
                f" + 1, false) FROM {_quote(table)}", (_quote(table), column))


async def copy_database(source: Database, target: Database, *, force: bool = False) -> CopyReport:
    """Every row of `source` into `target` (both migrated to the latest schema: open them with
    `Storage.open`); see the module's docstring. CopyError (TargetNotEmpty) before anything is
    written, StorageError if a statement fails (then nothing of the copy is in the target)."""
    source_version = await source.schema_version()
    target_version = await target.schema_version()
    if source_version != target_version:
        raise CopyError(f"the source is at schema version {source_version:d} and the target at "
                        f"{target_version:d}: run the same version of the bot on both")
    tables = await copy_order(target)
    if sorted(await source.tables()) != sorted(tables):
        raise CopyError("the source's tables and the target's differ: "
                        f"{sorted(set(await source.tables()) ^ set(tables))}")
    async with target.transaction():
        if not await is_empty(target, tables):
            if not force:
                raise TargetNotEmpty(f"the target {target.path!r} already has rows; copy into "
                                     "an empty database, or add --force to replace them")
            for table in reversed(tables):
                await target.execute(f"DELETE FROM {_quote(table)}")
        for table in tables:
            await _copy_table(source, target, table)
        if "identity" in target.CATALOG:
            await _move_sequences(target, tables)
    counts = tuple([TableCount(t, await count(source, t), await count(target, t))
                    for t in tables])
    return CopyReport(counts, await _end(source), await _end(target))


async def _end(db: Database) -> End:
    return End(db.path, db.engine, await db.schema_version())


async def copy_between(source: str | Location, target: str | Location, *,
                       force: bool = False) -> CopyReport:
    """`copy_database` between two locations (what SIXSHOOTER_DB takes), each opened as the
    bot opens it (`Storage.open`: migrated to the latest schema, its one-time backfills
    done), and closed after."""
    from bot.storage import Storage

    stores: list[Storage] = []
    try:
        for where in (source, target):
            stores.append(await Storage.open(where))
        return await copy_database(stores[0].db, stores[1].db, force=force)
    finally:
        for store in reversed(stores):
            await store.close()
