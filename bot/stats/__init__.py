"""/stats and /history: the standings computed from the saved results (standings), worded
(text) and drawn (render.standings), answered (handlers)."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.config import Config
from bot.stats import handlers, payloads, season_end
from bot.telegram import App, callbacks
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (
    Command("stats", groups=True, private=True),
    Command("history", groups=True, private=True),
)


def register(app: App) -> None:
    app.add_handler(CommandHandler("stats", shows(handlers.stats)))
    app.add_handler(CommandHandler("history", shows(handlers.history)))
    app.add_handler(callbacks.handler(payloads.BoardPress, handlers.on_board))


async def start(app: App, config: Config) -> None:
    """Once connected: the season-end post's job armed."""
    await season_end.arm(app)
