"""Build the python-telegram-bot Application: handlers, storage, rate limiter, start-up."""

from __future__ import annotations

import logging
from typing import Any

from telegram.ext import ApplicationBuilder

from bot import backups, common, duel, fairness, info, settings, sixcard, stats, tournament
from bot.common import chats, due
from bot.config import Config
from bot.offload import Offload
from bot.ops import memory, metrics
from bot.ops import server as ops
from bot.services import KEY, Services, services
from bot.storage import Storage, watch
from bot.telegram import App, callbacks, menu
from bot.telegram.flood import DatabaseWindow
from bot.telegram.http import MeteredRequest
from bot.telegram.menu import Command
from bot.telegram.ratelimit import ChatRateLimiter
from bot.telegram.scheduling import FairUpdateProcessor

log = logging.getLogger(__name__)

# The feature packages, each registering its handlers, in this order: also the menu's order.
# `common` comes last: its answer to a press no feature knows takes any press (its other
# handlers are of their own kinds or group, so their place changes nothing).
FEATURES = (duel, sixcard, stats, tournament, fairness, settings, info, backups, common)
MENU: tuple[Command, ...] = tuple(c for f in FEATURES for c in f.COMMANDS)
# What runs once the bot is connected, in order: the duels (their turn timers hooked before
# any is shown again), the six-card games, the tournaments, the season-end post's job, then
# the one sync job for every game.
STARTS = (duel.start, sixcard.start, tournament.start, stats.start, backups.start, common.start)
CONFIG = "sixshooter.config"
OPS = "sixshooter.ops"  # the running /metrics and /healthz server, if any
UPDATES = ["message", "callback_query", "my_chat_member", "inline_query",
           "chosen_inline_result"]
SEND_READ_TIMEOUT = 25.0  # seconds to wait for Telegram's answer to a request (PTB: 5)
MEDIA_WRITE_TIMEOUT = 30.0  # seconds to upload a picture (PTB: 20)
POOL_SIZE = 8  # connections to the Bot API (getUpdates has its own)
POOL_WAIT = 10.0  # seconds a request may wait for one of them


def build(config: Config) -> App:
    # Each feature's buttons under prefixes of their own: two under one is a bug.
    callbacks.check_prefixes(p for f in FEATURES for p in f.PAYLOADS)
    # Any: each builder call changes the builder's generic type, which a conditional cannot name.
    builder: Any = ApplicationBuilder().token(config.token)
    builder = builder.job_queue(None)  # what must happen later is a due row (bot.common.due)
    if config.api_base_url:
        base = config.api_base_url.rstrip("/")
        builder = builder.base_url(base).base_file_url(base.removesuffix("/bot") + "/file/bot")
    if config.rate_limit:
        # Telegram's flood limits (30 messages/s overall, 20/min per group), a RetryAfter
        # pausing only its own chat and retried a few times before bot.telegram.send sees it.
        builder = builder.rate_limiter(ChatRateLimiter())
    # Connections: the flood limits keep about 30 sends a second in flight, so a small pool
    # serves them all; 256 idle-checked connections cost a fifth of the bot's CPU in httpx's
    # pool bookkeeping. A request waits up to POOL_WAIT for a free one instead of failing.
    # Answers: a photo upload on a slow link takes many seconds, and a send that timed out is
    # not sent again (it may have arrived: bot.telegram.send), so give Telegram time to answer.
    # Every call, getUpdates too, goes through MeteredRequest: counted for /metrics.
    builder = builder.request(MeteredRequest(
        connection_pool_size=POOL_SIZE, pool_timeout=POOL_WAIT, read_timeout=SEND_READ_TIMEOUT,
        media_write_timeout=MEDIA_WRITE_TIMEOUT))
    builder = builder.get_updates_request(MeteredRequest(connection_pool_size=1))
    # No updater: updates come in through bot.telegram.intake, saved before they are
    # acknowledged (bot.telegram.runner runs the application).
    app: App = (
        builder.updater(None).concurrent_updates(FairUpdateProcessor())
        .post_init(_started)
        .post_stop(_stopping)
        .post_shutdown(_stopped)
        .build()
    )
    app.bot_data[CONFIG] = config
    watch(metrics.DATABASE)  # every statement of this process timed for /metrics
    for feature in FEATURES:
        feature.register(app)
    return app


def pace(limiter: ChatRateLimiter, storage: Storage) -> None:
    """On PostgreSQL several workers may share the token, so they share its flood budget: the
    limiter (built before storage opens) counts in the database from now on. SQLite has one
    bot per file: its memory is the whole budget."""
    if not storage.can.one_process:
        limiter.share(DatabaseWindow(storage.flood))


async def _started(app: App) -> None:
    config = app.bot_data[CONFIG]
    # In the application's own event loop, with the games' records as they registered them.
    storage = await Storage.open(config.database, games=chats.records(app))
    # The searches in a process pool of their own, started at the first one (bot.offload).
    svc = Services(storage=storage, challenge_ttl=config.challenge_ttl, offload=Offload(),
                   chat_games=chats.closing(app))  # as the features registered them
    limiter = app.bot.rate_limiter
    if isinstance(limiter, ChatRateLimiter):  # old messages are deleted when a chat has room
        svc.janitor.room = limiter.room
        pace(limiter, storage)
    svc.janitor.journal = storage.deletes  # what waits to be deleted survives a kill
    app.bot_data[KEY] = svc
    scheduler = due.install(app, storage.jobs, storage.can)  # the features arm due rows
    scheduler.on_counts = metrics.set_jobs  # jobs due and overdue, on /metrics
    me = await app.bot.get_me()
    svc.bot_username = me.username or ""
    await menu.register(app.bot, MENU)
    for start in STARTS:
        await start(app, config)
    await svc.janitor.resume(app.bot)  # the old messages a kill left undeleted
    await scheduler.start()  # every feature's handler is ready: run what is due
    log.info("@%s is up", svc.bot_username)
    app.bot_data[OPS] = await ops.start(config, lambda: svc.storage)  # /metrics, /healthz
    memory.tame_gc()  # all that lives as long as the process is loaded by now


def storage_of(app: App) -> Storage:
    return services(app.bot_data).storage


async def _stopping(app: App) -> None:
    await due.stop(app)  # no job starts once updates stop; running ones end or are freed


async def _stopped(app: App) -> None:
    await due.stop(app)  # (if the start-up failed before the application ran)
    if KEY in app.bot_data:
        await services(app.bot_data).janitor.close(app.bot)
        await services(app.bot_data).storage.close()
        services(app.bot_data).drawer.shutdown()
        await services(app.bot_data).offload.close()
    if app.bot_data.get(OPS) is not None:  # (a closed database meanwhile: /healthz says 503)
        await app.bot_data.pop(OPS).stop()
