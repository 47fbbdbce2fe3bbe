"""Who is told of every statement and commit: one `Watcher` for the process (bot.ops.metrics
installs its own where the bot starts), so storage never reaches up to what watches it.

    watch(watcher)                                  # from now on, every database's
    return await timed(db.engine, statement)        # Database's statements, each
    return committing(db.engine, block)             # an outermost transaction's block
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Watcher(Protocol):
    """What is told of every statement and commit."""

    def statement(self, engine: str, seconds: float, error: Exception | None) -> None:
        """A statement ended after `seconds` (its wait for a connection included), failing
        with `error` if it failed."""

    def committed(self, engine: str) -> None:
        """An outermost transaction committed (a nested block is a savepoint of it)."""


_watcher: Watcher | None = None


def watch(watcher: Watcher | None) -> Watcher | None:
    """Tell `watcher` of every statement and commit of every database from now on (None: no
    one), instead of the one installed before, which is returned."""
    global _watcher
    before, _watcher = _watcher, watcher
    return before


async def timed(engine: str, statement: Awaitable[T]) -> T:
    """A statement run, and the watcher told its time and its failure, if any."""
    watcher = _watcher
    if watcher is None:
        return await statement
    start = time.perf_counter()
    error: Exception | None = None
    try:
        return await statement
    except Exception as e:
        error = e
        raise
    finally:
        watcher.statement(engine, time.perf_counter() - start, error)


def committing(engine: str, block: AbstractAsyncContextManager[None]
               ) -> AbstractAsyncContextManager[None]:
    """An outermost transaction's block, the watcher told once it commits."""
    watcher = _watcher
    return block if watcher is None else _Committing(block, watcher, engine)


class _Committing:
    """A transaction block, the watcher told once it commits (left without an exception)."""

    def __init__(self, block: AbstractAsyncContextManager[None], watcher: Watcher,
                 engine: str) -> None:
        self._block, self._watcher, self._engine = block, watcher, engine

    async def __aenter__(self) -> None:
        await self._block.__aenter__()

    async def __aexit__(self, *exc: Any) -> bool | None:
        suppressed = await self._block.__aexit__(*exc)
        if exc[0] is None:
            self._watcher.committed(self._engine)
        return suppressed
