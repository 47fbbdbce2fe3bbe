"""The command menu, registered with Telegram for groups and private chats in both languages."""

from __future__ import annotations

import logging

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.i18n import LANGUAGES, translator

log = logging.getLogger(__name__)

GROUP_COMMANDS = ("duel", "cancel", "surrender", "sixcard", "balance", "rebuy",
                  "stats", "history", "verify", "settings",
                  "rules", "help")
PRIVATE_COMMANDS = ("start", "sixcard", "balance", "rebuy",
                    "stats", "history", "verify", "settings", "rules", "help")


def commands(lang: str, names: tuple[str, ...]) -> list[BotCommand]:
    tr = translator(lang)
    return [BotCommand(name, tr.t(f"command.{name}")) for name in names]


async def register(bot: Bot) -> None:
    """setMyCommands for each scope and language (English is also the default)."""
    scopes = (
        (BotCommandScopeDefault(), GROUP_COMMANDS),
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    )
    try:
        for scope, names in scopes:
            await bot.set_my_commands(commands("en", names), scope=scope)
            for lang in LANGUAGES:
                await bot.set_my_commands(commands(lang, names), scope=scope, language_code=lang)
    except TelegramError as e:
        log.warning("could not register the command menu: %s", e)
