"""Fair update processing: one busy chat cannot starve the others.

python-telegram-bot's `SimpleUpdateProcessor` runs up to N updates at once from one pool, first
come first served: a chat that sends a flood of commands fills every slot, and each of its
handlers then waits on that chat's flood limit (20 messages a minute per group) while holding
its slot, so presses in other chats wait behind it.

Here every update first waits for a slot of its sender within its chat (`per_member` at once),
then for one of its chat (`per_chat`), and only then for one of the `total` slots, each in
arrival order. A backlog therefore waits in its own queue without holding any shared slot: a
flood in one chat holds at most `per_chat` of the `total`, and one member's flood at most
`per_member` of the chat's, so the players' presses in that chat still find a free slot.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot import handling
from bot.ops import metrics
from bot.telegram import press_ack

TOTAL = 32  # updates handled at once over all chats
PER_CHAT = 4  # ... and at once within one chat (several duels may share a chat)
PER_MEMBER = 2  # ... and at once from one member within a chat
# The base class bounds concurrency with its own semaphore, taken before do_process_update;
# this one must not bound anything (its waiters would hold no chat's place in line).
_UNBOUNDED = 1 << 30


@dataclass
class _Lane:
    slots: asyncio.Semaphore
    users: int = field(default=0)


def member_key(update: object) -> object:
    """The sender within the chat an update belongs to; None when it has no sender."""
    if isinstance(update, Update) and update.effective_user is not None:
        return ("member", lane_key(update), update.effective_user.id)
    return None


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
    def __init__(self, total: int = TOTAL, per_chat: int = PER_CHAT,
                 per_member: int | None = None) -> None:
        if per_member is None:  # PER_MEMBER, or all of a smaller chat's share
            per_member = min(PER_MEMBER, per_chat)
        if not 1 <= per_member <= per_chat <= total:
            raise ValueError("need 1 <= per_member <= per_chat <= total")
        super().__init__(max_concurrent_updates=_UNBOUNDED)
        self.total, self.per_chat, self.per_member = total, per_chat, per_member
        self._slots = asyncio.Semaphore(total)
        self._lanes: dict[object, _Lane] = {}

    @property
    def waiting_lanes(self) -> int:
        """How many chats have updates in flight or waiting (for tests and benchmarks)."""
        return sum(1 for k in self._lanes if not (isinstance(k, tuple) and k[:1] == ("member",)))

    def _enter(self, key: object, size: int) -> _Lane:
        lane = self._lanes.get(key)
        if lane is None:
            lane = self._lanes[key] = _Lane(asyncio.Semaphore(size))
        lane.users += 1
        return lane

    def _leave(self, key: object, lane: _Lane) -> None:
        lane.users -= 1
        if lane.users == 0:
            del self._lanes[key]

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        key, mkey = lane_key(update), member_key(update)
        lane = self._enter(key, self.per_chat)
        member = self._enter(mkey, self.per_member) if mkey is not None else None
        started = False
        try:
            async with contextlib.AsyncExitStack() as slots:
                # The intake's handling of the update (one of its own without the intake).
                within = slots.enter_context(handling.opened())
                slots.enter_context(metrics.handling(update, within))  # counted; a press: timed
                await slots.enter_async_context(
                    press_ack.watch(update, within=within))  # a press: answered
                if member is not None:
                    await slots.enter_async_context(member.slots)
                await slots.enter_async_context(lane.slots)
                await slots.enter_async_context(self._slots)
                started = True
                await coroutine
        finally:
            if not started and isinstance(coroutine, Coroutine):
                coroutine.close()  # cancelled while waiting (shutdown): it never ran
            if member is not None:
                self._leave(mkey, member)
            self._leave(key, lane)

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass
