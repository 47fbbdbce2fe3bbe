"""The bot's metrics in the Prometheus format (prometheus-client), in one registry.

Every hook is one call at its site and never takes anything that could identify a person or a
game: labels are update kinds, Bot API method names, outcomes and error classes only (never
a chat or user id, a name, a token, a secret or a card).

* `handling(update)` (bot.telegram.scheduling, around each update's handling): the update
  counted by kind; a press is timed from its arrival until Telegram confirms its answer.
* `bot_api_call(method, outcome)` (bot.telegram.http, every Bot API request): calls by method
  and outcome; a 429 also counts in its own counter; an answered press ends its timer.
* `flood_wait(turn)` (bot.telegram.ratelimit): the time a paced request waited for its turn.
* `DATABASE` (installed with `bot.storage.watch` where the bot starts, bot.app.build): each
  statement's time and each failed statement's error class, and the outermost transactions
  committed, by engine.
* `drawing()` (bot.telegram.drawing, each job handed to the drawing thread): pictures drawn.
* `set_live({game: count})`, `set_jobs(due, overdue)`, `set_poller(bool)`: gauges that the
  ops server, the due-job scheduler and the update intake keep up to date.

`text()` is the exposition (`CONTENT_TYPE` its media type).
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector

from bot import handling as _handling
from bot.handling import Handling

T = TypeVar("T")

CONTENT_TYPE = CONTENT_TYPE_LATEST
REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)  # CPU seconds, memory, open files of this process
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

KINDS = ("message", "callback_query", "my_chat_member")  # the rest: "other"
FLOOD_WAIT_MIN = 0.05  # seconds a paced request's turn may take without counting as a wait
# A Bot API method's name: the last segment of a request URL (never the token's segment).
_METHOD = re.compile(r"[A-Za-z]{1,64}")
_LATENCY = (0.05, 0.1, 0.2, 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
_DB_TIME = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

UPDATES = Counter("sixshooter_updates", "Updates handled, by kind", ["kind"],
                  registry=REGISTRY)
TAPS = Counter("sixshooter_taps", "Button presses handled: answered (Telegram confirmed the "
               "answer) or unanswered", ["outcome"], registry=REGISTRY)
TAP_LATENCY = Histogram("sixshooter_tap_latency_seconds", "From a press's arrival at the bot "
                        "to Telegram's confirmation of its answer", buckets=_LATENCY,
                        registry=REGISTRY)
API_CALLS = Counter("sixshooter_bot_api_calls", "Bot API requests, by method and outcome (ok, "
                    "an error class, retry_after for a 429)", ["method", "outcome"],
                    registry=REGISTRY)
API_429 = Counter("sixshooter_bot_api_429", "Bot API requests answered 429 (flood limit)",
                  registry=REGISTRY)
FLOOD_WAITS = Counter("sixshooter_flood_waits", "Paced requests that waited for their chat's "
                      "turn (flood budget, a 429's hold, the chat's previous request)",
                      registry=REGISTRY)
FLOOD_WAIT_SECONDS = Counter("sixshooter_flood_wait_seconds", "Seconds paced requests waited "
                             "for their turn", registry=REGISTRY)
DB_TIME = Histogram("sixshooter_db_statement_seconds", "Time of each database statement, its "
                    "wait for a connection included", ["engine"], buckets=_DB_TIME,
                    registry=REGISTRY)
DB_ERRORS = Counter("sixshooter_db_errors", "Database statements that failed, by error class",
                    ["engine", "error"], registry=REGISTRY)
DB_TRANSACTIONS = Counter("sixshooter_db_transactions", "Database transactions committed (the "
                          "outermost; a nested block is a savepoint of it)", ["engine"],
                          registry=REGISTRY)
DRAWS = Counter("sixshooter_draws", "Pictures handed to the drawing thread (its jobs)",
                registry=REGISTRY)
LIVE = Gauge("sixshooter_live_games", "Games live in the database (all workers), by game",
             ["game"], registry=REGISTRY)
JOBS_DUE = Gauge("sixshooter_jobs_due", "Due jobs whose time has come", registry=REGISTRY)
JOBS_OVERDUE = Gauge("sixshooter_jobs_overdue", "Due jobs late by more than 30 s",
                     registry=REGISTRY)
POLLER = Gauge("sixshooter_poller", "1 while this process polls Telegram for updates",
               registry=REGISTRY)


def text() -> bytes:
    """The metrics in the Prometheus text format."""
    return generate_latest(REGISTRY)


# --- updates and presses ---------------------------------------------------------------------

def kind_of(update: object) -> str:
    for kind in KINDS:
        if getattr(update, kind, None) is not None:
            return kind
    return "other"


@contextmanager
def handling(update: object, within: Handling | None = None) -> Iterator[None]:
    """Around one update's whole handling (its wait for a place included): counted by kind
    when it ends; a press is timed until its answer is confirmed (see `bot_api_call`), in the
    update's handling (`within`, else the current one, else one for this block)."""
    kind = kind_of(update)
    with _handling.opened(within) as tap:
        tap.arrived = time.monotonic() if kind == "callback_query" else None
        tap.confirmed = False
        try:
            yield
        finally:
            UPDATES.labels(kind).inc()
            if tap.arrived is not None:
                TAPS.labels("answered" if tap.confirmed else "unanswered").inc()


