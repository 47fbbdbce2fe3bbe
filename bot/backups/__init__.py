"""Automatic backups of the SQLite database (SIXSHOOTER_BACKUP_DIR, _EVERY, _KEEP): a due row
(kind `backup`, one row, key "all"), so one runs at a time and a restart neither skips nor
doubles one. Each run backs up (`bot.storage.backup.Copy`, in a thread: the event loop goes on
answering) unless the newest backup in the directory is younger than the period (a restart
just after one, or an operator's `db backup` there), keeps the newest KEEP, and arms the next.
A failed run is logged and tried again by the scheduler's backoff; a bot stopping meanwhile
interrupts the copy (nothing half-written is left) and the row runs again at the next start.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from bot.common import due
from bot.config import Config
from bot.storage.backup import Copy, backups, made_at, rotate
from bot.telegram import App
from bot.telegram.callbacks import Payload
from bot.telegram.menu import Command

log = logging.getLogger(__name__)

COMMANDS: tuple[Command, ...] = ()
PAYLOADS: tuple[type[Payload], ...] = ()
BACKUP = "backup"  # the due row's kind
KEY = "sixshooter.backups"  # the Plan in bot_data, while backups are on


@dataclass(frozen=True, slots=True)
class Plan:
    source: Path  # the SQLite file
    directory: Path
    every: float  # seconds
    keep: int

    def due_in(self, now: float) -> float:
        """Seconds until the next backup: the newest one's age past the period (0: now)."""
        made = backups(self.directory, self.source.stem)
        return 0.0 if not made else max(0.0, made_at(made[-1]) + self.every - now)


def register(app: App) -> None:
    due.register(app, BACKUP, on_due)


async def start(app: App, config: Config) -> None:
    """Once connected: the backups' row armed when they are on (a row left from when they
    were on is dropped)."""
    if config.backup_dir is None or config.db_path is None:
        app.bot_data.pop(KEY, None)
        await due.of(app).cancel(BACKUP, "all")
        return
    plan = Plan(config.db_path, config.backup_dir, float(config.backup_every),
                config.backup_keep)
    app.bot_data[KEY] = plan
    await due.of(app).later(BACKUP, "all", plan.due_in(time.time()))


async def on_due(app: App, key: str, data: object) -> None:
    plan = app.bot_data.get(KEY)
    if not isinstance(plan, Plan):
        return  # turned off since it was armed: not armed again
    wait = plan.due_in(time.time())
    if wait <= 0:
        await back_up(plan)
        wait = plan.every
    await due.of(app).later(BACKUP, key, wait)


async def back_up(plan: Plan) -> None:
    """One backup and the rotation, in a thread; the copy is interrupted if this is
    cancelled (the bot stopping), and its failure raises (BackupError, OSError)."""
    copy = Copy(plan.source, plan.directory)
    work = asyncio.ensure_future(asyncio.to_thread(copy.run))
    try:
        made = await asyncio.shield(work)
    except asyncio.CancelledError:
        copy.interrupt()
        await asyncio.gather(work, return_exceptions=True)  # its temporary file removed
        raise
    removed = await asyncio.to_thread(rotate, plan.directory, plan.source.stem, plan.keep)
    log.info("backed up to %s: %.1f MB in %.1f s, checked; %d older removed", made.path,
             made.size / 1e6, made.seconds, len(removed))
