"""Build the python-telegram-bot Application: handlers, storage, rate limiter, start-up."""

from __future__ import annotations

import logging
from typing import Any

from telegram import Update
from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot import fairness, info, settings, stats, timers
from bot.common import chats as members
from bot.common import live
from bot.config import Config
from bot.handlers import buttons, commands, errors
from bot.jobs import resume
from bot.services import KEY, Services, services
from bot.sixcard import present as sixcard_present
from bot.sixcard.handlers import balance_command, on_press, rebuy_command, sixcard_command
from bot.storage import Storage
from bot.telegram import menu
from bot.telegram.ratelimit import ChatRateLimiter
from bot.telegram.scheduling import FairUpdateProcessor

log = logging.getLogger(__name__)

App = Application[Any, Any, Any, Any, Any, Any]
CONFIG = "sixshooter.config"
UPDATES = ["message", "callback_query", "my_chat_member"]
SEND_READ_TIMEOUT = 25.0  # seconds to wait for Telegram's answer to a request (PTB: 5)
MEDIA_WRITE_TIMEOUT = 30.0  # seconds to upload a picture (PTB: 20)
POOL_SIZE = 8  # connections to the Bot API (getUpdates has its own)
POOL_WAIT = 10.0  # seconds a request may wait for one of them


def build(config: Config) -> App:
    # Any: each builder call changes the builder's generic type, which a conditional cannot name.
    builder: Any = ApplicationBuilder().token(config.token)
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
    builder = builder.connection_pool_size(POOL_SIZE).pool_timeout(POOL_WAIT)
    # Answers: a photo upload on a slow link takes many seconds, and a send that timed out is
    # not sent again (it may have arrived: bot.telegram.send), so give Telegram time to answer.
    builder = builder.read_timeout(SEND_READ_TIMEOUT).media_write_timeout(MEDIA_WRITE_TIMEOUT)
    app: App = (
        builder.concurrent_updates(FairUpdateProcessor())
        .post_init(_started)
        .post_shutdown(_stopped)
        .build()
    )
    app.bot_data[CONFIG] = config
    app.add_handler(TypeHandler(Update, members.remember), group=-1)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, members.on_migrate))
    info.register(app)
    app.add_handler(CommandHandler("duel", commands.duel))
    app.add_handler(CommandHandler("cancel", commands.cancel))
    app.add_handler(CommandHandler("surrender", commands.surrender))
    app.add_handler(CommandHandler("sixcard", sixcard_command))
    app.add_handler(CommandHandler("balance", balance_command))
    app.add_handler(CommandHandler("rebuy", rebuy_command))
    settings.register(app)  # /settings, and its presses (s:, no other pattern matches them)
    stats.register(app)
    fairness.register(app)
    app.add_handler(CallbackQueryHandler(buttons.on_duel, pattern=r"^d:"))
    app.add_handler(CallbackQueryHandler(buttons.on_challenge, pattern=r"^c:"))
    app.add_handler(CallbackQueryHandler(on_press, pattern=r"^x:"))
    app.add_handler(CallbackQueryHandler(buttons.on_unknown))
    app.add_handler(ChatMemberHandler(members.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(errors.on_error)
    return app


async def _started(app: App) -> None:
    config = app.bot_data[CONFIG]
    storage = await Storage.open(config.db_path)  # in the application's own event loop
    svc = Services(storage=storage, challenge_ttl=config.challenge_ttl)
    app.bot_data[KEY] = svc
    timers.install(app, svc, config.time_scale)  # before resume(): it restores the timers
    me = await app.bot.get_me()
    svc.bot_username = me.username or ""
    await menu.register(app.bot)
    await resume(app)
    await sixcard_present.resume(app)  # six-card games' messages
    live.arm_sync(app)  # one job keeps every game's messages up to date
    log.info("@%s is up", svc.bot_username)


async def _stopped(app: App) -> None:
    if KEY in app.bot_data:
        await services(app.bot_data).storage.close()
        services(app.bot_data).drawer.shutdown()
