"""PostgreSQL gone in the middle of a duel, as a restart or a network cut makes it: every
connection of the bot's database killed and new ones refused for a while (the bot logging at
DEBUG, its URL with a password that no line may show). A press meanwhile
gets the short apology and changes nothing; once the database is back the same duel goes on
from where it was, and ends with one result, nothing lost or applied twice.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.storage import DuelStatus
from tests.support import databases, stored
from tests.support.botprocess import LaunchBot
from tests.support.driver import (
    APOLOGY,
    REFUSED,
    TIMEOUT,
    actor_user,
    duel_id_of,
    duel_keyboard,
    finish,
    gone,
    live_duel,
    move,
    new_table,
    newest_id,
    open_duel,
    refused_calls,
    tap,
    text_of,
    version_of,
)
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.ops import free_port, health, ops_env, until

OUTAGE = 4.0  # seconds the database refuses every connection
PASSWORD = "pw-never-in-a-log-9f3c"  # this server trusts local users: any password works


def with_password(url: str) -> str:
    parts = urlsplit(url)
    user = parts.username or "postgres"
    return parts._replace(netloc=f"{user}:{PASSWORD}@{parts.hostname}:{parts.port}").geturl()


@asynccontextmanager
async def outage(admin: str, url: str) -> AsyncIterator[None]:
    """While the block runs: the database takes no connection, and every one it had is
    killed (the test's own reads included); after it, connections are allowed again."""
    name = urlsplit(url).path.lstrip("/")
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS false')
        await conn.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                           " WHERE datname = $1 AND pid <> pg_backend_pid()", name)
        try:
            yield
        finally:
            await conn.execute(f'ALTER DATABASE "{name}" WITH ALLOW_CONNECTIONS true')
    finally:
        await conn.close()


@pytest.fixture
async def doomed(postgres_database: str) -> AsyncIterator[tuple[str, str]]:
    """A PostgreSQL database of the test's own (directly, or through PgBouncer), and the admin
    URL that takes it away and brings it back (`outage`); dropped after the test."""
    admin = databases.admin_url()
    assert admin is not None
    yield admin, postgres_database


async def test_the_duel_goes_on_after_the_database_comes_back(
        doomed: tuple[str, str], fake_api: FakeTelegramAPI,
        launch_bot: LaunchBot) -> None:
    admin, url = doomed
    # At DEBUG, with a password in the URL: no log line may carry it, failures included.
    bot = await launch_bot(db_path=with_password(url), env={"SIXSHOOTER_LOG_LEVEL": "DEBUG",
                                                               "SIXSHOOTER_RATE_LIMIT": "off"})
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    duel_id = duel_id_of(await open_duel(fake_api, table))
    rng = random.Random(5)
    taps = 0
    for _ in range(2):
        await move(fake_api, table, rng)
        taps += 1
    await stored.settled(storage, duel_id)

    refused = bot.log().count(REFUSED)
    async with outage(admin, url):
        live = live_duel(fake_api, table.chat)
        data = rng.choice(duel_keyboard(live))
        last = newest_id(fake_api, table.chat)
        query = fake_api.press_button(actor_user(table, live), live, data)
        answer = (await fake_api.wait_for_answer(query, timeout=TIMEOUT)).text
        assert answer in (APOLOGY, None), answer  # the apology, or a quiet acknowledgement
        await asyncio.sleep(OUTAGE)
        assert version_of(live_duel(fake_api, table.chat)) == taps  # nothing moved meanwhile
        assert bot.running, "the bot died with its database"

    # Back (the pool connects again on its own). The press was refused (the apology; or its
    # wait outlasted ACK_WITHIN, it was acknowledged quietly and its failure logged), or a
    # transaction pooler held its statement until a server came back and it was taken: never
    # both, never twice. A refused press's button now plays.
    async def outcome() -> str | None:  # polled: a log line wakes nobody
        if newest_id(fake_api, table.chat) > last:
            return "taken"
        return "refused" if bot.log().count(REFUSED) > refused else None

    held = "pooler=" in url
    what = await until(outcome, "the press taken or refused", timeout=90.0)
    assert what == "refused" or (held and answer is None), (what, answer)
    if what == "refused":
        assert await tap(fake_api, actor_user(table, live), live, data) is None
    else:
        await gone(fake_api, live)
    taps += 1
    taps += await finish(fake_api, table, rng)
    row = await stored.settled(storage, duel_id)
    assert (row.version, row.status, row.shown_version) == (taps, DuelStatus.FINISHED, taps)
    assert stored.actions(row) == taps  # every press that was answered, once
    assert len(await storage.results.for_chat(table.chat.id)) == 1
    await gone(fake_api, *[x for x in fake_api.bot_messages(table.chat) if duel_keyboard(x)])
    left = fake_api.bot_messages(table.chat)
    assert len(left) == 2, [text_of(x)[:60] for x in left]
    assert "wins the duel" in text_of(left[1]) or "draw" in text_of(left[1]).lower()
    assert PASSWORD not in bot.log()
    assert not refused_calls(fake_api, allow=("message is not modified",))
    await bot.kill()
    await bot.close_storage()


async def test_healthz_is_503_while_the_database_is_gone_and_200_once_it_is_back(
        doomed: tuple[str, str], fake_api: FakeTelegramAPI,
        launch_bot: LaunchBot) -> None:
    admin, url = doomed
    port = free_port()
    bot = await launch_bot(db_path=with_password(url), env=ops_env(port))
    assert await health(port) == (200, "ok\n")
    # Through a pooler the connection to it stands, and a statement waits for a server one.
    why = "the database did not answer within 2 s" if "pooler=" in url else \
        "the database cannot be reached"
    async with outage(admin, url):
        status, reason = await health(port)
        assert (status, reason) == (503, f"{why}\n")
        assert PASSWORD not in reason and bot.running

    async def healthy() -> bool | None:
        return True if await health(port) == (200, "ok\n") else None

    await until(healthy, "/healthz ok again")  # the pool connects again on its own
    assert PASSWORD not in bot.log()
    assert f"health: {why}" in bot.log()
    await bot.kill()
