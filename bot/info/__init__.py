"""The bot's own pages: /start, /help, /rules."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.info import handlers
from bot.telegram import App
from bot.telegram.callbacks import Payload
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (
    Command("start", groups=False, private=True),
    Command("rules", groups=True, private=True),
    Command("help", groups=True, private=True),
)
PAYLOADS: tuple[type[Payload], ...] = ()


def register(app: App) -> None:
    app.add_handler(CommandHandler("start", handlers.start))
    app.add_handler(CommandHandler("help", shows(handlers.help_command)))
    app.add_handler(CommandHandler("rules", shows(handlers.rules)))
