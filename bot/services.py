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

from bot.offload import Offload
from bot.storage import DuelRecord, Storage
from bot.telegram.drawing import Drawer
from bot.telegram.janitor import Janitor

KEY = "sixshooter"

PresentedListener = Callable[[DuelRecord], Awaitable[None]]


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
