"""A backup brings a bot back: `sixshooter db backup` while the bot runs mid-duel (the bot
holds its lock and keeps it), the bot stopped, its database replaced by the copy (its -wal and
-shm removed, as the README says), the bot started again: the duel is played to its end."""

from __future__ import annotations

import asyncio
import random
import shutil
import time
from pathlib import Path

from bot.backups import BACKUP
from bot.storage import DuelStatus
from bot.storage.backup import backups
from tests.support import stored
from tests.support.botprocess import LaunchBot, bot_command
from tests.support.driver import duel_id_of, finish, move, new_table, open_duel, refused_calls
from tests.support.fakeapi import FakeTelegramAPI


async def _backup(db: Path, dest: Path) -> tuple[int, str]:
    done = await asyncio.create_subprocess_exec(
        *bot_command(), "db", "backup", str(dest), "--db", str(db),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await done.communicate()
    assert done.returncode is not None
    return done.returncode, out.decode()


async def test_a_backup_made_mid_duel_restores_the_bot_and_the_duel_ends(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot, tmp_path: Path) -> None:
    bot = await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off"})
    db = Path(bot.db_path)
    storage = await bot.storage()
    table, _ = new_table(fake_api)
    m = await open_duel(fake_api, table)
    duel_id = duel_id_of(m)
    rng = random.Random(37)
    for _ in range(3):
        await move(fake_api, table, rng)
    before = await stored.settled(storage, duel_id)
    await stored.inbox_empty(storage)

    out = tmp_path / "backups"
    out.mkdir()
    code, said = await _backup(db, out)  # the bot runs: its lock is held
    assert code == 0, said
    assert bot.running
    [copy] = list(out.iterdir())
    assert said.startswith(f"backed up {db} to {copy}: "), said

    # Restore: stop the bot, replace the file, remove the -wal and -shm beside it, start.
    await bot.close_storage()
    assert await bot.stop() == 0
    for extra in ("-wal", "-shm"):
        Path(f"{db}{extra}").unlink(missing_ok=True)
    shutil.copyfile(copy, db)
    await bot.start()
    storage = await bot.storage()
    restored = await stored.duel(storage, duel_id)
    assert (restored.version, restored.status) == (before.version, DuelStatus.LIVE)

    taps = await finish(fake_api, table, rng)
    assert taps > 0
    ended = await stored.until(lambda: stored.duel(storage, duel_id),
                               lambda d: d.status == DuelStatus.FINISHED, "the duel's end")
    assert ended.version > before.version
    assert not refused_calls(fake_api)


async def test_automatic_backups_run_at_start_and_a_restart_does_not_double_them(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot, tmp_path: Path) -> None:
    out = tmp_path / "auto"
    out.mkdir()
    bot = await launch_bot(env={"SIXSHOOTER_RATE_LIMIT": "off", "SIXSHOOTER_BACKUP_DIR": str(out),
                                "SIXSHOOTER_BACKUP_EVERY": "24h", "SIXSHOOTER_BACKUP_KEEP": "2"})
    storage = await bot.storage()

    async def made() -> list[Path]:
        return backups(out, Path(bot.db_path).stem)

    async def next_backup() -> float:
        row = await storage.jobs.get(BACKUP, "all")
        return 0.0 if row is None or row.owner is not None else row.due_at - time.time()

    [first] = await stored.until(made, lambda found: len(found) == 1, "the first backup")
    await stored.until(next_backup, lambda wait: wait > 23 * 3600, "the next one armed")
    table, _ = new_table(fake_api)  # the bot answers as ever
    await open_duel(fake_api, table)

    assert await bot.stop() == 0
    since = fake_api.last_seq
    await bot.start()
    await fake_api.wait_for_request("getUpdates", since=since, timeout=30.0)
    # Armed again at start for a day after the first: not made again now.
    await stored.until(next_backup, lambda wait: wait > 23 * 3600, "the next one armed")
    assert await made() == [first]
    assert "backed up to" in bot.log() and "Traceback" not in bot.log()
