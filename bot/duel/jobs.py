"""Timed work: challenge expiry, and keeping every live duel's message up to date.

A challenge's expiry is a due row (kind `challenge.expire`, key its id: bot.common.due), armed
once its message is sent; any worker expires it, and only a challenge still open (the
compare-and-swap of `settle`), so a second firing does nothing. At start `resume` brings every
live duel's message up to date, closes challenges that were saved but never sent, and arms
every pending challenge's expiry again (idempotent: a row due sooner is kept); the one sync
job (`bot.common.sync`) redraws any duel whose message fell behind (a network failure, a
crash between save and send).
"""

from __future__ import annotations

import logging

from telegram import Bot

from bot.common import due
from bot.common.handlers import chat_language
from bot.duel import timers
from bot.duel.challenges import settle
from bot.duel.present import LIVE
from bot.services import Services, services
from bot.storage import ChallengeStatus
from bot.storage.challenges import UNSENT_GRACE
from bot.storage.chat_move import ChatMove
from bot.telegram import App

log = logging.getLogger(__name__)


EXPIRE = "challenge.expire"


async def schedule_expiry(app: App, challenge_id: int, delay: float, *,
                          sooner_only: bool = False) -> None:
    await due.of(app).later(EXPIRE, str(challenge_id), delay, sooner_only=sooner_only)


async def expire_challenge(app: App, key: str, data: object) -> None:
    svc = services(app.bot_data)
    c = await svc.storage.challenges.get(int(key))
    if c is None or not c.is_pending:
        return
    if c.expires_at > svc.clock():  # re-armed early (clock skew): try again later
        await schedule_expiry(app, c.id, c.expires_at - svc.clock())
        return
    challenger = await svc.storage.users.get(c.challenger_id)
    tr = await chat_language(svc, c.chat_id, challenger.language_code if challenger else None)
    await settle(svc, app.bot, tr, c, ChallengeStatus.EXPIRED)


async def show_moved(svc: Services, bot: Bot, moved: ChatMove) -> None:
    """A group became a supergroup: its live duels are shown there at once."""
    for duel_id in moved.live_of(LIVE.game.kind):
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
        await schedule_expiry(app, c.id, c.expires_at - svc.clock(), sooner_only=True)
    turns = await timers.restore(app)
    log.info("resumed: %d live duel(s) redrawn, %d challenge timer(s) and %d turn timer(s) "
             "armed, %d never-sent challenge(s) closed", lagging, len(pending), turns, unsent)
