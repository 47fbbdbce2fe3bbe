"""The ops server in this process's event loop: /metrics and /healthz on their own port,
the health check's 503 with one line that names nothing secret, and a busy port."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator

import httpx
import pytest

from bot.config import Config
from bot.ops import health
from bot.ops import server as ops
from bot.storage import Storage, StorageError

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
PASSWORD = "pw-never-shown-4b1d"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broken:
    """A Storage whose database is gone (the message as the PostgreSQL engine words it)."""

    async def ping(self) -> None:
        raise StorageError(f"database 'postgresql://bot:{PASSWORD}@db.internal:5432/six': "
                           "ConnectionRefusedError: [Errno 111] Connect call failed")


class Stuck:
    async def ping(self) -> None:
        await asyncio.sleep(60)


@pytest.fixture
async def served(store: Storage) -> AsyncIterator[tuple[str, list[object]]]:
    """The server on a free port; the storage its getter returns is the list's one item."""
    current: list[object] = [store]
    port = free_port()
    running = await ops.start(Config(token=TOKEN, metrics_port=port),
                              lambda: current[0])  # type: ignore[arg-type, return-value]
    assert running is not None
    try:
        yield f"http://127.0.0.1:{port}", current
    finally:
        await running.stop()


async def get(url: str) -> httpx.Response:
    async with httpx.AsyncClient(timeout=10) as client:
        return await client.get(url)


async def test_metrics_and_health_answer_on_the_ops_port(
        served: tuple[str, list[object]], store: Storage) -> None:
    base, _ = served
    await store.duels.create(-100, None, (1, 2), "{}", 1000)
    ops._live_at[0] = -ops.LIVE_EVERY  # whatever an earlier test counted: count again
    metrics = await get(f"{base}/metrics")
    assert metrics.status_code == 200
    assert metrics.headers["content-type"].startswith("text/plain")
    assert 'sixshooter_live_games{game="duel"} 1.0' in metrics.text
    assert "sixshooter_db_statement_seconds_bucket" in metrics.text
    ok = await get(f"{base}/healthz")
    assert (ok.status_code, ok.text) == (200, "ok\n")
    assert (await get(f"{base}/")).status_code == 404  # nothing else is served


async def test_health_is_503_with_one_line_naming_nothing_secret(
        served: tuple[str, list[object]], caplog: pytest.LogCaptureFixture) -> None:
    base, current = served
    health._last_failure[0] = None  # healthy as far as the log knows
    current[0] = None
    starting = await get(f"{base}/healthz")
    assert starting.status_code == 503 and starting.text.startswith("starting")
    current[0] = Broken()
    with caplog.at_level(logging.WARNING, logger="bot.ops.health"):
        gone = await get(f"{base}/healthz")
        again = await get(f"{base}/healthz")
    assert (gone.status_code, gone.text) == (503, "the database cannot be reached\n")
    assert again.status_code == 503
    for secret in (PASSWORD, "db.internal", "bot:"):
        assert secret not in gone.text
    assert len([r for r in caplog.records if "cannot be reached" in r.getMessage()]) == 1


async def test_a_database_that_does_not_answer_is_503_within_the_timeout() -> None:
    reason = await health.check(Stuck(), timeout=0.05)  # type: ignore[arg-type]
    assert reason == "the database did not answer within 0.05 s"
    assert await health.check(None) is not None


async def test_no_port_no_server_and_a_busy_port_is_one_error(
        caplog: pytest.LogCaptureFixture) -> None:
    assert await ops.start(Config(token=TOKEN), lambda: None) is None
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with caplog.at_level(logging.ERROR, logger="bot.ops.server"):
            assert await ops.start(Config(token=TOKEN, metrics_port=port), lambda: None) is None
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and f"port {port}" in errors[0] and "\n" not in errors[0]
