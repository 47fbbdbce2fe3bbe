"""One update's handling: what its steps share, in one object, carried by one ContextVar.

The intake opens it where an update's handling starts (`bot.telegram.intake`; the update
processor opens one for an update handled without the intake) and hands it to each step that
fills a part of it; the steps deep below (a toast, a send, a repository's read) find it with
`current()`. A task the handling starts copies the context, so it shares the same object.

    settle     crossing the update off once its effect is saved (bot.telegram.intake)
    rows       the rows read once on PostgreSQL, the opening `task`'s alone (bot.storage.row_cache)
    press      a watched press, and whether its answer is `claimed` (bot.telegram.press_ack)
    arrived    a press's arrival, timed until Telegram `confirmed` its answer (bot.ops.metrics)
    chatter    its sends yield to the games' (bot.telegram.chatter, bot.telegram.ratelimit)

It imports nothing of the bot's, so storage (the lowest floor), ops and telegram all read it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

Settle = Callable[[], Coroutine[Any, Any, None]]


class Handling:
    __slots__ = ("arrived", "chatter", "claimed", "confirmed", "press", "rows", "settle",
                 "task")

    def __init__(self, settle: Settle | None = None) -> None:
        self.settle = settle
        self.task: asyncio.Task[Any] | None = None  # the task whose reads `rows` keeps
        self.rows: dict[tuple[object, Hashable], Any] | None = None  # by repository and key
        self.press = False  # a press under watch: one answer, `claimed` by whoever gives it
        self.claimed = False
        self.arrived: float | None = None  # a press's arrival (monotonic), while timed
        self.confirmed = False  # Telegram confirmed an answer to it
        self.chatter = False  # a reply that only shows something: its sends yield


_NOW: ContextVar[Handling | None] = ContextVar("sixshooter_handling", default=None)


def current() -> Handling | None:
    """The handling this code runs within (None: not within an update's)."""
    return _NOW.get()


@contextmanager
def within(handling: Handling) -> Iterator[Handling]:
    """`handling` is the current one in this block (and in the tasks it starts)."""
    token = _NOW.set(handling)
    try:
        yield handling
    finally:
        _NOW.reset(token)


@contextmanager
def opened(handling: Handling | None = None) -> Iterator[Handling]:
    """`handling`, else the current one, else a new one for this block: a step that may run
    on its own (a test, an update handled without the intake) still has one to fill."""
    found = handling if handling is not None else _NOW.get()
    if found is not None and found is _NOW.get():
        yield found
        return
    with within(found if found is not None else Handling()) as made:
        yield made
