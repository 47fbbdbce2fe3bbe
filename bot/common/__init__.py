"""What every game and command shares: the one shell loop (`live`), the one refusal type
(`refusal`), the handlers' helpers (`handlers`), the error handler (`errors`), a chat's
life (`chats`: who is around, the bot leaving a chat, a group becoming a supergroup), the one
scheduler of whatever must happen later (`due`: rows any worker runs), the sync job that
keeps every game's messages up to date (`sync`) and the deletes a dead worker left
(`cleanup`). It knows no game: each game plugs itself in, in its package's `register(app)`."""

from __future__ import annotations

from telegram import Update
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.common import chats, cleanup, due, errors, handlers, sync
from bot.config import Config
from bot.telegram import App
from bot.telegram.callbacks import Payload
from bot.telegram.menu import Command

COMMANDS: tuple[Command, ...] = ()
PAYLOADS: tuple[type[Payload], ...] = ()


def register(app: App) -> None:
    """Who is around (every update, before any other handler: group -1), a group becoming a
    supergroup, the bot joining or leaving a chat, the error handler, and the answer to a
    press no game knows. Registered after every feature: that answer takes any press. And the
    due rows of the sync job and of the deletes a dead worker left."""
    due.register(app, sync.SYNC, sync.sync_lagging)
    due.register(app, cleanup.ORPHANS, cleanup.adopt_orphans)
    app.add_handler(TypeHandler(Update, chats.remember), group=-1)
    app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, chats.on_migrate))
    app.add_handler(CallbackQueryHandler(handlers.on_unknown))
    app.add_handler(ChatMemberHandler(chats.on_my_membership, ChatMemberHandler.MY_CHAT_MEMBER))
    app.add_error_handler(errors.on_error)


async def start(app: App, config: Config) -> None:
    """Once every game has shown what it lost track of: the one job that keeps every game's
    messages up to date, and another worker's fallback for the deletes written down."""
    await sync.arm_sync(app)
    cleanup.arm(app)
