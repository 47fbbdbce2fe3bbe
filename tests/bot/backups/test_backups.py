"""Automatic backups (bot.backups): one due row backs the bot's own database up every period,
in a thread while the event loop goes on, keeps the newest KEEP, and a restart neither doubles
nor skips one."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from bot import backups
from bot.common import due
from bot.config import Config
from bot.storage import Storage, locate
from bot.storage.backup import backups as listed
from bot.storage.backup import stamped
from bot.telegram import App

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"
HOUR = 3600


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[tuple[App, Storage]]:
    """The bot's own database, and an application with its scheduler (started by the test)."""
    storage = await Storage.open(tmp_path / "sixshooter.db")
    app = cast(App, SimpleNamespace(bot_data={}))
    scheduler = due.Scheduler(app, storage.jobs, can=storage.can,
                              handlers={backups.BACKUP: backups.on_due}, backoff=(0.01, 0.05))
    app.bot_data[due.KEY] = scheduler
    yield app, storage
    await scheduler.stop(grace=0.1)
    await storage.close()


def config(tmp_path: Path, **kw: object) -> Config:
    out = tmp_path / "backups"
    out.mkdir(exist_ok=True)
    settings: dict[str, object] = {"backup_dir": out, "backup_every": HOUR, "backup_keep": 3}
    return Config(token=TOKEN, database=locate(tmp_path / "sixshooter.db"),
                  **(settings | kw))  # type: ignore[arg-type]


async def until(done: Callable[[], Awaitable[bool]], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not await done():
            await asyncio.sleep(0.01)


async def test_the_first_backup_runs_at_once_then_one_each_period(
        tmp_path: Path, bot: tuple[App, Storage]) -> None:
    app, storage = bot
    settings = config(tmp_path)
    out = settings.backup_dir
    assert out is not None
    await backups.start(app, settings)
    await due.of(app).start()
    await until(lambda: _made(out, 1))
    [made] = listed(out, "sixshooter")
    assert sqlite3.connect(made).execute("PRAGMA quick_check").fetchone() == ("ok",)
    await due.of(app).idle()  # its run ended: the next armed
    row = await storage.jobs.get(backups.BACKUP, "all")
    assert row is not None and row.owner is None
    assert HOUR - 60 < row.due_at - time.time() <= HOUR  # the next


async def test_a_restart_just_after_a_backup_waits_for_the_period(
        tmp_path: Path, bot: tuple[App, Storage]) -> None:
    app, storage = bot
    settings = config(tmp_path)
    assert settings.backup_dir is not None
    ten_minutes_ago = datetime.fromtimestamp(time.time() - 600, UTC)
    stamped(settings.backup_dir, "sixshooter", ten_minutes_ago).write_bytes(b"a backup")
    await backups.start(app, settings)
    row = await storage.jobs.get(backups.BACKUP, "all")
    assert row is not None and HOUR - 660 < row.due_at - time.time() <= HOUR - 600
    # A row that comes due early anyway (armed by an older setting) backs nothing up twice.
    await storage.jobs.schedule(backups.BACKUP, "all", time.time())
    await due.of(app).start()
    await until(lambda: _due_later(storage))
    await due.of(app).idle()
    assert len(listed(settings.backup_dir, "sixshooter")) == 1


async def test_rotation_keeps_the_newest_n(tmp_path: Path, bot: tuple[App, Storage]) -> None:
    settings = config(tmp_path, backup_keep=3)
    out = settings.backup_dir
    assert out is not None
    old = [stamped(out, "sixshooter", datetime(2026, 1, d, tzinfo=UTC)) for d in range(1, 6)]
    for path in old:
        path.write_bytes(b"old")
    plan = backups.Plan(tmp_path / "sixshooter.db", out, HOUR, 3)
    await backups.back_up(plan)
    kept = listed(out, "sixshooter")
    assert kept[:2] == old[-2:] and len(kept) == 3 and kept[-1] not in old


async def test_turned_off_the_row_is_dropped(tmp_path: Path, bot: tuple[App, Storage]) -> None:
    app, storage = bot
    await backups.start(app, config(tmp_path))
    assert await storage.jobs.get(backups.BACKUP, "all") is not None
    await backups.start(app, config(tmp_path, backup_dir=None))
    assert await storage.jobs.get(backups.BACKUP, "all") is None
    await backups.on_due(app, "all", None)  # a row left over: nothing done, nothing armed
    assert await storage.jobs.get(backups.BACKUP, "all") is None


async def test_the_event_loop_answers_while_the_copy_is_made(
        tmp_path: Path, bot: tuple[App, Storage]) -> None:
    """The copy runs in a thread: the loop's longest stall meanwhile is a moment."""
    _, storage = bot
    await storage.close()
    db = sqlite3.connect(tmp_path / "sixshooter.db", isolation_level=None)
    db.execute("CREATE TABLE filler (v TEXT)")
    db.execute("BEGIN")
    db.executemany("INSERT INTO filler VALUES (?)", (("x" * 500,) for _ in range(60_000)))
    db.execute("COMMIT")
    db.close()
    plan = backups.Plan(tmp_path / "sixshooter.db", config(tmp_path).backup_dir or tmp_path,
                        HOUR, 3)
    gaps: list[float] = []
    copying = asyncio.ensure_future(backups.back_up(plan))
    last = time.perf_counter()
    while not copying.done():
        await asyncio.sleep(0.005)
        now = time.perf_counter()
        gaps.append(now - last)
        last = now
    await copying
    assert len(gaps) > 5 and max(gaps) < 0.5, (len(gaps), max(gaps))


async def test_a_stopping_bot_interrupts_the_copy_and_keeps_nothing_half_done(
        tmp_path: Path, bot: tuple[App, Storage]) -> None:
    out = config(tmp_path).backup_dir
    assert out is not None
    plan = backups.Plan(tmp_path / "sixshooter.db", out, HOUR, 3)
    copying = asyncio.ensure_future(backups.back_up(plan))
    await asyncio.sleep(0)
    copying.cancel()
    with pytest.raises(asyncio.CancelledError):
        await copying
    assert [p.name for p in out.iterdir() if p.name.endswith(".tmp")] == []


async def _made(out: Path, n: int) -> bool:
    return len(listed(out, "sixshooter")) == n


async def _due_later(storage: Storage) -> bool:
    """Has the early row run (and armed itself for the period's end)?"""
    row = await storage.jobs.get(backups.BACKUP, "all")
    return row is not None and row.due_at > time.time() + HOUR / 2
