"""Six-card poker against the dealer in Telegram: the casino balance, the game's life in
storage (`service`), its message (`present`, `captions`, `keyboards`), the command's
arguments (`args`) and its handlers (`handlers`). The rules are `rules.sixcard`'s; nothing
here decides a hand."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.common import chats, sync
from bot.config import Config
from bot.sixcard import handlers, payloads, present, service
from bot.storage.sixcard import SixCardRepo
from bot.telegram import App
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (
    Command("sixcard", groups=True, private=True),
    Command("balance", groups=True, private=True),
    Command("rebuy", groups=True, private=True),
)
PAYLOADS = payloads.PAYLOADS

CHAT_GAMES = chats.ChatGames("six-card", forget=service.forget_chat,
                             make_room=service.make_room, show_moved=present.show_moved,
                             records=SixCardRepo)


def register(app: App) -> None:
    """The commands and the game's buttons, the sync job's redraws and what a chat's end
    does to its games."""
    app.add_handler(CommandHandler("sixcard", handlers.sixcard_command))
    app.add_handler(CommandHandler("balance", shows(handlers.balance_command)))
    app.add_handler(CommandHandler("rebuy", handlers.rebuy_command))
    app.add_handler(present.LIVE.handler(payloads.SixCardPress))
    sync.plug(app, present.LIVE)
    chats.closes(app, CHAT_GAMES)


async def start(app: App, config: Config) -> None:
    """Once connected: every game's message brought up to date."""
    await present.resume(app)