def _answered() -> None:
    tap = _handling.current()
    if tap is not None and tap.arrived is not None and not tap.confirmed:
        tap.confirmed = True
        TAP_LATENCY.observe(time.monotonic() - tap.arrived)


# --- the Bot API and the flood limits --------------------------------------------------------

def method_of(url: str) -> str:
    """The Bot API method a request URL calls (`.../bot<token>/sendMessage`); "other" for
    anything that is not a plain method name."""
    name = url.rsplit("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
    return name if _METHOD.fullmatch(name) else "other"


def bot_api_call(method: str, outcome: str) -> None:
    """One Bot API request's end: `method` as `method_of` gives it, `outcome` "ok", an error
    class or "retry_after"."""
    API_CALLS.labels(method, outcome).inc()
    if outcome == "retry_after":
        API_429.inc()
    elif outcome == "ok" and method == "answerCallbackQuery":
        _answered()


async def flood_wait(turn: Awaitable[T]) -> T:
    """Await a paced request's turn, counting the wait if it was one."""
    start = time.monotonic()
    try:
        return await turn
    finally:
        waited = time.monotonic() - start
        if waited >= FLOOD_WAIT_MIN:
            FLOOD_WAITS.inc()
            FLOOD_WAIT_SECONDS.inc(waited)


# --- the database ----------------------------------------------------------------------------

class DatabaseWatcher:
    """Each statement timed and each failed one counted by error class (an engine raises
    StorageError and its subclasses), each outermost transaction committed counted: a
    `bot.storage.Watcher`, by engine."""

    def __init__(self) -> None:
        self._timers: dict[str, Any] = {}
        self._commits: dict[str, Any] = {}

    def statement(self, engine: str, seconds: float, error: Exception | None) -> None:
        if error is not None:
            DB_ERRORS.labels(engine, type(error).__name__).inc()
        timer = self._timers.get(engine)
        if timer is None:
            timer = self._timers[engine] = DB_TIME.labels(engine)
        timer.observe(seconds)

    def committed(self, engine: str) -> None:
        counter = self._commits.get(engine)
        if counter is None:
            counter = self._commits[engine] = DB_TRANSACTIONS.labels(engine)
        counter.inc()


DATABASE = DatabaseWatcher()


# --- the drawing thread ----------------------------------------------------------------------

def drawing() -> None:
    """One picture function handed to the drawing thread."""
    DRAWS.inc()


# --- gauges others keep ----------------------------------------------------------------------

def set_live(counts: Mapping[str, int]) -> None:
    """The games live in the database (every worker's), by game (its kind: "duel")."""
    for game, count in counts.items():
        LIVE.labels(game).set(count)


def set_jobs(due: int, overdue: int) -> None:
    """The due-job scheduler's view of its table: jobs due now, and those late by > 30 s."""
    JOBS_DUE.set(due)
    JOBS_OVERDUE.set(overdue)


def set_poller(polling: bool) -> None:
    """Whether this process is the one that polls Telegram (the leader)."""
    POLLER.set(1 if polling else 0)
