"""Deleting the bot's old messages without holding back the ones people are waiting for.

A duel sends a fresh message at every turn (a new message is what Telegram notifies) and
deletes the one it replaces. Telegram counts a delete against the same budget as a send,
about 20 calls a minute per group, so deleting at once would push the next player's message
back. The janitor collects each chat's messages to delete and deletes them as soon as the
chat's budget has room to spare for the sends that may follow (`room`: the rate limiter's),
or after `MAX_WAIT` seconds whatever the budget: in a quiet chat at once, one by one; in a
busy one later, all that piled up in one `deleteMessages` call (up to 100). At shutdown what
is pending is deleted at once, for a few seconds at most. With a `journal` (the database's
`pending_deletes`), what waits is written down before the wait and crossed off once deleted
(every chat's together: what `WRITE_WITHIN` gathers in one statement, what `CROSS_OFF_EVERY`
gathers in another), so after a kill (or a stop that gave up) `resume` deletes it; without
one (tests), a kill forgets it, and a press on such an old message's buttons is refused as out
of date and deletes it. With several workers, `written` (a due row armed after each write:
bot.common.cleanup) lets another worker delete what a dead one left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from telegram import Bot

from bot.telegram import send

log = logging.getLogger(__name__)

MAX_WAIT = 60.0  # seconds a delete may be put off while sends use the chat's budget
POLL = 0.5  # seconds between looks at the budget
BATCH = 100  # Telegram's limit for deleteMessages
CLOSE_WAIT = 3.0  # seconds a shutdown gives the pending deletes (the journal keeps the rest)
REMEMBER = 4096  # deleted messages remembered, so a press on one does not delete it again
# Seconds the deleted messages wait to be crossed off the journal together, in one statement
# for every chat (not one a delete: a busy bot deletes a message at every turn). A kill meanwhile
# leaves them written down: the next start deletes them again, which Telegram refuses as
# "message to delete not found", and crosses them off.
CROSS_OFF_EVERY = 1.0
# Seconds the messages to delete of every chat gather before they are written down, together,
# in one statement: each delete waits that much longer, which nobody sees.
WRITE_WITHIN = 0.05

Room = Callable[[int], Awaitable[bool]]  # may a call that can wait be made in this chat now?
Written = Callable[[int], Awaitable[None]]  # a chat's deletes were just written down


class Journal(Protocol):
    """Where the messages waiting to be deleted are written down (bot.storage.DeleteRepo)."""

    async def add(self, messages: Sequence[tuple[int, int]]) -> None: ...

    async def drop(self, messages: Sequence[tuple[int, int]]) -> None: ...

    async def pending(self) -> dict[int, list[int]]: ...


async def always(chat_id: int) -> bool:
    return True


class Janitor:
    def __init__(self, room: Room = always, journal: Journal | None = None) -> None:
        self.room = room
        self.journal = journal
        self.written: Written | None = None
        self._written: set[tuple[int, int]] = set()  # pending and in the journal
        self._pending: dict[int, list[int]] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}
        self._done: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._crossed: list[tuple[int, int]] = []  # deleted, still in the journal
        self._crossing: asyncio.Task[None] | None = None
        self._to_write: dict[tuple[int, int], None] = {}  # gathering to be written together
        self._writing: asyncio.Task[bool] | None = None  # writes them, WRITE_WITHIN from now
        self._writes: set[asyncio.Task[bool]] = set()  # those not done yet

    def delete_later(self, bot: Bot, chat_id: int, message_id: int) -> None:
        """Delete this message of the bot's when the chat's budget allows (soon)."""
        pending = self._pending.setdefault(chat_id, [])
        if message_id not in pending:
            pending.append(message_id)
        if chat_id not in self._tasks:
            self._tasks[chat_id] = asyncio.ensure_future(self._sweep(bot, chat_id))

    async def delete_journaled(self, bot: Bot, chat_id: int, message_id: int) -> None:
        """`delete_later`, returning once the journal holds the message: whatever the caller
        forgets of it next, a kill from here on leaves its delete to `resume`."""
        if self.journal is not None:
            await self.journal.add([(chat_id, message_id)])
        self.delete_later(bot, chat_id, message_id)

    def pending(self, chat_id: int) -> tuple[int, ...]:
        return tuple(self._pending.get(chat_id, ()))

    def handled(self, chat_id: int, message_id: int) -> bool:
        """Is this message deleted already, or about to be (since this process started)?"""
        return message_id in self._pending.get(chat_id, ()) or (chat_id, message_id) in self._done

    async def resume(self, bot: Bot) -> int:
        """At start: delete what the journal says was still waiting (a kill came first)."""
        if self.journal is None:
            return 0
        found = await self.journal.pending()
        for chat_id, ids in found.items():
            self.adopt(bot, chat_id, ids)
        return sum(len(ids) for ids in found.values())

    def adopt(self, bot: Bot, chat_id: int, message_ids: Sequence[int]) -> None:
        """Delete these messages, written down already (by a run or a worker now gone)."""
        for message_id in message_ids:
            self._written.add((chat_id, message_id))
            self.delete_later(bot, chat_id, message_id)

    async def _write(self, chat_id: int) -> None:
        """Write down this chat's waiting messages not written yet, with those of every chat
        within `WRITE_WITHIN` (never fatal)."""
        new = [m for m in self._pending.get(chat_id, ()) if (chat_id, m) not in self._written]
        if self.journal is None or not new:
            return
        self._to_write.update(dict.fromkeys((chat_id, m) for m in new))
        if self._writing is None:
            self._writing = asyncio.ensure_future(self._write_gathered())
            self._writes.add(self._writing)
            self._writing.add_done_callback(self._writes.discard)
        if not await asyncio.shield(self._writing):
            return
        self._written.update((chat_id, m) for m in new)
        try:
            if self.written is not None:
                await self.written(chat_id)
        except Exception:
            log.exception("chat %d: no other worker would delete what is written down", chat_id)

    async def _write_gathered(self) -> bool:
        try:
            await asyncio.sleep(WRITE_WITHIN)
        finally:
            self._writing = None
            gathered, self._to_write = list(self._to_write), {}
        assert self.journal is not None
        try:
            await self.journal.add(gathered)
        except Exception:  # a cleanup must never take anything else down
            log.exception("%d message(s) to delete not written down", len(gathered))
            return False
        return True

    async def _sweep(self, bot: Bot, chat_id: int) -> None:
        try:
            while self._pending.get(chat_id):
                await self._write(chat_id)
                waited = 0.0
                while not await self.room(chat_id) and waited < MAX_WAIT:
                    await asyncio.sleep(POLL)
                    waited += POLL
                    await self._write(chat_id)
                ids = self._pending.pop(chat_id, [])[:BATCH]
                if ids:
                    await self._delete(bot, chat_id, ids)
        finally:
            self._tasks.pop(chat_id, None)

    async def _delete(self, bot: Bot, chat_id: int, ids: list[int]) -> None:
        for message_id in ids:
            self._done[(chat_id, message_id)] = None
        while len(self._done) > REMEMBER:
            self._done.popitem(last=False)
        try:
            if len(ids) == 1:
                await send.delete(bot, chat_id, ids[0])
            else:
                await send.delete_many(bot, chat_id, ids)
        except (send.ChatGone, send.ChatMoved) as e:  # nothing left to clean there
            log.info("chat %d: %d old message(s) not deleted: %s", chat_id, len(ids), e)
        except Exception:  # a cleanup must never take anything else down
            log.exception("chat %d: deleting %d old message(s) failed", chat_id, len(ids))
        await self._cross_off(chat_id, ids)

    async def _cross_off(self, chat_id: int, ids: list[int]) -> None:
        """Deleted, gone, or not deletable: off the journal (tried once; a refused delete,
        such as one after Telegram's 48 hours, is not tried forever), with the others
        deleted within `CROSS_OFF_EVERY` seconds."""
        written = [m for m in ids if (chat_id, m) in self._written]
        self._written.difference_update((chat_id, m) for m in written)
        if self.journal is None or not written:
            return
        self._crossed += [(chat_id, m) for m in written]
        if self._crossing is None:
            self._crossing = asyncio.ensure_future(self._cross_off_later())

    async def _cross_off_later(self) -> None:
        try:
            await asyncio.sleep(CROSS_OFF_EVERY)
        finally:
            self._crossing = None
        await self.crossed_off()

    async def crossed_off(self) -> None:
        """Cross off the journal now what was deleted (never fatal)."""
        crossed, self._crossed = self._crossed, []
        if self.journal is None or not crossed:
            return
        try:
            await self.journal.drop(crossed)
        except Exception:
            log.exception("%d deleted message(s) not crossed off", len(crossed))

    async def close(self, bot: Bot) -> None:
        """At shutdown: what is pending is written down, then deleted at once, every chat
        together, budget or not, for at most `CLOSE_WAIT` seconds: a delete still waiting in
        the rate limiter then (a busy group's budget may be spent for a minute) is given up,
        and the next start deletes it from the journal (`resume`). A stop never waits on a
        group's budget."""
        for task in list(self._tasks.values()):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await asyncio.gather(*(self._write(chat_id) for chat_id in list(self._pending)))
        await asyncio.gather(*self._writes)  # what a cancelled sweep was writing down
        batches = [(chat_id, ids[:BATCH]) for chat_id, ids in self._pending.items() if ids]
        self._pending.clear()
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await asyncio.gather(*(self._delete(bot, chat_id, ids) for chat_id, ids in batches))
        except TimeoutError:
            log.info("old messages in %d chat(s) left for the next start to delete", len(batches))
        if self._crossing is not None:
            self._crossing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._crossing
        await self.crossed_off()
