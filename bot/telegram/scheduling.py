"""Fair update processing: one busy chat cannot starve the others.

python-telegram-bot's `SimpleUpdateProcessor` runs up to N updates at once from one pool, first
come first served: a chat that sends a flood of commands fills every slot, and each of its
handlers then waits on that chat's flood limit (20 messages a minute per group) while holding
its slot, so presses in other chats wait behind it.

Here every update first waits for a slot of its own chat (`per_chat` at once, in arrival
order), and only then for one of the `total` slots. A chat's backlog therefore waits in its
own queue without holding any shared slot; a flood in one chat holds at most `per_chat` of the
`total`, and other chats' updates start as soon as one of the remaining slots is free.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

TOTAL = 32  # updates handled at once over all chats
PER_CHAT = 4  # ... and at once within one chat (several duels may share a chat)
# The base class bounds concurrency with its own semaphore, taken before do_process_update;
# this one must not bound anything (its waiters would hold no chat's place in line).
_UNBOUNDED = 1 << 30


@dataclass
class _Lane:
    slots: asyncio.Semaphore
    users: int = field(default=0)


def lane_key(update: object) -> object:
    """The chat an update belongs to (its user for chat-less updates such as an inline
    button on an inline message); None for anything else (they share one lane)."""
    if isinstance(update, Update):
        if update.effective_chat is not None:
            return update.effective_chat.id
        if update.effective_user is not None:
            return ("user", update.effective_user.id)
    return None


class FairUpdateProcessor(BaseUpdateProcessor):
    def __init__(self, total: int = TOTAL, per_chat: int = PER_CHAT) -> None:
        if not 1 <= per_chat <= total:
            raise ValueError("need 1 <= per_chat <= total")
        super().__init__(max_concurrent_updates=_UNBOUNDED)
        self.total, self.per_chat = total, per_chat
        self._slots = asyncio.Semaphore(total)
        self._lanes: dict[object, _Lane] = {}

    @property
    def waiting_lanes(self) -> int:
        """How many chats have updates in flight or waiting (for tests and benchmarks)."""
        return len(self._lanes)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key = lane_key(update)
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(asyncio.Semaphore(self.per_chat))
        lane.users += 1
        started = False
        try:
            async with lane.slots, self._slots:
                started = True
                await coroutine
        finally:
            if not started and isinstance(coroutine, Coroutine):
                coroutine.close()  # cancelled while waiting (shutdown): it never ran
            lane.users -= 1
            if lane.users == 0:
                del self._lanes[key]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass
