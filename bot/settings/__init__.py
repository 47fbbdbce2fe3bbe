"""/settings: a chat's settings and the buttons that change them (keyboards: the message;
handlers: the command and its presses, s:...)."""

from __future__ import annotations

from telegram.ext import CallbackQueryHandler, CommandHandler

from bot.settings import handlers
from bot.telegram import App
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (Command("settings", groups=True, private=True),)


def register(app: App) -> None:
    app.add_handler(CommandHandler("settings", shows(handlers.settings_command)))
    app.add_handler(CallbackQueryHandler(handlers.on_settings, pattern=r"^s:"))
