"""The flood budget: how many calls went to a key (a chat, the bot) within a sliding window,
and the holds Telegram imposed with a 429.

Telegram's rule is a window, not a bucket: at most `limit` calls in ANY `span` seconds (20 in
a minute per group, 30 in a second for the bot). The rate limiter (`bot.telegram.ratelimit`)
asks a `Window` before each call; it holds nothing of its own, so a window shared by several
worker processes (kept in the database, a later issue) replaces the in-memory one here
without touching the callers. Times are the window's own clock's, in seconds; a shared one
would use the wall clock every process agrees on.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

Clock = Callable[[], float]
KEEP = 4096  # keys kept while idle; beyond it, those with nothing left in their span go


class Window(Protocol):
    async def take(self, key: str, limit: int, span: float) -> float:
        """Count one call for `key` if fewer than `limit` were counted in the last `span`
        seconds and `key` is not held: 0.0. Otherwise count nothing and say how many seconds
        until one may be counted."""
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
        left = self._hold_left(key)
        if left > 0:
            return left
        calls = self._recent(key, span)
        if len(calls) >= limit:
            return max(calls[-limit] + span - self.clock(), 1e-3)
        calls.append(self.clock())
        return 0.0

    async def free(self, key: str, limit: int, span: float) -> int:
        if self._hold_left(key) > 0:
            return 0
        return max(limit - len(self._recent(key, span)), 0)

    async def hold(self, key: str, seconds: float) -> None:
        self._holds[key] = max(self._holds.get(key, 0.0), self.clock() + seconds)

    async def held(self, key: str) -> float:
        return self._hold_left(key)
