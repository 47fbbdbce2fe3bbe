"""A transaction pooler in front of PostgreSQL, said by the URL (`?pooler=transaction`): parsed
once, the password still masked, the flag never sent to the server, and the engine psycopg's
(bot.storage.pooled): nothing prepared under a name, parameters typed as the direct engine has
them. The storage tests run through PgBouncer too (tests/bot/storage/conftest.py); the lease:
test_leases.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import StorageError
from bot.storage.engines import locate, open_database
from bot.storage.pooled import PooledPostgresDatabase, Record
from bot.storage.postgres import PostgresDatabase, without_pooler
from tests.support import databases
from tests.support.pgbouncer import PgBouncer


def test_the_pooler_flag_is_read_and_shown_without_the_password() -> None:
    url = "postgresql://bot:hunter2@db.example.org:6432/six?pooler=transaction"
    where = locate(url)
    assert where.shown == "postgresql://bot:***@db.example.org:6432/six?pooler=transaction"
    assert "hunter2" not in repr(where)
    assert without_pooler(where.target) == ("postgresql://bot:hunter2@db.example.org:6432/six",
                                            True)


def test_other_parameters_stay_and_a_direct_url_is_left_alone() -> None:
    assert without_pooler("postgresql://db/six?pooler=transaction&sslmode=require") == (
        "postgresql://db/six?sslmode=require", True)
    assert without_pooler("postgresql://db/six?sslmode=require") == (
        "postgresql://db/six?sslmode=require", False)


@pytest.mark.parametrize("kind", ["session", "statement", ""])
def test_an_unknown_pooler_is_refused_saying_what_is_expected(kind: str) -> None:
    with pytest.raises(StorageError, match=r"pooler=transaction") as e:
        locate(f"postgresql://bot:hunter2@db/six?pooler={kind}")
    assert "hunter2" not in str(e.value)


def test_a_pooled_url_opens_the_pooled_engine_and_a_direct_one_the_direct_engine() -> None:
    assert locate("postgresql://bot@db:6432/six?pooler=transaction").engine is (
        PooledPostgresDatabase)
    assert locate("postgresql://bot@db1:6432,db2:6432/six?pooler=transaction"
                  "&target_session_attrs=read-write").engine is PooledPostgresDatabase
    assert locate("postgresql://bot@db:5432/six").engine is PostgresDatabase


def test_a_row_reads_by_name_and_by_position_as_on_the_other_engines() -> None:
    row = Record({"id": 0, "name": 1}, (7, "Ada"))
    assert (row[0], row["name"], row[1], row["id"]) == (7, "Ada", "Ada", 7)
    assert list(row.keys()) == ["id", "name"] and list(row) == [7, "Ada"] and len(row) == 2
    assert dict(zip(row.keys(), row, strict=True)) == {"id": 7, "name": "Ada"}
    with pytest.raises(KeyError):
        row["missing"]


async def test_through_the_pooler_no_statement_is_left_prepared_on_the_server(
        pgbouncer: PgBouncer) -> None:
    """Every statement goes unnamed (one round trip, nothing kept): a named one would be
    missing on the next transaction's server connection. Run often enough that a driver's
    automatic preparing (psycopg's after 5 runs) would have named them."""
    admin = databases.admin_url()
    assert admin is not None
    async with databases.pooled_schema(admin, pgbouncer.port) as url:
        db = await open_database(url)
        try:
            assert isinstance(db, PooledPostgresDatabase)
            for _ in range(10):
                async with db.transaction(lock="chat:1"):
                    row = await db.fetchone("SELECT count(*) AS n FROM pg_prepared_statements"
                                            " WHERE ? >= 0", (1,))
                    assert row is not None and row["n"] == 0
                assert await db.fetchall("SELECT name FROM pg_prepared_statements") == []
        finally:
            await db.close()


async def test_numbers_go_where_the_direct_engine_takes_them(pgbouncer: PgBouncer) -> None:
    """As asyncpg's prepared statements take them: a small int into a float column, a big one
    into BIGINT arithmetic, a float (a whole one, as a time rounded) into a BIGINT."""
    admin = databases.admin_url()
    assert admin is not None
    async with databases.pooled_schema(admin, pgbouncer.port) as url:
        db = await open_database(url, migrations=[
            (1, "CREATE TABLE t (id BIGSERIAL PRIMARY KEY, at BIGINT, score DOUBLE PRECISION,"
                " name TEXT)")])
        try:
            new = await db.insert("INSERT INTO t (at, score, name) VALUES (?, ?, ?)",
                                  (1_700_000_010.0, 3, "x"))
            big = 2**62  # beyond int4: still the column's BIGINT
            assert await db.execute("UPDATE t SET at = at + ? WHERE id = ?", (big, new)) == 1
            row = await db.fetchone("SELECT at, score, name FROM t WHERE id = ?", (new,))
            assert row is not None
            assert (row["at"], row["score"], row["name"]) == (1_700_000_010 + big, 3.0, "x")
            assert isinstance(row["score"], float)
        finally:
            await db.close()


def test_only_a_bot_behind_a_pooler_loads_psycopg() -> None:
    """psycopg (9 MB) is imported when a pooled URL is located, not by every bot."""
    code = ("import sys, bot.__main__, bot.storage.engines as e; "
            "print('psycopg' in sys.modules); "
            "e.locate('postgresql://bot@db/six?pooler=transaction'); "
            "print('psycopg' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[3]).stdout
    assert out.split() == ["False", "True"]


@pytest.mark.parametrize(("url", "said"), [
    ("postgresql://bot:hunter2%zz@db/six?pooler=transaction", "percent-encoded"),
    ("postgresql://bot:hunter2@db/six?pooler=transaction&search_path=x", "search_path"),
])
async def test_a_url_libpq_refuses_says_why_without_its_password(url: str, said: str) -> None:
    with pytest.raises(StorageError, match=said) as e:
        await open_database(url)
    assert "hunter2" not in str(e.value) and "***" in str(e.value)
