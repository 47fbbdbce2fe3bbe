"""Timed work: challenge expiry, and keeping every live duel's message up to date.

The job queue is not persistent, so everything here is derived from the database: at start
`resume` brings every live duel's message up to date, closes challenges that were saved but
never sent, and re-arms every pending challenge's expiry; the one sync job
(`bot.common.sync`) redraws any duel whose message fell behind (a network
failure, a crash between save and send).
"""

from __future__ import annotations

import logging

from telegram import Bot
from telegram.ext import ContextTypes

from bot.common.handlers import chat_language
from bot.duel import timers
from bot.duel.challenges import settle
from bot.duel.present import LIVE
from bot.services import Services, services
from bot.storage import ChallengeStatus
from bot.storage.challenges import UNSENT_GRACE
from bot.storage.migrate import ChatMove
from bot.telegram import App

log = logging.getLogger(__name__)


def schedule_expiry(app: App, challenge_id: int, delay: float) -> None:
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


async def show_moved(svc: Services, bot: Bot, moved: ChatMove) -> None:
    """A group became a supergroup: its live duels are shown there at once."""
    for duel_id in moved.live_duels:
        await LIVE.sync(svc, bot, duel_id)


async def resume(app: App) -> None:
    """After a start: every live duel's message up to date, every challenge's timer and
    every live duel's turn timer armed."""
    svc = services(app.bot_data)
    lagging = await LIVE.resync(svc, app.bot)
    # A challenge saved but never shown (the bot stopped between the insert and the send)
    # must not block its challenger: nobody can see it, let alone accept it.
    unsent = await svc.storage.challenges.expire_unsent(svc.clock() - UNSENT_GRACE)
    pending = await svc.storage.challenges.list_pending()
    for c in pending:
        schedule_expiry(app, c.id, c.expires_at - svc.clock())
    turns = await timers.restore(app)
    log.info("resumed: %d live duel(s) redrawn, %d challenge timer(s) and %d turn timer(s) "
             "armed, %d never-sent challenge(s) closed", lagging, len(pending), turns, unsent)
