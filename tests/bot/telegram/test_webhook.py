"""The webhook's secret (configured, or generated once and kept in bot_meta) and its path."""

from __future__ import annotations

import asyncio
import errno
import logging
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import logs
from bot.config import Config
from bot.storage import Storage
from bot.telegram import webhook

TOKEN = "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Storage]:
    storage = await Storage.open(tmp_path / "s.db")
    yield storage
    await storage.close()


async def test_meta_keeps_text_by_key(store: Storage) -> None:
    assert await store.meta.get("k") is None
    await store.meta.set("k", "one")
    await store.meta.set("k", "two")
    assert await store.meta.get("k") == "two"


async def test_get_or_create_makes_the_value_once(store: Storage) -> None:
    made: list[str] = []

    def make() -> str:
        made.append(f"v{len(made)}")
        return made[-1]

    first = await asyncio.gather(*(store.meta.get_or_create("k", make) for _ in range(5)))
    assert first == ["v0"] * 5 and made == ["v0"]
    assert await store.meta.get_or_create("k", make) == "v0"


def config(tmp_path: Path, **extra: str) -> Config:
    env = {"TELEGRAM_BOT_TOKEN": TOKEN, "SIXSHOOTER_DB": str(tmp_path / "s.db"),
           "SIXSHOOTER_WEBHOOK_URL": "https://bot.example.org/hook", **extra}
    return Config.from_env(env)


def masked(secret: str) -> bool:
    record = logging.LogRecord("x", logging.DEBUG, __file__, 1, "secret_token=%s", (secret,), None)
    return secret not in logs.RedactingFormatter().format(record)


async def test_a_generated_secret_is_kept_in_the_database_and_masked(tmp_path: Path) -> None:
    first = await webhook.secret(config(tmp_path))
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", first)  # Telegram's alphabet, 256 random bits
    assert await webhook.secret(config(tmp_path)) == first  # a restart registers the same one
    storage = await Storage.open(tmp_path / "s.db")
    try:
        assert await storage.meta.get(webhook.SECRET_KEY) == first
    finally:
        await storage.close()
    assert masked(first)
    (tmp_path / "other").mkdir()
    assert await webhook.secret(config(tmp_path / "other")) != first  # another database


async def test_a_configured_secret_wins_and_is_masked(tmp_path: Path) -> None:
    mine = "my-own_secret-0123456789abcdef"
    assert await webhook.secret(config(tmp_path, SIXSHOOTER_WEBHOOK_SECRET=mine)) == mine
    assert masked(mine)
    assert not (tmp_path / "s.db").exists()  # nothing to keep: the database is not touched


@pytest.mark.parametrize(("url", "matches", "refuses"), [
    ("https://bot.example.org/hook", ["/hook", "/hook/"], ["/", "/hooks", "/x/hook"]),
    ("https://bot.example.org/v1.2/hook", ["/v1.2/hook"], ["/v1x2/hook"]),
    ("https://bot.example.org/a(b)+c", ["/a(b)+c"], ["/abbc"]),
    ("https://bot.example.org", ["/"], ["/hook"]),
])
def test_the_url_path_is_matched_literally(
    tmp_path: Path, url: str, matches: list[str], refuses: list[str]
) -> None:
    # python-telegram-bot's server routes f"{url_path}/?" as a regular expression (tornado).
    route = re.compile(rf"{webhook.url_path(config(tmp_path, SIXSHOOTER_WEBHOOK_URL=url))}/?$")
    assert all(route.match(p) for p in matches)
    assert not any(route.match(p) for p in refuses)


def test_a_port_in_use_is_found_before_telegram_is_told_to_deliver_there(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        busy = config(tmp_path, SIXSHOOTER_WEBHOOK_PORT=port)
        with pytest.raises(OSError) as info:
            webhook.check_listen(busy)
        assert info.value.errno == errno.EADDRINUSE
    webhook.check_listen(busy)  # free again: the probe itself holds nothing
    webhook.check_listen(busy)
