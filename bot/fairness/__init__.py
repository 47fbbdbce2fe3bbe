"""/verify and `sixshooter verify`: anyone can check that a round's deck was fixed before
it was dealt (verify: the proof's parts and the offline check; handlers: the command)."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.fairness import handlers
from bot.telegram import App
from bot.telegram.callbacks import Payload
from bot.telegram.menu import Command

COMMANDS = (Command("verify", groups=True, private=True),)
PAYLOADS: tuple[type[Payload], ...] = ()


def register(app: App) -> None:
    app.add_handler(CommandHandler("verify", handlers.verify))
