"""PostgreSQL through a URL of several servers (libpq's `host1:port1,host2:port2` with
`target_session_attrs`): a server that refuses is passed over, and a connection on a server
that takes no writes any more (a demoted primary, SQLSTATE 25006) is dropped, not kept."""

from __future__ import annotations

from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest

from bot.storage import Storage, StorageError, open_database
from bot.storage.db import Database
from tests.support import databases
from tests.support.ops import free_port

PASSWORD = "pw-of-several-servers-5d1e"  # this server trusts local users: any password works


def several(url: str, *, first: int) -> str:
    """`url` as a list of two servers, a dead port first, its own second, read-write asked."""
    parts = urlsplit(url)
    user = parts.username or "postgres"
    netloc = f"{user}:{PASSWORD}@127.0.0.1:{first},{parts.hostname}:{parts.port or 5432}"
    query = "&".join(q for q in (parts.query, "target_session_attrs=read-write") if q)
    return parts._replace(netloc=netloc, query=query).geturl()


@pytest.fixture
async def server_url(postgres: str | None) -> AsyncIterator[str]:
    if postgres is None:
        pytest.skip(databases.HOW)
    async with databases.fresh_schema(postgres) as url:
        yield url


async def test_a_server_that_refuses_is_passed_over(server_url: str) -> None:
    url = several(server_url, first=free_port())
    store = await Storage.open(url)
    try:
        assert PASSWORD not in store.db.path and ",127.0.0.1:" in store.db.path
        await store.db.execute("CREATE TABLE t (x INTEGER)")
        await store.db.execute("INSERT INTO t (x) VALUES (?)", (1,))
        assert await store.db.fetchall("SELECT x FROM t") == [(1,)]
    finally:
        await store.close()


async def _server_pid(db: Database) -> int:
    row = await db.fetchone("SELECT pg_backend_pid()")
    assert row is not None
    return int(row[0])


async def test_a_connection_on_a_server_that_became_read_only_is_dropped(
        server_url: str, caplog: pytest.LogCaptureFixture) -> None:
    db = await open_database(several(server_url, first=free_port()), migrations=(), readers=0)
    try:
        await db.execute("CREATE TABLE t (x INTEGER)")
        # The server turns read-only under the pooled connection (as a demoted primary would):
        # set on the session that every statement here takes (the pool gives back the last).
        async with db.transaction():
            await db.execute("SET SESSION default_transaction_read_only = on")
            pid = await _server_pid(db)
        with pytest.raises(StorageError, match="read-only transaction") as e:
            async with db.transaction():
                assert await _server_pid(db) == pid
                await db.execute("INSERT INTO t (x) VALUES (?)", (1,))
        assert PASSWORD not in str(e.value) and "connecting again" in str(e.value)
        assert "dropping its connections" in caplog.text and PASSWORD not in caplog.text
        # The next statements run on a new connection, which takes writes: none kept the old.
        for x in range(2, 6):
            await db.execute("INSERT INTO t (x) VALUES (?)", (x,))
            assert await _server_pid(db) != pid
        assert await db.fetchall("SELECT x FROM t ORDER BY x") == [(x,) for x in range(2, 6)]
    finally:
        await db.close()


async def test_a_statement_outside_a_transaction_drops_it_too(server_url: str) -> None:
    db = await open_database(server_url, migrations=(), readers=0)
    try:
        await db.execute("CREATE TABLE t (x INTEGER)")
        await db.execute("SET SESSION default_transaction_read_only = on")
        pid = await _server_pid(db)
        with pytest.raises(StorageError, match="read-only transaction"):
            await db.execute("INSERT INTO t (x) VALUES (?)", (1,))
        await db.execute("INSERT INTO t (x) VALUES (?)", (2,))
        assert await _server_pid(db) != pid
    finally:
        await db.close()
