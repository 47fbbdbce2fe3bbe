"""The databases the tests run on: a SQLite file, or a PostgreSQL schema of its own.

PostgreSQL runs when `SIXSHOOTER_TEST_POSTGRES` names a server where its user may create
databases (`.ci/run` sets it for the CI machine's server): the test session creates one
database there, gives every test a fresh schema in it (a URL whose `search_path` is that
schema), and drops the database at the end. Through PgBouncer (tests/support/pgbouncer.py),
which passes on no `search_path` at connect, a test's schema is reached as a role of its own
whose search path it is (`pooled_schema`). Unset, the PostgreSQL tests skip with one line
saying how to run them; set, a server that does not answer fails the run.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from tests.support.pgbouncer import pooled

ENV = "SIXSHOOTER_TEST_POSTGRES"
EXAMPLE = "postgresql://postgres@127.0.0.1:5432/postgres"
HOW = (f"PostgreSQL tests skipped: set {ENV}={EXAMPLE} (a server where that user may create "
       "databases) to run them")
ENGINES = ("sqlite", "postgresql")


def admin_url() -> str | None:
    return os.environ.get(ENV) or None


def with_database(url: str, name: str, schema: str | None = None) -> str:
    """`url` pointed at database `name` (and, given, at `schema` first on the search path)."""
    parts = urlsplit(url)
    query = f"search_path={schema}" if schema else ""
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", query, ""))


async def _admin(url: str, sql: str) -> None:
    conn = await asyncpg.connect(url, timeout=10)
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


@contextmanager
def session_database(admin: str) -> Iterator[str]:
    """A database for this test session, dropped at its end; its URL."""
    name = f"sixshooter_test_{uuid.uuid4().hex[:12]}"
    asyncio.run(_admin(admin, f'CREATE DATABASE "{name}"'))
    try:
        yield with_database(admin, name)
    finally:
        asyncio.run(_admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@asynccontextmanager
async def fresh_schema(session_url: str) -> AsyncIterator[str]:
    """An empty schema of its own in the session's database; the URL that uses it."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    await _admin(session_url, f"CREATE SCHEMA {schema}")
    try:
        yield with_database(session_url, urlsplit(session_url).path.lstrip("/"), schema)
    finally:
        await _admin(session_url, f"DROP SCHEMA {schema} CASCADE")


@asynccontextmanager
async def pooled_schema(session_url: str, port: int) -> AsyncIterator[str]:
    """An empty schema of its own in the session's database, through the pooler on `port`;
    the URL that uses it (its role's own, whose search path is the schema)."""
    name = f"t_{uuid.uuid4().hex[:16]}"
    await _admin(session_url, f"CREATE ROLE {name} LOGIN; CREATE SCHEMA {name} AUTHORIZATION "
                              f"{name}; ALTER ROLE {name} SET search_path = {name}")
    try:
        yield pooled(session_url, port, user=name)
    finally:
        await _admin(session_url, f"DROP SCHEMA {name} CASCADE; SELECT pg_terminate_backend(pid)"
                                  f" FROM pg_stat_activity WHERE usename = '{name}'; "
                                  f"DROP ROLE {name}")


async def fresh_database(admin: str) -> str:
    """A new database of its own (for a bot process that a test kills); drop it with
    `drop_database`."""
    name = f"sixshooter_e2e_{uuid.uuid4().hex[:12]}"
    await _admin(admin, f'CREATE DATABASE "{name}"')
    return with_database(admin, name)


@asynccontextmanager
async def own_database() -> AsyncIterator[str]:
    """A new PostgreSQL database for the block (bot processes that a test kills share it),
    dropped after it; the test is skipped, with one line saying how to run it, without a
    server."""
    admin = admin_url()
    if admin is None:
        pytest.skip(HOW)
    url = await fresh_database(admin)
    try:
        yield url
    finally:
        await drop_database(admin, url)


async def drop_database(admin: str, url: str) -> None:
    name = urlsplit(url).path.lstrip("/")
    await _admin(admin, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
