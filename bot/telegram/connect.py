"""Reaching Telegram: the first contact retried with backoff, and network failures in one line.

At start the bot may come up before the network (a container on boot, Telegram briefly
unreachable). `connect(app)` calls the application's `initialize()` (getMe) until it succeeds,
waiting 1 s, 2 s, 4 s... up to a minute between attempts and logging one line for each failed
one; SIGINT or SIGTERM while it waits ends it quietly. A refused token (InvalidToken) or any
other answer from Telegram is no network failure and propagates at once.

`one_line_network_errors()` does the same for python-telegram-bot's own retry loops (setting the
webhook, polling): a Telegram or network error is logged as one line, not with a traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Iterator
from typing import Protocol

from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError

from bot.telegram.send import retry_after_seconds

log = logging.getLogger(__name__)

FIRST_DELAY, MAX_DELAY = 1.0, 60.0  # seconds between attempts: doubling, capped
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
# python-telegram-bot's loggers whose network-retry failures carry a traceback.
PTB_RETRY_LOGGERS = ("telegram.ext", "telegram.ext.Updater")


class Initializable(Protocol):
    async def initialize(self) -> None: ...


def delays(first: float = FIRST_DELAY, cap: float = MAX_DELAY) -> Iterator[float]:
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, cap)


def describe(error: BaseException) -> str:
    """One short line: the error's class and message (PTB's include the HTTP client's)."""
    text = " ".join(str(error).split()) or "no details"
    return f"{type(error).__name__}: {text}"


async def connect(
    app: Initializable, *, first: float = FIRST_DELAY, cap: float = MAX_DELAY
) -> bool:
    """`await app.initialize()`, retried while Telegram is unreachable; True once it succeeded,
    False if a stop signal came first. Must run in the loop the application will run in."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        return await _attempts(app, stop, delays(first, cap))
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)


async def _attempts(app: Initializable, stop: asyncio.Event, waits: Iterator[float]) -> bool:
    for attempt, delay in enumerate(waits, start=1):
        try:
            await app.initialize()
        except RetryAfter as e:
            delay = max(delay, retry_after_seconds(e))
            error: TelegramError = e
        except BadRequest:
            raise  # an answer, not a network failure
        except NetworkError as e:  # includes TimedOut and Telegram's 5xx
            error = e
        else:
            if attempt > 1:
                log.info("reached Telegram at attempt %d", attempt)
            return True
        log.warning("cannot reach Telegram (%s): attempt %d failed, next in %g s",
                    describe(error), attempt, delay)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), delay)
        if stop.is_set():
            log.info("stopped while waiting for Telegram")
            return False
    raise AssertionError("delays() never ends")


class OneLineTelegramErrors(logging.Filter):
    """A record whose exception is a TelegramError keeps one line: message, then the error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, TelegramError):
            record.msg, record.args = f"{record.getMessage()} ({describe(error)})", None
            record.exc_info, record.exc_text = None, None
        return True


def one_line_network_errors() -> None:
    for name in PTB_RETRY_LOGGERS:
        logging.getLogger(name).addFilter(OneLineTelegramErrors())
