"""SQLite statements in one trip to their connection's thread each.

aiosqlite runs each connection's calls in a thread of its own; its cursor API takes a trip per
call (execute, then fetch, then close: three for a read, two for a write), each a wake-up of
the event loop. A tap's dozen statements paid for about thirty. Here a statement is run, read
and closed in the thread in one call (through aiosqlite's queue of calls, `_execute`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

import aiosqlite

from bot.storage.db import Params

T = TypeVar("T")


def changes(conn: sqlite3.Connection, sql: str, params: Params) -> tuple[int, int | None]:
    """(In the connection's thread.) A write: the rows it changed and the last row id."""
    cursor = conn.execute(sql, params)
    try:
        return int(cursor.rowcount), cursor.lastrowid
    finally:
        cursor.close()


def fetch_one(conn: sqlite3.Connection, sql: str, params: Params) -> sqlite3.Row | None:
    cursor = conn.execute(sql, params)
    try:
        row: sqlite3.Row | None = cursor.fetchone()
        return row
    finally:
        cursor.close()


def fetch_all(conn: sqlite3.Connection, sql: str, params: Params) -> list[sqlite3.Row]:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


async def in_thread(conn: aiosqlite.Connection, work: Callable[..., T], sql: str,
                     params: Params) -> T:
    """`work(connection, sql, params)` in the connection's own thread, in one trip (through
    aiosqlite's queue of calls, `_execute`: its public cursor methods take a trip each)."""
    result: T = await conn._execute(work, conn._conn, sql, params)  # type: ignore[no-untyped-call]
    return result
