"""The whole test process: python-telegram-bot opted in to its time periods as timedelta, as
`sixshooter run` does (bot/__main__.py). Its deprecated int form warns, and the suite runs with
warnings as errors (pyproject.toml).

`store` (and `database`, its URL) is a fresh, migrated database per test on each engine: the
SQLite file, and PostgreSQL when `SIXSHOOTER_TEST_POSTGRES` names a server
(tests/support/databases.py); a test taking it runs once per engine. `pgbouncer` is a
PgBouncer in transaction mode in front of that server, for the whole session
(tests/support/pgbouncer.py; tests/bot/storage runs its tests through it too).
"""

from __future__ import annotations

import os

os.environ["PTB_TIMEDELTA"] = "1"

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.ops import metrics
from bot.storage import Storage, watch
from tests.support import databases
from tests.support.pgbouncer import HOW as NO_PGBOUNCER
from tests.support.pgbouncer import PgBouncer, binary


@pytest.fixture(scope="session")
def postgres() -> Iterator[str | None]:
    """This session's PostgreSQL database (None when no server is named)."""
    admin = databases.admin_url()
    if admin is None:
        yield None
        return
    with databases.session_database(admin) as url:
        yield url


@pytest.fixture(scope="session")
def pgbouncer() -> Iterator[PgBouncer]:
    """A PgBouncer (transaction mode) in front of the tests' server; skipped, with one line
    saying how to run it, without pgbouncer or a server."""
    admin = databases.admin_url()
    if admin is None:
        pytest.skip(databases.HOW)
    if binary() is None:
        pytest.skip(NO_PGBOUNCER)
    bouncer = PgBouncer(admin).start()
    try:
        yield bouncer
    finally:
        bouncer.stop()


@pytest.fixture(params=databases.ENGINES)
async def database(request: pytest.FixtureRequest, tmp_path: Path,
                   postgres: str | None) -> AsyncIterator[str]:
    """A fresh database's location on each engine (not yet migrated)."""
    if request.param == "sqlite":
        yield str(tmp_path / "s.db")
        return
    if postgres is None:
        pytest.skip(databases.HOW)
    async with databases.fresh_schema(postgres) as url:
        yield url


@pytest.fixture
async def store(database: str) -> AsyncIterator[Storage]:
    storage = await Storage.open(database)
    yield storage
    await storage.close()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """One line, once, when PostgreSQL tests were skipped for want of a server."""
    skipped = terminalreporter.stats.get("skipped", [])
    if any(databases.ENV in str(getattr(r, "longrepr", "")) for r in skipped):
        n = sum(databases.ENV in str(getattr(r, "longrepr", "")) for r in skipped)
        terminalreporter.write_line(f"{n} {databases.HOW}")


@pytest.fixture
def watched() -> Iterator[None]:
    """The database watched for the metrics, as the bot's start does (bot.app.build)."""
    before = watch(metrics.DATABASE)
    yield
    watch(before)
