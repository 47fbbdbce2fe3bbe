"""The ops port of a real bot process (on SQLite and on PostgreSQL): /metrics shows the
updates and the press it handled, its Bot API calls, its statements and the live duel, and no
id of anyone; /healthz says ok. Never on the webhook's path."""

from __future__ import annotations

import random

import httpx
import pytest

from tests.support.botprocess import LaunchBot
from tests.support.driver import move, new_table, open_duel
from tests.support.fakeapi import FakeTelegramAPI
from tests.support.ops import (
    free_port,
    health,
    metrics_text,
    ops_env,
    sample,
    samples,
    until,
    words,
)


@pytest.mark.usefixtures("on_both_engines")
async def test_metrics_show_a_handled_press_and_health_is_ok(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    port = free_port()
    bot = await launch_bot(env=ops_env(port, SIXSHOOTER_RATE_LIMIT="off"))
    before = samples(await metrics_text(port))
    assert sample(before, "sixshooter_taps_total", outcome="answered") == 0
    table, _ = new_table(fake_api)
    await open_duel(fake_api, table)  # a /duel, and the press that accepts it
    await move(fake_api, table, random.Random(3))  # a second press
    async def scrape() -> str | None:
        # A press is counted when its handling ends, just after its answer; the live games
        # are counted again at most every second.
        text = await metrics_text(port)
        found = samples(text)
        done = (sample(found, "sixshooter_taps_total", outcome="answered") >= 2
                and sample(found, "sixshooter_live_games", game="duel") >= 1)
        return text if done else None

    text = await until(scrape, "two presses and a live duel in the metrics")
    now = samples(text)
    assert sample(now, "sixshooter_taps_total", outcome="answered") == 2
    assert sample(now, "sixshooter_tap_latency_seconds_count") == 2
    assert sample(now, "sixshooter_updates_total", kind="callback_query") == 2
    assert sample(now, "sixshooter_updates_total", kind="message") == 1  # the /duel
    assert sample(now, "sixshooter_bot_api_calls_total",
                  method="answerCallbackQuery", outcome="ok") == 2
    assert sample(now, "sixshooter_bot_api_calls_total", method="getUpdates", outcome="ok") >= 1
    assert sample(now, "sixshooter_bot_api_calls_total", method="sendPhoto", outcome="ok") >= 1
    engine = "postgresql" if "postgresql" in str(bot.db_path) else "sqlite"
    assert sample(now, "sixshooter_db_statement_seconds_count", engine=engine) > 10
    assert sample(now, "sixshooter_live_games", game="duel") == 1
    labels = words(text)
    for person in (table.chat.id, *(p.id for p in table.players)):
        assert not [w for w in labels if str(abs(person)) in w], "an id in the metrics"
    for name in ("Alice", "Bob", "alice", "bob_the_builder", fake_api.token.split(":")[1]):
        assert name not in text
    assert await health(port) == (200, "ok\n")
    assert bot.running
    await bot.stop()


async def test_metrics_are_never_on_the_webhook_s_port(
        fake_api: FakeTelegramAPI, launch_bot: LaunchBot) -> None:
    hook, port = free_port(), free_port()
    bot = await launch_bot(env=ops_env(port, SIXSHOOTER_WEBHOOK_URL="https://bot.example.org/hook",
                                       SIXSHOOTER_WEBHOOK_PORT=str(hook)), wait_polling=False)
    assert (await fake_api.wait_for_request("setWebhook", timeout=30)).ok  # its server listens

    async def public() -> httpx.Response | None:
        async with httpx.AsyncClient(timeout=10) as client:
            try:
                return await client.get(f"http://127.0.0.1:{hook}/metrics")
            except httpx.ConnectError:
                return None

    answer = await until(public, "the webhook's port")
    assert answer.status_code != 200 and "sixshooter_" not in answer.text
    assert "sixshooter_bot_api_calls_total" in await metrics_text(port)
    assert await health(port) == (200, "ok\n")
    await bot.stop()
