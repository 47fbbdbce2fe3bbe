"""Reaching Telegram at start: retried with a capped doubling backoff, one line per failed attempt;
a refused token or another answer is no network failure; PTB's retry tracebacks made one line."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import signal
import sys

import pytest
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TimedOut

from bot.logs import FORMAT
from bot.telegram import connect


class FlakyApp:
    """initialize() raises each of `failures` in turn, then succeeds."""

    def __init__(self, *failures: Exception) -> None:
        self.failures = list(failures)
        self.calls = 0

    async def initialize(self) -> None:
        self.calls += 1
        if self.failures:
            raise self.failures.pop(0)


def test_the_backoff_doubles_from_one_second_up_to_a_minute() -> None:
    assert list(itertools.islice(connect.delays(), 9)) == [1, 2, 4, 8, 16, 32, 60, 60, 60]


async def test_network_failures_are_retried_with_one_line_each(
    caplog: pytest.LogCaptureFixture,
) -> None:
    app = FlakyApp(NetworkError("httpx.ConnectError: All connection attempts failed"),
                   TimedOut("Timed out"), NetworkError("Bad Gateway (502)"))
    caplog.set_level(logging.INFO, logger="bot.telegram.connect")
    assert await connect.connect(app, first=0.01, cap=0.02) is True
    assert app.calls == 4
    failed = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert [r.getMessage() for r in failed] == [
        "cannot reach Telegram (NetworkError: httpx.ConnectError: All connection attempts "
        "failed): attempt 1 failed, next in 0.01 s",
        "cannot reach Telegram (TimedOut: Timed out): attempt 2 failed, next in 0.02 s",
        "cannot reach Telegram (NetworkError: Bad Gateway (502)): attempt 3 failed, next in "
        "0.02 s",
    ]
    assert all(r.exc_info is None for r in caplog.records)
    assert "reached Telegram at attempt 4" in caplog.messages


async def test_flood_control_waits_as_long_as_telegram_asks() -> None:
    app = FlakyApp(RetryAfter(1))
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await connect.connect(app, first=0.01) is True
    assert loop.time() - started >= 0.95


@pytest.mark.parametrize("refusal", [InvalidToken("refused"), BadRequest("Not Found")])
async def test_an_answer_from_telegram_is_not_retried(refusal: Exception) -> None:
    app = FlakyApp(refusal)
    with pytest.raises(type(refusal)):
        await connect.connect(app, first=0.01)
    assert app.calls == 1


async def test_a_stop_signal_while_waiting_ends_it_quietly() -> None:
    app = FlakyApp(*[NetworkError("down")] * 100)
    loop = asyncio.get_running_loop()
    loop.call_later(0.2, os.kill, os.getpid(), signal.SIGTERM)
    assert await asyncio.wait_for(connect.connect(app, first=5), 3) is False
    assert app.calls == 1


def formatted(error: BaseException) -> str:
    handler = logging.Handler()
    handler.setFormatter(logging.Formatter(FORMAT))
    try:
        raise error
    except BaseException:
        record = logging.LogRecord("telegram.ext.Updater", logging.ERROR, __file__, 1,
                                   "Exception happened while polling for %s.", ("updates",),
                                   sys.exc_info())
    assert connect.OneLineTelegramErrors().filter(record)
    return handler.format(record)


def test_ptbs_network_tracebacks_become_one_line() -> None:
    text = formatted(NetworkError("httpx.ConnectError: [Errno 111] Connection refused"))
    assert "\n" not in text and "Traceback" not in text
    assert text.endswith("Exception happened while polling for updates. (NetworkError: "
                         "httpx.ConnectError: [Errno 111] Connection refused)")


def test_a_bug_keeps_its_traceback() -> None:
    assert "Traceback" in formatted(ValueError("a bug"))
