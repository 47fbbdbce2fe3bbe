"""The command menu, registered with Telegram for groups and private chats in every language.

Each feature package contributes its `COMMANDS` (a tuple of `Command`, in menu order); the
menu lists them in the order given, a command in the group menu if `groups`, in the private
menu if `private`. The private menu opens with the private-only commands (today /start, the
way into a private chat), then follows the same order. Each description is the catalog key
`command.<name>`."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from bot.i18n import LANGUAGES, telegram_code, translator

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Command:
    """A menu entry: the command's name, and the menus it appears in."""

    name: str
    groups: bool
    private: bool


def group_names(menu: Iterable[Command]) -> tuple[str, ...]:
    return tuple(c.name for c in menu if c.groups)


def private_names(menu: Iterable[Command]) -> tuple[str, ...]:
    entries = [c for c in menu if c.private]
    first = [c.name for c in entries if not c.groups]
    return (*first, *(c.name for c in entries if c.groups))


def commands(lang: str, names: tuple[str, ...]) -> list[BotCommand]:
    tr = translator(lang)
    return [BotCommand(name, tr.t(f"command.{name}")) for name in names]


async def register(bot: Bot, menu: Sequence[Command]) -> None:
    """setMyCommands for each scope and shipped language, under the language's Telegram code
    ("pt" for pt_BR); English is also the default, for every other language."""
    groups, private = group_names(menu), private_names(menu)
    scopes = (
        (BotCommandScopeDefault(), groups),
        (BotCommandScopeAllGroupChats(), groups),
        (BotCommandScopeAllPrivateChats(), private),
    )
    try:
        for scope, names in scopes:
            await bot.set_my_commands(commands("en", names), scope=scope)
            for lang in LANGUAGES:
                await bot.set_my_commands(commands(lang, names), scope=scope,
                                          language_code=telegram_code(lang))
    except TelegramError as e:
        log.warning("could not register the command menu: %s", e)
