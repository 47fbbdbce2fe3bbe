"""The application as built: every feature's handlers, dispatching as before the features had
their own packages, and one list of features behind the handlers, the menu and the start-up."""

from __future__ import annotations

import pytest
from telegram.ext import (
    CallbackQueryHandler,
    ChatMemberHandler,
    ChosenInlineResultHandler,
    CommandHandler,
    InlineQueryHandler,
    MessageHandler,
    TypeHandler,
)
from telegram.warnings import PTBUserWarning

from bot import app as application
from bot.app import pace
from bot.common import chats, due, sync
from bot.config import Config
from bot.storage import DuelRepo, SixCardRepo, Storage
from bot.telegram.flood import DatabaseWindow, MemoryWindow
from bot.telegram.menu import group_names, private_names
from bot.telegram.ratelimit import ChatRateLimiter

TOKEN = "123456:" + "A" * 35


def _described(handler: object) -> str:
    if isinstance(handler, CommandHandler):
        return "/" + "/".join(sorted(handler.commands))
    if isinstance(handler, CallbackQueryHandler):
        pattern = handler.pattern
        return f"press {getattr(pattern, 'pattern', pattern) or '*'}"
    return type(handler).__name__


def test_the_handlers_dispatch_as_before() -> None:
    """Commands and presses of each kind in today's relative order, the catch-all press last,
    and the update remembered (group -1) before anything else sees it."""
    app = application.build(Config(token=TOKEN))
    assert [_described(h) for h in app.handlers[-1]] == ["TypeHandler"]
    assert isinstance(app.handlers[-1][0], TypeHandler)
    handlers = app.handlers[0]
    commands = [_described(h) for h in handlers if isinstance(h, CommandHandler)]
    assert sorted(commands) == sorted(
        ["/duel", "/cancel", "/surrender", "/practice", "/sixcard", "/balance", "/rebuy",
         "/settings", "/stats", "/history", "/tournament", "/verify", "/start", "/help",
         "/rules"])
    presses = [_described(h) for h in handlers if isinstance(h, CallbackQueryHandler)]
    assert presses[-1] == "press *"  # a press no feature knows: answered "not valid"
    assert sorted(presses[:-1]) == ["press ^b:", "press ^c:", "press ^d:", "press ^h:",
                                    "press ^i:", "press ^o:", "press ^p:", "press ^r:",
                                    "press ^s:", "press ^t:", "press ^x:"]
    # Duels anywhere: the inline queries, and the word that a challenge was posted.
    assert [_described(h) for h in handlers
            if isinstance(h, InlineQueryHandler | ChosenInlineResultHandler)] == [
        "InlineQueryHandler", "ChosenInlineResultHandler"]
    assert sum(isinstance(h, MessageHandler) and not isinstance(h, CommandHandler)
               for h in handlers) == 1  # a group becoming a supergroup
    assert sum(isinstance(h, ChatMemberHandler) for h in handlers) == 1
    assert len(app.error_handlers) == 1


def test_no_job_queue_every_delayed_effect_is_a_due_row() -> None:
    """What must happen later is a due row any worker may run (bot.common.due), not a job in
    one process's memory; each kind has its handler once the features are imported."""
    app = application.build(Config(token=TOKEN))
    with pytest.warns(PTBUserWarning, match="No `JobQueue` set up"):
        assert app.job_queue is None
    assert sorted(due.handlers_of(app)) == [
        "backup", "challenge.expire", "janitor.orphans", "practice.move", "review", "season.end",
        "sync", "tournament.refresh", "tournament.tick", "turn"]


def test_the_menu_is_the_features_commands_in_todays_order() -> None:
    assert group_names(application.MENU) == (
        "duel", "cancel", "surrender", "practice", "sixcard", "balance", "rebuy", "stats",
        "history", "tournament", "verify", "settings", "rules", "help")
    assert private_names(application.MENU) == (
        "start", "duel", "surrender", "practice", "sixcard", "balance", "rebuy", "stats",
        "history", "verify", "settings", "rules", "help")


def test_every_game_is_asked_when_a_chat_ends_and_kept_in_sync() -> None:
    """Each game registers itself with the application (its package's `register(app)`), in
    the order of the features."""
    app = application.build(Config(token=TOKEN))
    assert sorted(g.name for g in chats.closing(app)) == ["duel", "six-card", "tournament"]
    assert sorted(loop.game.kind for loop in sync.loops_of(app)) == ["duel", "sixcard"]
    # Their live records, which the storage opened at start moves with a chat and counts.
    assert chats.records(app) == [DuelRepo, SixCardRepo]


def test_every_bot_api_call_goes_through_the_metered_request() -> None:
    """Sends and getUpdates alike, with the pool and timeouts the bot chose."""
    from bot.telegram.http import MeteredRequest

    app = application.build(Config(token=TOKEN))
    sends, polls = app.bot._request[1], app.bot._request[0]
    assert isinstance(sends, MeteredRequest) and isinstance(polls, MeteredRequest)
    assert sends.read_timeout == application.SEND_READ_TIMEOUT


async def test_on_postgresql_the_limiter_counts_in_the_database(store: Storage) -> None:
    limiter = ChatRateLimiter()
    pace(limiter, store)
    kind = DatabaseWindow if store.engine == "postgresql" else MemoryWindow
    assert type(limiter.window) is kind
