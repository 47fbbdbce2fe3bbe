"""/settings: a chat's settings and the buttons that change them (keyboards: the message;
handlers: the command and its presses, s:...)."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.settings import handlers, payloads
from bot.telegram import App, callbacks
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (Command("settings", groups=True, private=True),)
PAYLOADS = payloads.PAYLOADS


def register(app: App) -> None:
    app.add_handler(CommandHandler("settings", shows(handlers.settings_command)))
    app.add_handler(callbacks.handler(payloads.SettingsPress, handlers.on_settings))
