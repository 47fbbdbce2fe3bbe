"""The storage tests' databases: each engine, and PostgreSQL through PgBouncer in transaction
mode too (skipped, with one line saying how to run it, without pgbouncer)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.support import databases


@pytest.fixture(params=(*databases.ENGINES, "pgbouncer"))
async def database(request: pytest.FixtureRequest, tmp_path: Path,
                   postgres: str | None) -> AsyncIterator[str]:
    """A fresh database's location (not yet migrated): a SQLite file, a PostgreSQL schema of
    its own, or one reached through the pooler."""
    if request.param == "sqlite":
        yield str(tmp_path / "s.db")
        return
    if postgres is None:
        pytest.skip(databases.HOW)
    if request.param == "postgresql":
        async with databases.fresh_schema(postgres) as url:
            yield url
        return
    bouncer = request.getfixturevalue("pgbouncer")
    async with databases.pooled_schema(postgres, bouncer.port) as url:
        yield url
