"""The command menu: built from the features' Commands (bot.app.MENU), today's order and scopes
exactly."""

from __future__ import annotations

from typing import Any, cast

from telegram import (
    Bot,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from bot.app import MENU
from bot.i18n import LANGUAGES, telegram_code, translator
from bot.telegram import menu
from bot.telegram.menu import Command

GROUPS = ("duel", "cancel", "surrender", "practice", "sixcard", "balance", "rebuy", "stats",
          "history", "tournament", "verify", "settings", "rules", "help")
PRIVATE = ("start", "duel", "surrender", "practice", "sixcard", "balance", "rebuy", "stats",
           "history", "verify", "settings", "rules", "help")  # /duel there: a friend anywhere


class StubBot:
    def __init__(self) -> None:
        self.calls: list[tuple[Any, str | None, tuple[str, ...]]] = []
        self.descriptions: dict[str | None, list[str]] = {}

    async def set_my_commands(self, commands: list[Any], scope: Any,
                              language_code: str | None = None) -> bool:
        self.calls.append((scope, language_code, tuple(c.command for c in commands)))
        self.descriptions[language_code] = [c.description for c in commands]
        return True


def test_the_features_commands_make_todays_menu() -> None:
    assert menu.group_names(MENU) == GROUPS
    assert menu.private_names(MENU) == PRIVATE


def test_the_private_menu_opens_with_the_private_only_commands() -> None:
    entries = (Command("a", groups=True, private=True), Command("b", groups=False, private=True),
               Command("c", groups=True, private=False))
    assert menu.group_names(entries) == ("a", "c")
    assert menu.private_names(entries) == ("b", "a")


async def test_each_scope_and_language_gets_its_list() -> None:
    bot = StubBot()
    await menu.register(cast(Bot, bot), MENU)
    expected = []
    for scope, names in ((BotCommandScopeDefault(), GROUPS),
                         (BotCommandScopeAllGroupChats(), GROUPS),
                         (BotCommandScopeAllPrivateChats(), PRIVATE)):
        expected += [(scope, None, names),
                     *((scope, telegram_code(lang), names) for lang in LANGUAGES)]
    assert bot.calls == expected


async def test_each_language_is_registered_under_its_telegram_code_in_its_own_words() -> None:
    bot = StubBot()
    await menu.register(cast(Bot, bot), MENU)
    for lang in LANGUAGES:
        code = telegram_code(lang)
        assert len(code) == 2 and code.islower(), lang  # ISO 639-1, as Telegram takes it
        assert bot.descriptions[code] == [translator(lang).t(f"command.{name}")
                                          for name in PRIVATE]
        for description in bot.descriptions[code]:
            assert description[:1] == description[:1].upper(), (lang, description)
    assert len({telegram_code(lang) for lang in LANGUAGES}) == len(LANGUAGES)
