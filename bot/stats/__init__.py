"""/stats and /history: the standings computed from the saved results (standings), worded
(text) and drawn (render.standings), answered (handlers)."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.common import due
from bot.config import Config
from bot.stats import handlers, payloads, season_end
from bot.telegram import App, callbacks
from bot.telegram.chatter import shows
from bot.telegram.menu import Command

COMMANDS = (
    Command("stats", groups=True, private=True),
    Command("history", groups=True, private=True),
)
PAYLOADS = payloads.PAYLOADS


def register(app: App) -> None:
    """The commands, the board's buttons and the season-end post's due row."""
    app.add_handler(CommandHandler("stats", shows(handlers.stats)))
    app.add_handler(CommandHandler("history", shows(handlers.history)))
    app.add_handler(callbacks.handler(payloads.BoardPress, handlers.on_board))
    due.register(app, season_end.SEASON_END, season_end.on_due)


async def start(app: App, config: Config) -> None:
    """Once connected: the season-end post's job armed."""
    await season_end.arm(app)
