"""Updates in: saved before they are acknowledged, handled once, none lost to a kill.

`Intake.receive(updates)` saves the updates in the inbox (`bot.storage.inbox`) as Telegram sent
them (each the JSON object, not python-telegram-bot's `Update`: that is made once, for a new
update only, when it is handled), claimed by this process, and only then returns, so its caller
may acknowledge them: long polling moves its offset past them, a webhook answers 200. The new
ones (a second delivery of an update finds its row and is dropped here) are then handled as
python-telegram-bot would (the application's update processor, then its handlers) and crossed
off when done.

A process killed in between leaves its claimed updates behind. It stops renewing their leases,
so once a lease has run out (`LEASE`, about 10 s) any process's sweep takes them and handles
them: one that starts takes its own dead predecessor's at once on SQLite (the file lock says
nobody else can hold them). An update handled twice that way (killed after its effect, before
it was crossed off) takes effect once: a game move is a compare-and-swap on the version the
press was for, so the second is a double tap.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from telegram import Update

from bot import handling
from bot.handling import Handling
from bot.instance import dead_here, worker_name
from bot.storage import Incoming, Storage, StorageError
from bot.telegram import App

log = logging.getLogger(__name__)

LEASE = 10.0  # seconds an update stays claimed without its owner renewing it
SWEEP_EVERY = 3.0  # seconds between renewing this process's leases and taking stale ones
PRUNE_EVERY = 600.0  # seconds between dropping old handled rows
SAVE_WAIT = 0.5  # seconds an update waits for its save before it is handled regardless
SETTLE_WAIT = 0.2  # seconds a settled update's crossing-off is waited for
DONE_TRIES = 3  # attempts to cross an update off before leaving it to its lease
STOP_WAIT = 10.0  # seconds a graceful stop waits for the updates in hand

Clock = Callable[[], float]
Raw = Mapping[str, Any]  # an update as Telegram sent it: the JSON object
_SETTLING: set[asyncio.Task[None]] = set()  # crossings-off under way (kept from the GC)


async def settled(within: Handling | None = None) -> None:
    """The update being handled has had its effect saved and been answered (its press, or a
    first message sent about it); what is left (showing it) a restart redoes from the
    database. So it is crossed off now: a kill from here on does not hand it to the next
    process, which would answer it a second time (a press: Telegram refuses that as too old;
    a command: a second reply). Its write runs outside any transaction of the caller's and is
    waited for `SETTLE_WAIT` at most (it takes a millisecond; a send must not wait behind a
    busy database). `within`: the update's handling (else the current one)."""
    update = within if within is not None else handling.current()
    settle = None if update is None else update.settle
    if settle is not None:
        task = asyncio.create_task(settle(), context=contextvars.Context())
        _SETTLING.add(task)
        task.add_done_callback(_SETTLING.discard)
        await asyncio.wait({task}, timeout=SETTLE_WAIT)


def incoming(update: Raw) -> Incoming:
    return Incoming(int(update["update_id"]), json.dumps(update, separators=(",", ":")))


def is_update(data: object) -> bool:
    """Could `data` (decoded JSON) be an update? An object with an integer `update_id`: what
    the intake needs to save it (the rest is read when it is handled)."""
    return isinstance(data, dict) and type(data.get("update_id")) is int


