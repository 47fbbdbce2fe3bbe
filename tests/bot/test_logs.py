"""bot.logs: the token and other secrets are masked in every line, tracebacks included, and
the libraries that log SQL parameters or URLs are held below DEBUG."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator

import pytest

from bot import logs

TOKEN = "123456789:AAE-secret_TOKEN_abcdefghijklmnopqrstuv"


@pytest.fixture
def stream() -> Iterator[io.StringIO]:
    root = logging.getLogger()
    saved = (root.level, list(root.handlers))
    logs.setup("DEBUG", secrets=[TOKEN])
    out = io.StringIO()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(out)
    yield out
    root.handlers[:] = saved[1]
    root.setLevel(saved[0])


def test_the_token_is_masked_plain_url_encoded_and_in_tracebacks(stream: io.StringIO) -> None:
    log = logging.getLogger("telegram.ext.ExtBot")
    log.debug("Set Bot API URL: https://api.telegram.org/bot%s", TOKEN)
    log.debug("as a query: token=%s", TOKEN.replace(":", "%3A"))
    try:
        raise RuntimeError(f"GET /bot{TOKEN}/getMe failed")
    except RuntimeError:
        log.exception("request failed")
    text = stream.getvalue()
    assert TOKEN not in text and TOKEN.replace(":", "%3A") not in text
    assert text.count(logs.MASK) == 3 and "Traceback" in text


def test_a_secret_learnt_later_is_masked_from_then_on(stream: io.StringIO) -> None:
    logs.add_secret("webhook-secret-0123456789")
    logging.getLogger("x").warning("setWebhook secret_token=webhook-secret-0123456789")
    assert "webhook-secret" not in stream.getvalue()


def test_short_strings_are_not_taken_as_secrets(stream: io.StringIO) -> None:
    logs.add_secret("abc")
    logging.getLogger("x").warning("abc stays readable")
    assert "abc stays readable" in stream.getvalue()


def test_libraries_that_log_parameters_stay_below_debug(stream: io.StringIO) -> None:
    logging.getLogger("aiosqlite").debug("executing UPDATE duels SET state = '{\"deal\"...}'")
    logging.getLogger("httpx").info("HTTP Request: POST https://api.telegram.org/bot.../getMe")
    logging.getLogger("bot.duel.service").debug("our own debug line")
    text = stream.getvalue()
    assert "executing" not in text and "HTTP Request" not in text and "our own" in text
    assert logging.getLogger("aiosqlite").getEffectiveLevel() == logging.INFO
