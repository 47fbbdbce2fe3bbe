"""The duel in Telegram: /duel makes a challenge (`challenges`), accepting it starts the duel
(`service`: its life in storage), whose messages are drawn and edited (`present`, `captions`,
`keyboards`), timed (`timers`) and kept up to date after a restart (`jobs`); `rounds` finds a
round for /verify; `handlers` answers the commands and presses, `rematch` the result's
buttons; `practice` starts a duel against the bot, whose moves `ai_turns` makes
(`rules.duel.ai`), `hints` shows its player the best moves; `reviews` reviews a finished
duel when asked; `demo` plays one offline. The rules are `rules.duel`'s; nothing here decides
a hand."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.common import chats, sync
from bot.config import Config
from bot.duel import (
    ai_turns,
    handlers,
    hints,
    jobs,
    payloads,
    practice,
    present,
    rematch,
    reviews,
    service,
    timers,
)
from bot.services import services
from bot.telegram import App, callbacks
from bot.telegram.menu import Command

COMMANDS = (
    Command("duel", groups=True, private=False),
    Command("cancel", groups=True, private=False),
    Command("surrender", groups=True, private=True),
    Command("practice", groups=True, private=True),
)

sync.plug(present.LIVE)
chats.closes(chats.ChatGames("duel", forget=service.forget_chat, show_moved=jobs.show_moved))


def register(app: App) -> None:
    app.add_handler(CommandHandler("duel", handlers.duel))
    app.add_handler(CommandHandler("cancel", handlers.cancel))
    app.add_handler(CommandHandler("surrender", handlers.surrender))
    app.add_handler(callbacks.handler(payloads.DuelPress, handlers.on_duel))
    app.add_handler(callbacks.handler(payloads.ChallengePress, handlers.on_challenge))
    app.add_handler(callbacks.handler(payloads.ResultPress, rematch.on_result))
    app.add_handler(CommandHandler("practice", practice.practice))
    app.add_handler(callbacks.handler(payloads.PracticePress, practice.on_level))
    app.add_handler(callbacks.handler(payloads.OddsPress, practice.on_odds))
    app.add_handler(callbacks.handler(payloads.HintPress, hints.on_hint))


async def start(app: App, config: Config) -> None:
    """Once connected: the turn timers hooked to present() (before any duel is shown again:
    showing one re-arms its timer), then every duel's message, challenge and timer restored."""
    timers.install(app, services(app.bot_data), config.time_scale)
    turns = ai_turns.install(app)
    reviews.install(app)
    await jobs.resume(app)
    await turns.resume()
