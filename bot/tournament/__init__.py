"""A round-robin tournament of a group (issue 13): /tournament opens a sign-up (`handlers`),
its start schedules every pair (`service`, the rules in `rules.tournament`), each pairing is a
normal duel started from the table's buttons, whose result enters the table as it is shown
(`jobs`), with walkovers for rounds not played in time; the table is a picture
(`render.tournament`) with its caption and buttons (`present`)."""

from __future__ import annotations

from telegram.ext import CommandHandler

from bot.common import chats, due
from bot.config import Config
from bot.services import Services
from bot.telegram import App, callbacks
from bot.telegram.menu import Command
from bot.tournament import handlers, jobs, payloads

COMMANDS = (Command("tournament", groups=True, private=False),)
PAYLOADS = payloads.PAYLOADS


async def _forget(svc: Services, chat_id: int) -> str:
    closed = await svc.storage.tournaments.forget_chat(chat_id)
    return f"{closed} tournament(s) cancelled"


CHAT_GAMES = chats.ChatGames("tournament", forget=_forget)


def register(app: App) -> None:
    """The command and the table's buttons, the due rows (the tick, a table's refresh) and
    what a chat's end does to its tournaments."""
    app.add_handler(CommandHandler("tournament", handlers.tournament))
    app.add_handler(callbacks.handler(payloads.TournamentPress, handlers.on_press))
    due.register(app, jobs.TICK_KIND, jobs.on_tick)
    due.register(app, jobs.REFRESH, jobs.on_refresh)
    chats.closes(app, CHAT_GAMES)


async def start(app: App, config: Config) -> None:
    await jobs.install(app, config)
