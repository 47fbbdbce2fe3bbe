"""The one scheduler: due rows (bot.storage.jobs) run by whichever live worker claims them.

    due.register(app, "challenge.expire", expire)       # once per kind and application,
                                                        #   in its feature's register(app):
                                                        #   async def expire(app, key, data)
    await due.of(app).later("challenge.expire", "17", 600.0, {"v": 1})   # arm (or re-arm)
    await due.of(app).cancel("challenge.expire", "17")

Each process runs one loop (`Scheduler.start` from the application's start-up, `stop` at its
shutdown): it claims the rows that are due (a lease of `LEASE` seconds in its name), runs their
handlers concurrently (at most `SLOTS` at once), renews the lease of a handler still running
every third of it, and finishes the row as claimed (a row re-armed meanwhile stays: a
repeating job arms its next row before it finishes). A handler that raises is logged in one
line and its row is due again after a backoff (1 s, 2 s, 4 s... up to `MOST_BACKOFF`). A worker
killed mid-job leaves the row to another once its lease runs out; on SQLite (one process, by its
file lock) a start frees every lease at once, since their holder is dead.

Waking: arming a row here wakes this loop when the row is due sooner than it meant to look;
on PostgreSQL the loop also looks every `POLL` seconds (other workers arm rows too), on SQLite
it sleeps until the next row is due. A handler may run twice (a lease that ran out under a
live but stalled worker, a re-arming during a run), so each makes its effect once by itself:
a compare-and-swap on the version it was armed for, a mark written first, a state re-checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.instance import dead_here, worker_name
from bot.storage import Capabilities, DueJob, JobRepo, StorageError
from bot.telegram import App

log = logging.getLogger(__name__)

Handler = Callable[[App, str, Any], Awaitable[None]]
Counts = Callable[[int, int], None]  # (due, overdue), e.g. the metrics' set_jobs

KEY = "sixshooter.due"  # the Scheduler in bot_data
KINDS = "sixshooter.due.kinds"  # each kind's handler in bot_data, as the features registered
LEASE = 30.0  # seconds a claim holds a row (renewed while its handler runs)
SLOTS = 8  # handlers running at once in one process
POLL = 1.0  # PostgreSQL: seconds between looks at the table
IDLE = 60.0  # SQLite: the longest sleep (nothing else arms rows, so only a safety net)
RETRY_CLAIM = 2.0  # seconds before the next look after a failed one
BACKOFF, MOST_BACKOFF = 1.0, 300.0  # a failed job's first wait, and its longest
COUNTS_EVERY = 15.0  # seconds between counts for `on_counts`
STOP_GRACE = 5.0  # seconds running handlers get at shutdown before they are cancelled


def register(app: App, kind: str, handler: Handler) -> Handler:
    """The application's handler of a kind of due row (once: another handler for the same
    kind is a bug)."""
    known = handlers_of(app).setdefault(kind, handler)
    if known is not handler:
        raise ValueError(f"due rows of kind {kind!r} have a handler already")
    return handler


def handlers_of(app: App) -> dict[str, Handler]:
    """The application's handlers by kind (the scheduler runs them: one dict, so a kind
    registered after it was installed is run too)."""
    found: dict[str, Handler] = app.bot_data.setdefault(KINDS, {})
    return found


def _one_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()[0][:200] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


class Scheduler:
    def __init__(self, app: App, jobs: JobRepo, *, can: Capabilities,
                 handlers: dict[str, Handler] | None = None, owner: str | None = None,
                 clock: Callable[[], float] = time.time, lease: float = LEASE,
                 slots: int = SLOTS, poll: float | None = None,
                 backoff: tuple[float, float] = (BACKOFF, MOST_BACKOFF)) -> None:
        self.app, self.jobs, self.can = app, jobs, can
        self.handlers = {} if handlers is None else handlers
        self.owner = owner or worker_name()
        self.clock, self.lease, self.slots = clock, lease, slots
        self.poll = poll if poll is not None else (None if can.one_process else POLL)
        self.backoff = backoff
        self.on_counts: Counts | None = None
        self._running: dict[asyncio.Task[None], DueJob] = {}
        self._wake = asyncio.Event()
        self._awake = False  # the loop is between two sleeps: anything armed is seen
        self._sleep_until = math.inf
        self._next_counts = 0.0
        self._loop: asyncio.Task[None] | None = None

    # --- arming ------------------------------------------------------------------------

    async def at(self, kind: str, key: str, when: float, data: Any = None, *,
                 sooner_only: bool = False) -> None:
        """Arm (or re-arm) the row (kind, key) for unix time `when` (see JobRepo.schedule)."""
        written = await self.jobs.schedule(kind, key, when, data, sooner_only=sooner_only)
        if written and (self._awake or when < self._sleep_until):
            self._wake.set()

    async def later(self, kind: str, key: str, delay: float, data: Any = None, *,
                    sooner_only: bool = False) -> None:
        """Arm the row (kind, key) for `delay` seconds from now."""
        await self.at(kind, key, self.clock() + max(0.0, delay), data, sooner_only=sooner_only)

    async def cancel(self, kind: str, key: str) -> None:
        await self.jobs.cancel(kind, key)

    # --- the loop ----------------------------------------------------------------------

    async def start(self) -> None:
        """Start this process's loop, once the leases of dead runs are freed: on SQLite every
        lease (one process, by its file lock), on PostgreSQL those of this machine's processes
        that are gone (a restart here goes on at once; another machine's wait for their
        lease to run out)."""
        if self._loop is not None:
            return
        if self.can.one_process:
            await self.jobs.release_all()
        else:
            for owner in await self.jobs.owners():
                if owner != self.owner and dead_here(owner):
                    await self.jobs.release_owner(owner)
        self._loop = asyncio.create_task(self._forever(), name="due-jobs")

    async def stop(self, grace: float = STOP_GRACE) -> None:
        """Claim nothing more; give running handlers `grace` seconds, then cancel them (their
        rows are freed for the next worker)."""
        loop, self._loop = self._loop, None
        if loop is None:
            return
        loop.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await loop
        if self._running:
            _, late = await asyncio.wait(set(self._running), timeout=grace)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def _forever(self) -> None:
        failing = False  # the database is away: said once, not at every look
        while True:
            self._wake.clear()
            self._awake = True
            now = self.clock()
            try:
                if await self.run_due(now):
                    continue  # a full batch: there may be more
                wake_at = await self._next_wake(now)
                if failing:
                    log.info("due jobs: the database answers again")
                failing = False
            except StorageError as e:  # look again soon
                if not failing:
                    log.warning("due jobs: cannot claim: %s", _one_line(e))
                failing, wake_at = True, now + RETRY_CLAIM
            except Exception:  # a bug: said, and the loop lives on
                log.exception("due jobs: the loop failed")
                wake_at = now + RETRY_CLAIM
            self._sleep_until = max(wake_at, now + 0.01)
            self._awake = False
            if self._wake.is_set():
                continue
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(max(0.0, self._sleep_until - self.clock())):
                    await self._wake.wait()
            self._sleep_until = math.inf

    async def _next_wake(self, now: float) -> float:
        if self.on_counts is not None and now >= self._next_counts:
            counts = await self.jobs.counts(now)
            self.on_counts(counts.due, counts.overdue)
            self._next_counts = now + COUNTS_EVERY
        wake_at = now + (self.poll if self.poll is not None else IDLE)
        if len(self._running) < self.slots:  # else a handler's end wakes the loop
            wake_at = min(wake_at, await self.jobs.next_due() or math.inf)
        if self.on_counts is not None:
            wake_at = min(wake_at, self._next_counts)
        return wake_at

    async def run_due(self, now: float | None = None) -> bool:
        """Claim what is due and start its handlers; True if the claim took all it could."""
        free = self.slots - len(self._running)
        if free <= 0:
            return False
        claimed = await self.jobs.claim(self.owner, self.clock() if now is None else now,
                                        self.lease, free)
        for job in claimed:
            task = asyncio.create_task(self._run(job), name=f"due:{job.kind}")
            self._running[task] = job
            task.add_done_callback(self._ended)
        return len(claimed) == free

    def _ended(self, task: asyncio.Task[None]) -> None:
        self._running.pop(task, None)
        self._wake.set()  # a slot is free

    async def idle(self) -> None:
        """Wait until no handler of this process runs (tests)."""
        while self._running:
            await asyncio.wait(set(self._running))

    # --- one job -----------------------------------------------------------------------

    async def _run(self, job: DueJob) -> None:
        work: asyncio.Future[None] | None = None
        try:
            handler = self.handlers.get(job.kind)
            if handler is None:
                raise LookupError(f"no handler for due rows of kind {job.kind!r} here")
            work = asyncio.ensure_future(handler(self.app, job.key, job.data))
            while not (await asyncio.wait({work}, timeout=self.lease / 3))[0]:
                await self._renew(job)
            work.result()
        except asyncio.CancelledError:
            if work is not None:
                work.cancel()
            with contextlib.suppress(StorageError):
                await self.jobs.release(job)
            raise
        except Exception as e:  # the handler's own failure
            wait = min(self.backoff[1], self.backoff[0] * 2 ** min(job.attempts, 30))
            log.warning("due job %s %s failed (%s); try %d in %.0f s", job.kind, job.key,
                        _one_line(e), job.attempts + 2, wait)
            log.debug("due job %s %s: the failure", job.kind, job.key, exc_info=e)
            with contextlib.suppress(StorageError):  # else its lease runs out: tried again
                await self.jobs.retry(job, self.clock() + wait)
            return
        try:
            await self.jobs.finish(job)
        except StorageError as e:  # its lease runs out and it runs again: once by itself
            log.warning("due job %s %s: done, not crossed off: %s", job.kind, job.key,
                        _one_line(e))

    async def _renew(self, job: DueJob) -> None:
        try:
            if not await self.jobs.renew(job, self.clock() + self.lease):
                log.debug("due job %s %s: re-armed or taken while it runs", job.kind, job.key)
        except StorageError as e:  # the lease may run out: it runs again, once by itself
            log.warning("due job %s %s: lease not renewed: %s", job.kind, job.key,
                        _one_line(e))


def install(app: App, jobs: JobRepo, can: Capabilities) -> Scheduler:
    """This process's scheduler, kept in bot_data (start it once the handlers can run), running
    the handlers the application's features registered."""
    scheduler = Scheduler(app, jobs, can=can, handlers=handlers_of(app))
    app.bot_data[KEY] = scheduler
    return scheduler


def of(app: App) -> Scheduler:
    found = app.bot_data.get(KEY)
    if not isinstance(found, Scheduler):
        raise LookupError("the due-job scheduler is not installed")
    return found


async def stop(app: App) -> None:
    found = app.bot_data.get(KEY)
    if isinstance(found, Scheduler):
        await found.stop()