class Intake:
    def __init__(self, app: App, storage: Storage, *, owner: str | None = None,
                 clock: Clock = time.time) -> None:
        self.app, self.storage, self.clock = app, storage, clock
        self.owner = owner or worker_name()
        self._in_hand: dict[int, asyncio.Task[None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._pruned = 0.0

    @property
    def in_hand(self) -> int:
        return len(self._in_hand)

    async def start(self) -> None:
        """Take what a dead process left (at once on SQLite, where only this one can run; on
        PostgreSQL at once what this machine's dead runs left), then sweep in the
        background."""
        if self.storage.can.one_process:
            await self._take_stale(before=float("inf"))
        else:  # this machine's dead runs' at once; other machines' once their leases end
            for owner in await self.storage.inbox.owners():
                if owner != self.owner and dead_here(owner):
                    await self.storage.inbox.release(owner)
            await self._take_stale(before=self.clock())
        self._sweeper = asyncio.create_task(self._sweep(), name="intake-sweep")

    async def receive(self, updates: Sequence[Raw]) -> None:
        """Save `updates`, then handle the new ones in the background; the caller may then
        acknowledge them.

        A database that cannot take the write within `SAVE_WAIT` (an outage, its writer held
        by another process) must not stall what needs no write: the updates are then handled
        at once while the save goes on (crossed off if it succeeds; unsaved, the handlers meet
        the same trouble and answer with the apology), and acknowledged. Only then can a kill
        lose one, and only one the database could not have kept anyway."""
        if not updates:
            return
        now = self.clock()
        saving = asyncio.ensure_future(self.storage.inbox.save(
            [incoming(u) for u in updates], owner=self.owner, now=now,
            lease_until=now + LEASE))
        await asyncio.wait({saving}, timeout=SAVE_WAIT)
        if not saving.done():
            log.warning("cannot save %d updates within %g s: handled meanwhile",
                        len(updates), SAVE_WAIT)
            for update in updates:
                self._handle(update, saving)
            return
        try:
            new = saving.result()
        except Exception as e:  # StorageError, or a bug: the updates are still handled
            log.warning("cannot save %d updates (%s): handled unsaved", len(updates), e)
            for update in updates:
                self._handle(update, saving)
            return
        for update in updates:
            if update["update_id"] in new:
                self._handle(update, saving)
            else:
                log.debug("update %d: seen before, dropped", update["update_id"])

    def _handle(self, raw: Raw, saving: asyncio.Future[set[int]] | None) -> None:
        """Handle `raw` in the background; `saving` says whether its row is this process's
        to cross off (None: a row taken over)."""
        update_id = int(raw["update_id"])
        if update_id in self._in_hand:
            return
        task = asyncio.create_task(self._process(update_id, raw, saving),
                                   name=f"update-{update_id}")
        self._in_hand[update_id] = task

    async def _process(self, update_id: int, raw: Raw,
                       saving: asyncio.Future[set[int]] | None) -> None:
        crossed = False

        async def settle() -> None:
            nonlocal crossed
            if crossed:
                return
            crossed = True
            if saving is not None:
                try:
                    if update_id not in await saving:
                        return  # not saved by this process: nothing of ours to cross off
                except Exception:  # never saved (logged where it failed)
                    return
            await self._cross_off(update_id)

        try:
            # The update's handling starts here: the steps below fill it (its rows read once,
            # its press's answer and timing) and find it where they need it.
            with handling.within(Handling(settle)):
                try:
                    update = Update.de_json(dict(raw), self.app.bot)
                except (ValueError, TypeError, KeyError, AttributeError) as e:
                    log.error("update %d: unreadable (%s): dropped", update_id,
                              type(e).__name__)
                    return  # crossed off below: it would be unreadable every time
                processor = self.app.update_processor
                with self.storage.one_update():  # its rows, read once
                    await processor.process_update(update, self.app.process_update(update))
        except Exception:  # the application's error handler saw the handlers' errors
            log.exception("update %d: not handled", update_id)
        finally:
            await settle()
            self._in_hand.pop(update_id, None)

    async def _cross_off(self, update_id: int) -> None:
        for attempt in range(DONE_TRIES):
            try:
                await self.storage.inbox.done(update_id, now=self.clock())
                return
            except StorageError as e:
                log.warning("update %d: cannot mark it handled (%s)", update_id, e)
                await asyncio.sleep(0.5 * (attempt + 1))
        # Left to its lease: whoever takes it again finds its effect made (compare-and-swap).

    async def _take_stale(self, *, before: float) -> None:
        now = self.clock()
        taken = await self.storage.inbox.take_stale(self.owner, before=before,
                                                    lease_until=now + LEASE)
        for row in taken:
            if row.update_id in self._in_hand:
                continue
            try:
                raw = json.loads(row.body)
            except ValueError:
                raw = None
            if not is_update(raw) or raw["update_id"] != row.update_id:
                log.error("update %d: saved but unreadable: dropped", row.update_id)
                await self._cross_off(row.update_id)
                continue
            log.info("update %d: taken over from a stopped worker", row.update_id)
            self._handle(raw, None)

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_EVERY)
            try:
                now = self.clock()
                if self._in_hand:
                    await self.storage.inbox.renew(self.owner, lease_until=now + LEASE)
                await self._take_stale(before=now)
                if now - self._pruned >= PRUNE_EVERY:
                    self._pruned = now
                    await self.storage.inbox.prune(now=now)
            except StorageError as e:
                log.warning("inbox sweep failed: %s", e)

    async def stop(self) -> None:
        """Stop sweeping, give the updates in hand a moment, and hand back the rest's leases
        so another worker takes them at once."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        if self._in_hand:
            await asyncio.wait(list(self._in_hand.values()), timeout=STOP_WAIT)
        with contextlib.suppress(StorageError):
            if self._in_hand:
                await self.storage.inbox.renew(self.owner, lease_until=0.0)
