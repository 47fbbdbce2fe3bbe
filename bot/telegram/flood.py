"""The flood budget: how many calls went to a key (a chat, the bot) within a sliding window,
and the holds Telegram imposed with a 429.

Telegram's rule is a window, not a bucket: at most `limit` calls in ANY `span` seconds (20 in
a minute per group, 30 in a second for the bot). The rate limiter (`bot.telegram.ratelimit`)
asks a `Window` before each call; it holds nothing of its own. Two windows:

* `MemoryWindow`, one process's own (SQLite: one bot per file), on the monotonic clock;
* `DatabaseWindow`, every worker's (PostgreSQL): the counts and holds are rows
  (`bot.storage.flood`), a take is one short transaction that locks its keys, and times are
  the wall clock every machine agrees on (NTP; the limiter's margin covers the rest). While
  the database cannot be reached it paces this process alone, in memory, and says so once.
"""

from __future__ import annotations

import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.storage import FloodRecord, FloodRepo, StorageError

log = logging.getLogger(__name__)

Clock = Callable[[], float]
KEEP = 4096  # keys kept while idle; beyond it, those with nothing left in their span go
IDLE = 120.0  # seconds after which an idle key's row goes (more than any span the bot uses)
PRUNE_EVERY = 600.0  # seconds between two prunes of the shared window's idle rows


@dataclass(frozen=True, slots=True)
class Take:
    """One call to count for `key`: at most `limit` in any `span` seconds."""

    key: str
    limit: int
    span: float


def recent(calls: Iterable[float], span: float, now: float) -> tuple[float, ...]:
    """The calls still inside a window of `span` seconds ending now (oldest first)."""
    return tuple(t for t in calls if t > now - span)


def wait_for(calls: Sequence[float], limit: int, span: float, now: float) -> float:
    """0.0 if one more call fits among `calls` (those inside the span), else the seconds until
    the oldest of the last `limit` leaves it."""
    if len(calls) < limit:
        return 0.0
    return max(calls[-limit] + span - now, 1e-3)


class Window(Protocol):
    async def take(self, key: str, limit: int, span: float) -> float:
        """Count one call for `key` if fewer than `limit` were counted in the last `span`
        seconds and `key` is not held: 0.0. Otherwise count nothing and say how many seconds
        until one may be counted."""
        ...

    async def take_all(self, takes: Sequence[Take], held: Sequence[str] = ()) -> float:
        """Count one call for each of `takes` if each has room and none of their keys nor
        `held` is held: 0.0. Otherwise count none and say how many seconds until all may."""
        ...

    async def free(self, key: str, limit: int, span: float) -> int:
        """How many calls `take` would count for `key` right now (0 while it is held)."""
        ...

    async def hold(self, key: str, seconds: float) -> None:
        """Telegram said to wait (a 429): nothing is counted for `key` for `seconds`."""
        ...

    async def held(self, key: str) -> float:
        """Seconds left of the hold on `key` (0.0: none)."""
        ...


class MemoryWindow:
    """A `Window` for one process."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._calls: dict[str, deque[float]] = {}
        self._holds: dict[str, float] = {}  # key -> the clock time its hold ends

    def _recent(self, key: str, span: float) -> deque[float]:
        now = self.clock()
        calls = self._calls.get(key)
        if calls is None:
            if len(self._calls) >= KEEP:
                self._forget(now)
            calls = self._calls[key] = deque()
        while calls and calls[0] <= now - span:
            calls.popleft()
        return calls

    def _forget(self, now: float) -> None:
        """Drop the keys whose last call is older than any span the bot uses (a minute)."""
        for key in [k for k, v in self._calls.items() if not v or v[-1] <= now - 60]:
            del self._calls[key]

    def _hold_left(self, key: str) -> float:
        until = self._holds.get(key)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._holds[key]
            return 0.0
        return left

    async def take(self, key: str, limit: int, span: float) -> float:
        return await self.take_all((Take(key, limit, span),))

    async def take_all(self, takes: Sequence[Take], held: Sequence[str] = ()) -> float:
        left = max((self._hold_left(k) for k in (*held, *(t.key for t in takes))), default=0.0)
        if left > 0:
            return left
        now = self.clock()
        wait = max((wait_for(self._recent(t.key, t.span), t.limit, t.span, now)
                    for t in takes), default=0.0)
        if wait > 0:
            return wait
        for t in takes:
            self._calls.setdefault(t.key, deque()).append(now)
        return 0.0

    async def free(self, key: str, limit: int, span: float) -> int:
        if self._hold_left(key) > 0:
            return 0
        return max(limit - len(self._recent(key, span)), 0)

    async def hold(self, key: str, seconds: float) -> None:
        self._holds[key] = max(self._holds.get(key, 0.0), self.clock() + seconds)

    async def held(self, key: str) -> float:
        return self._hold_left(key)


class DatabaseWindow:
    """A `Window` every worker shares, kept in the database (`Storage.flood`)."""

    def __init__(self, repo: FloodRepo, clock: Clock = time.time) -> None:
        self.repo = repo
        self.clock = clock
        self.fallback = MemoryWindow(clock)  # while the database cannot be reached
        self._failing = False
        self._pruned = clock()

    def _failed(self, e: StorageError) -> None:
        if not self._failing:
            log.warning("flood budget: the database cannot be reached (%s); pacing this "
                        "process alone until it can", type(e).__name__)
        self._failing = True

    def _back(self) -> None:
        if self._failing:
            log.info("flood budget: shared again")
        self._failing = False

    async def take(self, key: str, limit: int, span: float) -> float:
        return await self.take_all((Take(key, limit, span),))

    async def take_all(self, takes: Sequence[Take], held: Sequence[str] = ()) -> float:
        now = self.clock()
        keys = {*held, *(t.key for t in takes)}

        def decide(records: dict[str, FloodRecord]) -> tuple[list[FloodRecord], float]:
            left = max(records[k].held_until for k in keys) - now
            if left > 0:
                return [], left
            kept = {t.key: recent(records[t.key].calls, t.span, now) for t in takes}
            wait = max((wait_for(kept[t.key], t.limit, t.span, now) for t in takes),
                       default=0.0)
            if wait > 0:
                return [], wait
            # Only the last `limit` calls ever decide a wait: the row keeps no more.
            return [FloodRecord(t.key, (*kept[t.key][max(len(kept[t.key]) - t.limit + 1, 0):],
                                        now)) for t in takes], 0.0

        try:
            wait = await self.repo.change(sorted(keys), decide, now=now)
            if now - self._pruned >= PRUNE_EVERY:
                self._pruned = now
                await self.repo.prune(now - IDLE)
        except StorageError as e:
            self._failed(e)
            return await self.fallback.take_all(takes, held)
        self._back()
        return wait

    async def _read(self, key: str) -> FloodRecord | None:
        try:
            record = (await self.repo.read([key]))[key]
        except StorageError as e:
            self._failed(e)
            return None
        return record

    async def free(self, key: str, limit: int, span: float) -> int:
        record = await self._read(key)
        if record is None:
            return await self.fallback.free(key, limit, span)
        now = self.clock()
        if record.held_until > now:
            return 0
        return max(limit - len(recent(record.calls, span, now)), 0)

    async def hold(self, key: str, seconds: float) -> None:
        await self.fallback.hold(key, seconds)  # kept here too, should the database go
        now = self.clock()
        try:
            await self.repo.hold(key, now + seconds, now=now)
        except StorageError as e:
            self._failed(e)

    async def held(self, key: str) -> float:
        record = await self._read(key)
        if record is None:
            return await self.fallback.held(key)
        return max(record.held_until - self.clock(), 0.0)
