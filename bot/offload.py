"""The one place CPU-heavy searches run (issue 21): a duel's review, a practice hint, the odds,
the bot's own practice move. Each is a pure `rules.` function of picklable arguments (a view or
a state, a seat, a seeded `random.Random`), so it runs in a process pool and never takes the
interpreter from a tap:

    moves = await svc.offload.run(hint, view, seat, random.Random(seed))

- one `ProcessPoolExecutor` of `WORKERS` process(es), started from a fresh interpreter
  ("spawn": never a fork of this threaded asyncio process), made on first use (a bot that is
  never asked pays nothing) and shut down with the application (`close`);
- its processes run at `NICE` (+10), so the scheduler gives the tap's core to the bot first;
  they ignore SIGINT (a Ctrl-C in a terminal reaches the whole process group: the bot stops
  them itself, in order), and each ends itself when the bot is gone (killed: nothing else
  would stop it; it watches the sentinel multiprocessing gives it of its parent);
- a process that dies (killed, out of memory) breaks the pool: the next pool is made and the
  search tried once more in it; a second failure is raised, to the feature's usual failure
  (the "⚠️" toast of a press, a due row's backoff);
- `Offload(0)` (`Offload.in_process()`, what `Services` has unless the application gives it a
  pool) runs each search right here, in the event loop: unit tests and the demo stay fast and
  deterministic. The e2e tests run the real pool.

This module sits at the top of `bot/`, not in `bot.common`: a pool process imports the module
of its initializer, and `bot.common` imports python-telegram-bot (measured in README).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import ParamSpec, TypeVar

log = logging.getLogger(__name__)

P = ParamSpec("P")
T = TypeVar("T")

WORKERS = 1  # search processes (2 cores: one stays the bot's)
NICE = 10  # their niceness, above the bot's
CONTEXT = "spawn"  # how they start: a fresh interpreter (forking a threaded process is unsafe)


def _child(nice: int) -> None:
    """Each pool process, once at its start: lower its priority, leave SIGINT to the bot, and
    end with the bot."""
    os.nice(nice)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent,), name="parent", daemon=True).start()


def _end_with(parent: multiprocessing.process.BaseProcess) -> None:
    parent.join()  # returns when the parent is gone (its end of a pipe closed)
    os._exit(0)


class Offload:
    """Runs searches in its process pool (or here, with no workers)."""

    def __init__(self, workers: int = WORKERS, *, nice: int = NICE,
                 context: str = CONTEXT) -> None:
        self.workers, self.nice, self.context = workers, nice, context
        self.pools = 0  # pools made so far (a broken one is replaced)
        self._pool: ProcessPoolExecutor | None = None
        self._closed = False

    @classmethod
    def in_process(cls) -> Offload:
        return cls(0)

    async def run(self, fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """`fn(*args, **kwargs)` in a pool process (picklable: a module-level function of
        `rules`); once more in a new pool if the process died under it."""
        if self.workers <= 0:
            return fn(*args, **kwargs)
        call = partial(fn, *args, **kwargs)
        loop = asyncio.get_running_loop()
        pool = self._current()
        try:
            return await loop.run_in_executor(pool, call)
        except BrokenProcessPool:
            log.warning("a search process died: a new one, and %s once more",
                        getattr(fn, "__name__", "the search"))
            self._drop(pool)
        return await loop.run_in_executor(self._current(), call)

    def _current(self) -> ProcessPoolExecutor:
        if self._closed:  # (a late job at shutdown: no new process for it)
            raise RuntimeError("the search pool is closed")
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context(self.context),
                initializer=_child, initargs=(self.nice,))
            self.pools += 1
        return self._pool

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        """Forget a broken pool (once, however many searches saw it break)."""
        if self._pool is pool:
            self._pool = None
            pool.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The pool's live processes (none before the first search)."""
        found = getattr(self._pool, "_processes", None) or {}
        return [int(pid) for pid in found]

    async def close(self) -> None:
        """Stop the pool: queued searches cancelled, a running one finished (off the loop)."""
        pool, self._pool, self._closed = self._pool, None, True
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, True, cancel_futures=True)
