"""The one sync job: every `SYNC_EVERY` seconds, each plugged game's messages that lag behind
their saved version are redrawn (`Live.resync`), except a save of the last `SYNC_GRACE`
seconds, probably being shown right now.

A lag that persists is tried again at once the first time, then after twice the wait of the
try before (`Retries`: 20 s, 40 s, ... up to an hour), so a chat that keeps refusing (the bot
lost its rights, a closed topic) costs one call an hour, not three a minute, and is still
tried. A key is a record at one version: a new save is tried at once; a key that no longer
lags is forgotten.

The job is one due row (kind `sync`: bot.common.due), so with several workers one of them
looks at a time; each run arms the next before it looks (a crash mid-run loses no look).
Each game's loop (`bot.common.live.Live`, which builds on this module) is plugged into the
application by its package's `register(app)`; this module knows only that it can `resync`."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Protocol, TypeVar

from telegram import Bot

from bot.common import due
from bot.services import Services, services
from bot.telegram import App

T = TypeVar("T")
SYNC_EVERY = 20.0  # seconds between the job's looks for lagging messages
SYNC_GRACE = 5  # a save this recent is probably being shown right now
SYNC_MOST = 3600.0  # a message that keeps failing is tried again at least this often


class Retries:
    def __init__(self, first: float, most: float) -> None:
        self.first, self.most = first, most
        self._next: dict[Hashable, tuple[float, float]] = {}  # key -> (when, wait after it)

    def due(self, items: Iterable[T], key: Callable[[T], Hashable], now: float) -> list[T]:
        """The items to try now (each try is counted); the rest wait their turn."""
        items = list(items)
        keys = {key(item) for item in items}
        for gone in [k for k in self._next if k not in keys]:
            del self._next[gone]
        out = []
        for item in items:
            k = key(item)
            when, wait = self._next.get(k, (now, self.first))
            if when <= now:
                out.append(item)
                self._next[k] = (now + wait, min(self.most, 2 * wait))
        return out

    def waiting(self) -> int:
        return len(self._next)


class Lagging(Protocol):
    """A game's loop as the sync job sees it (`bot.common.live.Live`)."""

    async def resync(self, svc: Services, bot: Bot, grace: int | None = None) -> int:
        """Redraw the game's lagging messages saved at least `grace` seconds ago."""


LOOPS = "sixshooter.sync.loops"  # bot_data: every game's loop, in the order plugged in
SYNC = "sync"  # the due row's kind (one row, key "all")


def plug(app: App, loop: Lagging) -> None:
    """Let the application's sync job keep this game's messages up to date."""
    loops = loops_of(app)
    if loop not in loops:
        loops.append(loop)


def loops_of(app: App) -> list[Lagging]:
    found: list[Lagging] = app.bot_data.setdefault(LOOPS, [])
    return found


async def sync_lagging(app: App, key: str, data: object) -> None:
    await due.of(app).later(SYNC, key, SYNC_EVERY)  # the next look, whatever this one does
    svc = services(app.bot_data)
    for loop in loops_of(app):
        await loop.resync(svc, app.bot, SYNC_GRACE)


async def arm_sync(app: App) -> None:
    """The one job that brings every game's lagging messages up to date (its row is kept if
    it is due sooner: a start arms it idempotently)."""
    await due.of(app).later(SYNC, "all", SYNC_EVERY, sooner_only=True)
