"""Long polling with the offset moved only past saved updates, by one process at a time.

Telegram forgets the updates before `offset` when getUpdates is called with it, so the offset
moves past a batch only once `Intake.receive` has saved it: a kill in between and the next
getUpdates (this process restarted, or another) gets the same batch again, whose saved rows
then say what is new. python-telegram-bot's own poller asks for the next batch before the batch
in hand is handled, which loses it to a kill; it is not used.

One poller per token (a second gets 409 Conflict): on PostgreSQL every process runs `lead`, and
the one holding the database lock `lock_name(bot id)` polls while the others stand by, trying
it every `TRY_EVERY` seconds. The lock lives on its own connection, so it ends with the
leader's process (kill -9: at once) or machine (network loss: the server's keepalives, about 11
s); the leader checks its hold every `CHECK_EVERY` seconds and stops polling as soon as it
cannot confirm it, so a cut-off leader and its successor overlap a few seconds at most, and the
inbox drops whatever both fetched. Through a transaction pooler, where no session holds a lock,
it is a lease the leader renews at each check, taken by a standby once it has lapsed by the
database's clock, and given up by a leader that cannot renew before then: two never poll at
once, and a killed leader is followed within the lease's length and a try (about 10 s;
bot.storage.locks). On SQLite the hold always succeeds: one process by its file lock.

Each batch is asked for as JSON (`fetch`, through `bot.telegram.send.raw`), not as
python-telegram-bot's `Update` objects: the inbox keeps each update as Telegram sent it, and an
`Update` is made once, when a new update is handled (`get_updates` made one per update, which
the intake then turned back into JSON to save: a sixth of the event loop's time at 400 duels,
issue 21).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

from telegram import Bot
from telegram.error import Conflict, NetworkError, RetryAfter, TelegramError

from bot.ops import metrics
from bot.storage import HeldLock, Storage, StorageError
from bot.telegram import App
from bot.telegram.connect import delays, describe
from bot.telegram.intake import Intake, Raw, is_update
from bot.telegram.send import raw, retry_after_seconds

log = logging.getLogger(__name__)

TRY_EVERY = 2.0  # seconds between a standby's attempts to take the lead
CHECK_EVERY = 2.0  # seconds between the leader's checks that it still holds the lock
POLL_TIMEOUT = 10  # seconds Telegram holds a getUpdates open when there is nothing new
READ_SLACK = 5.0  # seconds beyond POLL_TIMEOUT that an answer to getUpdates may take


def lock_name(bot_id: int) -> str:
    """One poller per bot: two bots sharing a database do not wait for each other."""
    return f"sixshooter:poller:{bot_id}"


async def lead(app: App, intake: Intake, storage: Storage, allowed: Sequence[str],
               stop: asyncio.Event) -> None:
    """Poll while this process holds the lead, stand by while another does, until `stop`."""
    standing_by = False
    while not stop.is_set():
        try:
            held = await storage.try_hold(lock_name(app.bot.id))
        except StorageError as e:
            log.warning("cannot ask the database who polls (%s)", e)
            held = None
        if held is None:
            if not standing_by:
                log.info("standing by: another process polls Telegram")
                standing_by = True
            await _wait(stop, TRY_EVERY)
            continue
        standing_by = False
        log.info("polling Telegram: this process leads")
        metrics.set_poller(True)
        tasks = [asyncio.create_task(poll(app, intake, storage, allowed), name="poll"),
                 asyncio.create_task(_watch(held), name="poll-lock"),
                 asyncio.create_task(stop.wait(), name="poll-stop")]
        try:
            done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await held.release()
            metrics.set_poller(False)
        if stop.is_set():
            return
        error = tasks[0].exception() if tasks[0] in done else None
        if error is not None:  # a bug: logged, and polling goes on
            log.error("polling failed: %s", describe(error), exc_info=error)
            await _wait(stop, TRY_EVERY)
        else:
            log.warning("lost the database's lock: stopped polling, standing by")


async def _watch(held: HeldLock) -> None:
    while await held.alive():
        await asyncio.sleep(CHECK_EVERY)


async def _wait(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def poll(app: App, intake: Intake, storage: Storage, allowed: Sequence[str]) -> None:
    """getUpdates forever, each batch saved before the offset moves past it."""
    bot = app.bot
    last = await storage.inbox.last_id()
    offset = None if last is None else last + 1
    with contextlib.suppress(TelegramError):  # a webhook left set would answer 409 forever
        await bot.delete_webhook(drop_pending_updates=False)
    waits = delays()
    while True:
        try:
            updates = await fetch(bot, offset, allowed)
        except Conflict:
            log.warning("another poller holds getUpdates (409 Conflict): retrying")
            await asyncio.sleep(1.0)
            continue
        except RetryAfter as e:
            await asyncio.sleep(retry_after_seconds(e))
            continue
        except NetworkError as e:  # includes TimedOut and Telegram's 5xx
            delay = next(waits)
            log.warning("getUpdates failed (%s): next in %g s", describe(e), delay)
            await asyncio.sleep(delay)
            continue
        waits = delays()
        if not updates:
            continue
        await intake.receive(updates)  # saved (or, the database away, handled unsaved)
        offset = int(updates[-1]["update_id"]) + 1


async def fetch(bot: Bot, offset: int | None, allowed: Sequence[str]) -> list[Raw]:
    """One getUpdates: the updates at or after `offset`, each as Telegram sent it (anything
    that is no update is left out)."""
    kwargs: dict[str, Any] = {"timeout": POLL_TIMEOUT, "allowed_updates": list(allowed)}
    if offset is not None:
        kwargs["offset"] = offset
    result = await raw(bot, "getUpdates", kwargs, read_timeout=POLL_TIMEOUT + READ_SLACK)
    return [u for u in result if is_update(u)] if isinstance(result, list) else []
