"""The duel in Telegram: /duel makes a challenge (`challenges`), or in any chat through inline
mode (`inline`, its table on that message: `inline_table`); accepting it starts the duel
(`service`: its life in storage), whose messages are drawn and edited (`present`, `captions`,
`keyboards`), timed (`timers`) and kept up to date after a restart (`jobs`); `rounds` finds a
round for /verify; `handlers` answers the commands and presses, `rematch` the result's
buttons; `practice` starts a duel against the bot, whose moves `ai_turns` makes
(`rules.duel.ai`), `hints` shows its player the best moves; `reviews` reviews a finished
duel when asked; `demo` plays one offline. The rules are `rules.duel`'s; nothing here decides
a hand."""

from __future__ import annotations

from telegram.ext import ChosenInlineResultHandler, CommandHandler, InlineQueryHandler

from bot.common import chats, due, sync
from bot.config import Config
from bot.duel import (
    ai_turns,
    handlers,
    hints,
    inline,
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
from bot.storage import DuelRepo
from bot.telegram import App, callbacks
from bot.telegram.menu import Command

COMMANDS = (
    Command("duel", groups=True, private=True),
    Command("cancel", groups=True, private=False),
    Command("surrender", groups=True, private=True),
    Command("practice", groups=True, private=True),
)
PAYLOADS = payloads.PAYLOADS

CHAT_GAMES = chats.ChatGames("duel", forget=service.forget_chat, show_moved=jobs.show_moved,
                             records=DuelRepo)


def register(app: App) -> None:
    """The commands and buttons, the due rows (a challenge's expiry, a turn's timer, the bot's
    move, a review), the sync job's redraws and what a chat's end does to its duels."""
    app.add_handler(CommandHandler("duel", handlers.duel))
    app.add_handler(CommandHandler("cancel", handlers.cancel))
    app.add_handler(CommandHandler("surrender", handlers.surrender))
    app.add_handler(present.LIVE.handler(payloads.DuelPress))
    app.add_handler(callbacks.handler(payloads.ChallengePress, handlers.on_challenge))
    app.add_handler(InlineQueryHandler(inline.on_inline_query))
    app.add_handler(ChosenInlineResultHandler(inline.on_chosen))
    app.add_handler(callbacks.handler(payloads.InlineChallengePress, inline.on_press))
    app.add_handler(callbacks.handler(payloads.ResultPress, rematch.on_result))
    app.add_handler(CommandHandler("practice", practice.practice))
    app.add_handler(callbacks.handler(payloads.PracticePress, practice.on_level))
    app.add_handler(callbacks.handler(payloads.OddsPress, practice.on_odds))
    app.add_handler(callbacks.handler(payloads.HintPress, hints.on_hint))
    due.register(app, jobs.EXPIRE, jobs.expire_challenge)
    due.register(app, timers.TURN, timers.on_alarm)
    due.register(app, ai_turns.MOVE, ai_turns.on_due)
    due.register(app, reviews.REVIEW, reviews.on_due)
    sync.plug(app, present.LIVE)
    chats.closes(app, CHAT_GAMES)


async def start(app: App, config: Config) -> None:
    """Once connected: the turn timers hooked to present() (before any duel is shown again:
    showing one re-arms its timer), then every duel's message, challenge and timer restored."""
    timers.install(app, services(app.bot_data), config.time_scale)
    turns = ai_turns.install(app)
    reviews.install(app)
    await jobs.resume(app)
    await turns.resume()
