"""bot.info: its menu entries and its handlers, in today's order."""

from __future__ import annotations

from typing import cast

from telegram.ext import ApplicationBuilder, CommandHandler

from bot import info
from bot.telegram import App


def test_info_registers_start_help_rules_in_order() -> None:
    app = cast(App, ApplicationBuilder().token("1:x").build())
    info.register(app)
    handlers = app.handlers[0]
    assert [sorted(cast(CommandHandler[object, object], h).commands) for h in handlers] == [
        ["start"], ["help"], ["rules"]]
    assert [c.name for c in info.COMMANDS] == ["start", "rules", "help"]
