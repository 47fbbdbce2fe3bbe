"""Timed work: challenge expiry, and keeping every live duel's message up to date.

The job queue is not persistent, so everything here is derived from the database: at start
`resume` brings every live duel's message up to date, closes challenges that were saved but
never sent, and re-arms every pending challenge's expiry; the periodic `sync_lagging` redraws
any duel whose message fell behind (a network failure, a crash between save and send).
"""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import Application, ContextTypes

from bot import timers
from bot.challenges import settle
from bot.handlers.common import chat_language
from bot.present import present
from bot.services import Services, services
from bot.storage import ChallengeStatus, DuelStatus
from bot.storage.challenges import UNSENT_GRACE

log = logging.getLogger(__name__)

SYNC_EVERY = 20.0  # seconds between checks for lagging duel messages
SYNC_GRACE = 5  # a save this recent is probably being shown right now


def schedule_expiry(app: Application[Any, Any, Any, Any, Any, Any], challenge_id: int,
                    delay: float) -> None:
    if app.job_queue is None:
        return
    app.job_queue.run_once(expire_challenge, when=max(0.0, delay), data=challenge_id,
                           name=f"challenge:{challenge_id}")


async def expire_challenge(context: ContextTypes.DEFAULT_TYPE) -> None:
    job = context.job
    if job is None or not isinstance(job.data, int):
        return
    svc = services(context.bot_data)
    c = await svc.storage.challenges.get(job.data)
    if c is None or not c.is_pending:
        return
    if c.expires_at > svc.clock():  # re-armed early (clock skew): try again later
        schedule_expiry(context.application, c.id, c.expires_at - svc.clock())
        return
    challenger = await svc.storage.users.get(c.challenger_id)
    tr = await chat_language(svc, c.chat_id, challenger.language_code if challenger else None)
    await settle(svc, context.bot, tr, c, ChallengeStatus.EXPIRED)


async def sync_duel(svc: Services, app: Application[Any, Any, Any, Any, Any, Any],
                    duel_id: int) -> None:
    async with svc.lock(f"duel:{duel_id}"):
        record = await svc.storage.duels.get(duel_id)
        if record is not None and record.status is not DuelStatus.ABANDONED and (
                record.needs_redraw):
            await present(svc, app.bot, record)


async def resume(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """After a start: every live duel's message up to date, every challenge's timer and
    every live duel's turn timer armed."""
    svc = services(app.bot_data)
    lagging = 0
    for record in await svc.storage.duels.lagging():
        lagging += 1
        await sync_duel(svc, app, record.id)
    # A challenge saved but never shown (the bot stopped between the insert and the send)
    # must not block its challenger: nobody can see it, let alone accept it.
    unsent = await svc.storage.challenges.expire_unsent(svc.clock() - UNSENT_GRACE)
    pending = await svc.storage.challenges.list_pending()
    for c in pending:
        schedule_expiry(app, c.id, c.expires_at - svc.clock())
    turns = await timers.restore(app)
    log.info("resumed: %d live duel(s) redrawn, %d challenge timer(s) and %d turn timer(s) "
             "armed, %d never-sent challenge(s) closed", lagging, len(pending), turns, unsent)


async def sync_lagging(context: ContextTypes.DEFAULT_TYPE) -> None:
    svc = services(context.bot_data)
    now = svc.clock()
    for record in await svc.storage.duels.lagging():
        if now - record.updated_at >= SYNC_GRACE:
            await sync_duel(svc, context.application, record.id)
