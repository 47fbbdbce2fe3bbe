"""End-to-end fixtures: the fake Telegram Bot API server and the bot as a real subprocess
(both from ``tests/support``, which bench/ uses too).

* ``fake_api``: a started :class:`FakeTelegramAPI` on 127.0.0.1 (free port), stopped after
  the test. ``fake_api.base_url`` is what the bot gets as TELEGRAM_API_BASE_URL.
* ``launch_bot``: an async factory; ``bot = await launch_bot()`` starts the ``sixshooter``
  console script (or ``python -m bot``) against ``fake_api`` with its own SQLite file and
  returns once the bot long-polls. ``await bot.kill()`` (SIGKILL), ``await bot.stop()``
  (SIGTERM, graceful), ``await bot.restart()`` (same database); ``await bot.storage()``
  reads its database through its repositories (``tests/support/stored.py``). Every process
  is killed, and its database closed, at teardown. Tests using it are skipped while
  ``bot/__main__.py`` does not exist.

A module marked ``pytestmark = pytest.mark.usefixtures("on_both_engines")`` runs each of its
tests twice: on a SQLite file and on a PostgreSQL database of its own (skipped, with one line
saying how to run it, when ``SIXSHOOTER_TEST_POSTGRES`` names no server); ``launch_bot`` then
gives every bot that database unless told another. ``on_every_engine`` runs them a third time,
on a PostgreSQL database reached through PgBouncer in transaction mode (``pgbouncer``, from
tests/conftest.py; skipped, saying how to run it, without pgbouncer); so does
``postgres_database``, on PostgreSQL directly and through PgBouncer.

The duel tests (``test_duel_*.py``) each start one bot process (a restart keeps its database)
and play people's parts through the fake Bot API; each also checks that Telegram (the fake
validates like it) refused none of the bot's calls, so every HTML text the bot wrote was
accepted.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support import databases
from tests.support.botprocess import REPO_ROOT, BotProcess, LaunchBot
from tests.support.fakeapi import BOT_TOKEN, FakeTelegramAPI
from tests.support.pgbouncer import PgBouncer
from tests.support.workers import LaunchWorkers, Workers

BOT_MAIN = REPO_ROOT / "bot" / "__main__.py"


_BOTS = pytest.StashKey[list[BotProcess]]()
_API = pytest.StashKey[FakeTelegramAPI]()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """On failure, add the fake API's latest requests and the bot's log to the report."""
    report = yield
    if report.when == "call" and report.failed:
        api = item.stash.get(_API, None)
        if api is not None:
            lines = "\n".join(r.summary() for r in api.requests[-40:])
            report.sections.append(("fake Telegram API: latest requests", lines or "(none)"))
            if api.deliveries:
                posts = "\n".join(d.summary() for d in api.deliveries[-40:])
                pending = ", ".join(str(u["update_id"]) for u in api.pending_updates)
                report.sections.append(("fake Telegram API: latest webhook deliveries",
                                        f"{posts}\npending: {pending or '(none)'}, in flight: "
                                        f"{api.deliveries_in_flight}"))
        for proc in item.stash.get(_BOTS, []):
            report.sections.append((f"bot process log {proc.log_path}", proc.log()[-20000:]))
    return report


@pytest.fixture
async def fake_api(request: pytest.FixtureRequest) -> AsyncIterator[FakeTelegramAPI]:
    api = FakeTelegramAPI(token=BOT_TOKEN)
    await api.start()
    request.node.stash[_API] = api
    try:
        yield api
    finally:
        await api.stop()
        assert not api.internal_errors, "fake API bugs:\n" + "\n".join(api.internal_errors)


@pytest.fixture(params=databases.ENGINES)
async def on_both_engines(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """The database the module's bots use: None (each bot its own SQLite file), or a new
    PostgreSQL database, dropped after the test."""
    if request.param == "sqlite":
        yield None
        return
    async with databases.own_database() as url:
        yield url


@pytest.fixture(params=(*databases.ENGINES, "pgbouncer"))
async def on_every_engine(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """As `on_both_engines`, and a new PostgreSQL database through PgBouncer too."""
    if request.param == "sqlite":
        yield None
        return
    async with _postgres(request, through=request.param) as url:
        yield url


@pytest.fixture(params=("postgresql", "pgbouncer"))
async def postgres_database(request: pytest.FixtureRequest) -> AsyncIterator[str]:
    """A new PostgreSQL database of its own (several bot processes share it), dropped after
    the test, reached directly or through PgBouncer; the test is skipped, with one line saying
    how to run it, without a server (or pgbouncer)."""
    async with _postgres(request, through=request.param) as url:
        yield url


@asynccontextmanager
async def _postgres(request: pytest.FixtureRequest, *, through: str) -> AsyncIterator[str]:
    async with databases.own_database() as url:
        if through == "pgbouncer":
            bouncer: PgBouncer = request.getfixturevalue("pgbouncer")
            url = bouncer.url(url)
        yield url


@pytest.fixture
async def launch_workers(fake_api: FakeTelegramAPI, tmp_path: Path,
                         request: pytest.FixtureRequest) -> AsyncIterator[LaunchWorkers]:
    """``await launch_workers(database, n, webhook=True, env={...})`` -> started ``Workers``
    (tests/support/workers.py); every worker is killed at teardown, and a failed test's
    report shows their logs."""
    made: list[Workers] = []
    processes = request.node.stash.setdefault(_BOTS, [])

    async def launch(database: str, n: int, *, webhook: bool = True,
                     env: dict[str, str] | None = None, connections: int | None = None,
                     start: bool = True) -> Workers:
        if not BOT_MAIN.exists():
            pytest.skip("bot/__main__.py does not exist yet")
        first = sum(len(w) for w in made) + 1
        workers = Workers(fake_api, database, tmp_path, n, webhook=webhook, env=env,
                          connections=connections, first=first)
        made.append(workers)
        processes.extend(workers.procs)
        if start:
            await workers.start()
        return workers

    try:
        yield launch
    finally:
        for workers in made:
            await workers.close()


@pytest.fixture
async def launch_bot(
    fake_api: FakeTelegramAPI, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[LaunchBot]:
    """``await launch_bot(env={...}, command=[...], wait_polling=True)`` -> BotProcess.

    Without ``command`` the real bot is started, and the test is skipped when the bot
    package has no ``__main__`` yet.
    """
    processes: list[BotProcess] = request.node.stash.setdefault(_BOTS, [])

    async def launch(
        *,
        command: Sequence[str] | None = None,
        env: dict[str, str] | None = None,
        wait_polling: bool = True,
        timeout: float = 30.0,
        db_path: Path | str | None = None,
    ) -> BotProcess:
        if command is None and not BOT_MAIN.exists():
            pytest.skip("bot/__main__.py does not exist yet")
        n = len(processes) + 1
        for engines in ("on_both_engines", "on_every_engine"):
            if db_path is None and engines in request.fixturenames:
                db_path = request.getfixturevalue(engines)
        proc = BotProcess(
            fake_api,
            db_path or tmp_path / f"sixshooter-{n}.db",
            tmp_path / f"bot-{n}.log",
            command=command,
            env=env,
        )
        processes.append(proc)
        await proc.start(wait_polling=wait_polling, timeout=timeout)
        return proc

    try:
        yield launch
    finally:
        for proc in processes:
            await proc.kill()
            await proc.close_storage()
