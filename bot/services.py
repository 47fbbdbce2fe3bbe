"""What every handler needs, built once at start and kept in `application.bot_data`."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot

from bot.offload import Offload
from bot.storage import ChatMove, Database, DuelRecord, LiveGames, Storage
from bot.telegram.drawing import Drawer
from bot.telegram.janitor import Janitor

KEY = "sixshooter"

PresentedListener = Callable[[DuelRecord], Awaitable[None]]
Records = Callable[[Database], LiveGames[Any, Any]]  # a game's repository class


async def _nothing(svc: Services, old_id: int, new_id: int) -> None:
    return None


@dataclass(frozen=True, slots=True)
class ChatGames:
    """What a game does when a chat ends or moves (bot.common.chats asks every game's)."""

    name: str
    # The bot left the chat: close its live games without counting them; what was closed,
    # for the log line ("2 live duel(s) abandoned").
    forget: Callable[[Services, int], Awaitable[str]]
    # The chat's rows move to the new id in this transaction: make room first (old, new).
    make_room: Callable[[Services, int, int], Awaitable[None]] = _nothing
    # After the move: show the chat's moved live games in the new chat.
    show_moved: Callable[[Services, Bot, ChatMove], Awaitable[None]] | None = None
    # The game's live records (its repository, a `LiveGames`): the storage moves them with
    # the chat and counts the live ones (`bot.storage.Storage.open(games=...)`).
    records: Records | None = None


def _now() -> int:
    return int(time.time())


@dataclass
class Services:
    storage: Storage
    rng: random.Random = field(default_factory=secrets.SystemRandom)
    clock: Callable[[], int] = _now
    bot_username: str = ""
    challenge_ttl: int = 600  # seconds
    drawer: Drawer = field(default_factory=Drawer)  # the one drawing thread
    janitor: Janitor = field(default_factory=Janitor)  # deletes old messages when there is room
    # Where the searches run (reviews, hints, odds, the bot's moves): here, unless the
    # application gives it its process pool (bot.offload).
    offload: Offload = field(default_factory=Offload.in_process)
    # Run, in order, after present() brought a duel's messages up to date (the turn timers
    # re-arm there, so every saved change re-arms them, whoever made it).
    on_presented: list[PresentedListener] = field(default_factory=list)
    # What each game does when a chat ends or moves, as the features registered it with the
    # application (bot.common.chats.closes).
    chat_games: list[ChatGames] = field(default_factory=list)
    _locks: weakref.WeakValueDictionary[str, asyncio.Lock] = field(
        default_factory=weakref.WeakValueDictionary
    )

    def forget_chats(self, *chat_ids: int) -> None:
        """Forget what is kept in memory about these chats (a group moved to a new id)."""
        self.storage.chats.forget_cached(*chat_ids)

    def lock(self, key: str) -> asyncio.Lock:
        """One lock per game, so taps on the same duel are handled one after another (the
        compare-and-swap in storage keeps them correct across processes too)."""
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock


def services(bot_data: dict[str, Any]) -> Services:
    svc = bot_data[KEY]
    assert isinstance(svc, Services)
    return svc
