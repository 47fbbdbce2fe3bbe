"""A tournament's timed work, all derived from the database so a restart loses nothing: a
finished duel of a pairing posts the table again (a listener on the duel's presentation),
and a job every `TICK` seconds decides the walkovers of rounds whose time is over, posts a
table that fell behind its results (a crash between a result and its post), and ends a
tournament whose every pairing is decided, with the final table."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Bot
from telegram.ext import ContextTypes

from bot.config import Config
from bot.services import Services, services
from bot.storage import DuelRecord
from bot.storage.tournaments import TournamentStatus
from bot.telegram import App
from bot.tournament import present
from bot.tournament.service import Walkover, finish, load, walkovers

log = logging.getLogger(__name__)

TICK = 60.0  # seconds between looks at the running tournaments (times the time scale)
AFTER_RESULT = 1.0  # seconds after a duel's result is shown before the table follows it
SCALE = "sixshooter.tournament_scale"  # bot_data: the time scale of rounds (tests speed it)


def scale_of(bot_data: dict[str, Any]) -> float:
    found = bot_data.get(SCALE, 1.0)
    return float(found) if isinstance(found, (int, float)) else 1.0


async def refresh(svc: Services, bot: Bot, tournament_id: int,
                  decided: list[Walkover] | None = None) -> None:
    """Bring a running tournament's messages up to its results: the final table once every
    pairing is decided, else the table whenever it shows fewer decided pairings than there
    are."""
    async with svc.lock(f"tournament:{tournament_id}"):
        field = await load(svc, tournament_id)
        if field is None or field.record.status is not TournamentStatus.RUNNING:
            return
        if field.complete:
            if await finish(svc, field) is None:
                return
            log.info("tournament %d finished", tournament_id)
            field = await load(svc, tournament_id)
            if field is not None:
                await present.post_table(svc, bot, field, decided)
            return
        if decided or field.decided != field.record.shown:
            await present.post_table(svc, bot, field, decided)


async def tick(svc: Services, bot: Bot) -> None:
    """Walkovers that are due, and any table behind, in every running tournament."""
    for t in await svc.storage.tournaments.running():
        async with svc.lock(f"tournament:{t.id}"):
            field = await load(svc, t.id)
            done = await walkovers(svc, field) if field is not None else []
        await refresh(svc, bot, t.id, done)


async def _tick_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    await tick(services(context.bot_data), context.bot)


async def _refresh_job(context: ContextTypes.DEFAULT_TYPE) -> None:
    job = context.job
    if job is not None and isinstance(job.data, int):
        await refresh(services(context.bot_data), context.bot, job.data)


def install(app: App, config: Config) -> None:
    """The listener on finished duels and the tick (its first look soon after start)."""
    svc = services(app.bot_data)
    app.bot_data[SCALE] = config.time_scale
    queue = app.job_queue

    async def on_presented(record: DuelRecord) -> None:
        if record.status.value != "finished" or record.practice or queue is None:
            return
        match = await svc.storage.tournaments.match_of_duel(record.id)
        if match is not None:
            queue.run_once(_refresh_job, when=AFTER_RESULT, data=match.tournament_id,
                           name=f"tournament:{match.tournament_id}")

    svc.on_presented.append(on_presented)
    if queue is not None:
        queue.run_repeating(_tick_job, interval=max(1.0, TICK * config.time_scale), first=2.0,
                            name="tournaments")
