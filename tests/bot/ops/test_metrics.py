"""The metrics after a few recorded events: names, labels, values, and nothing that names a
chat, a user or the token."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from aiohttp import web
from telegram import Update
from telegram.error import NetworkError, TimedOut

from bot.ops import metrics
from bot.storage import Rollback, open_database
from bot.storage.db import numbered
from bot.telegram.drawing import Drawer
from bot.telegram.http import MeteredRequest, outcome_of
from tests.support.httpserver import closed_port, serving
from tests.support.ops import words

TOKEN = "123456789:AAEexampleexampleexampleexample-xy"
CHAT, USER = -1001234567891, 987654321


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


def update(**fields: Any) -> Update:
    chat = {"id": CHAT, "type": "supergroup", "title": "Table"}
    user = {"id": USER, "is_bot": False, "first_name": "Ann", "username": "ann"}
    message = {"message_id": 5, "date": 1_700_000_000, "chat": chat, "from": user,
               "text": "/duel"}
    parts: dict[str, Any] = {"update_id": 1}
    if fields.get("press"):
        parts["callback_query"] = {"id": "77", "from": user, "chat_instance": "ci",
                                   "data": "d:1:0:a", "message": message}
    elif fields.get("edited"):
        parts["edited_message"] = message
    else:
        parts["message"] = message
    return Update.de_json(parts, None)


def test_updates_are_counted_by_kind_and_a_press_is_timed_to_its_answer() -> None:
    before = {k: value("sixshooter_updates_total", kind=k)
              for k in ("message", "callback_query", "other")}
    answered = value("sixshooter_taps_total", outcome="answered")
    unanswered = value("sixshooter_taps_total", outcome="unanswered")
    timed = value("sixshooter_tap_latency_seconds_count")
    with metrics.handling(update()):
        metrics.bot_api_call("sendMessage", "ok")
    with metrics.handling(update(edited=True)):
        pass
    with metrics.handling(update(press=True)):
        metrics.bot_api_call("answerCallbackQuery", "ok")
        metrics.bot_api_call("answerCallbackQuery", "ok")  # a second answer is not a tap
    with metrics.handling(update(press=True)):
        metrics.bot_api_call("answerCallbackQuery", "bad_request")  # too late: unanswered
    metrics.bot_api_call("answerCallbackQuery", "ok")  # outside any press: nothing timed
    assert value("sixshooter_updates_total", kind="message") == before["message"] + 1
    assert value("sixshooter_updates_total", kind="other") == before["other"] + 1
    assert value("sixshooter_updates_total", kind="callback_query") == (
        before["callback_query"] + 2)
    assert value("sixshooter_taps_total", outcome="answered") == answered + 1
    assert value("sixshooter_taps_total", outcome="unanswered") == unanswered + 1
    assert value("sixshooter_tap_latency_seconds_count") == timed + 1


async def test_the_watchdog_s_answer_in_its_own_task_ends_the_press_s_timer() -> None:
    timed = value("sixshooter_tap_latency_seconds_count")

    async def acknowledge() -> None:  # as bot.telegram.press_ack does, in a task of its own
        metrics.bot_api_call("answerCallbackQuery", "ok")

    with metrics.handling(update(press=True)):
        await asyncio.ensure_future(acknowledge())
    assert value("sixshooter_tap_latency_seconds_count") == timed + 1


def test_the_text_holds_names_and_labels_but_no_id_name_or_token() -> None:
    with metrics.handling(update(press=True)):
        metrics.bot_api_call(metrics.method_of(f"http://x/bot{TOKEN}/answerCallbackQuery"), "ok")
    metrics.bot_api_call(metrics.method_of(f"https://api.telegram.org/bot{TOKEN}/sendPhoto"),
                         "retry_after")
    metrics.set_live({"duel": 3, "sixcard": 1})
    metrics.set_jobs(4, 2)
    metrics.set_poller(True)
    text = metrics.text().decode()
    for line in ('sixshooter_bot_api_calls_total{method="answerCallbackQuery",outcome="ok"}',
                 'sixshooter_bot_api_calls_total{method="sendPhoto",outcome="retry_after"}',
                 'sixshooter_live_games{game="duel"} 3.0',
                 'sixshooter_live_games{game="sixcard"} 1.0',
                 "sixshooter_jobs_due 4.0", "sixshooter_jobs_overdue 2.0", "sixshooter_poller 1.0",
                 "sixshooter_bot_api_429_total", "sixshooter_tap_latency_seconds_bucket",
                 "process_cpu_seconds_total"):
        assert line in text, line
    assert TOKEN.split(":")[1] not in text
    labels = words(text)  # the values are numbers: their digits may hold anything
    for secret in (TOKEN.split(":")[0], str(abs(CHAT)), str(USER), "ann", "Ann", "Table"):
        assert not [w for w in labels if secret in w], secret
    metrics.set_poller(False)
    assert "sixshooter_poller 0.0" in metrics.text().decode()


@pytest.mark.parametrize(("url", "method"), [
    (f"https://api.telegram.org/bot{TOKEN}/sendMessage", "sendMessage"),
    (f"http://127.0.0.1:8081/bot{TOKEN}/getUpdates/", "getUpdates"),
    (f"https://api.telegram.org/file/bot{TOKEN}/photos/file_1.jpg", "other"),
    (f"https://api.telegram.org/bot{TOKEN}", "other"),  # the token's own segment: never
])
def test_a_method_is_the_url_s_last_segment_and_never_the_token(url: str, method: str) -> None:
    assert metrics.method_of(url) == method


async def test_a_wait_for_a_turn_counts_only_when_it_was_one() -> None:
    waits = value("sixshooter_flood_waits_total")
    seconds = value("sixshooter_flood_wait_seconds_total")

    async def turn(after: float) -> str:
        if after:
            await asyncio.sleep(after)
        return "go"

    assert await metrics.flood_wait(turn(0)) == "go"
    assert value("sixshooter_flood_waits_total") == waits
    assert await metrics.flood_wait(turn(0.1)) == "go"
    assert value("sixshooter_flood_waits_total") == waits + 1
    assert value("sixshooter_flood_wait_seconds_total") >= seconds + 0.1


@pytest.mark.parametrize(("status", "outcome"), [
    (200, "ok"), (400, "bad_request"), (403, "forbidden"), (401, "invalid_token"),
    (409, "conflict"), (429, "retry_after"), (500, "server_error"), (418, "error"),
])
def test_each_status_is_the_class_python_telegram_bot_raises(status: int, outcome: str) -> None:
    assert outcome_of(status) == outcome


async def test_every_call_through_the_request_class_is_counted() -> None:
    async def answer(request: web.Request) -> web.Response:
        name = request.path.rsplit("/", 1)[-1]
        if name == "sendMessage":
            return web.json_response({"ok": False, "error_code": 429,
                                      "parameters": {"retry_after": 3}}, status=429)
        if name == "getUpdates":
            await asyncio.sleep(2)  # longer than the read timeout
        return web.json_response({"ok": True, "result": {}})

    async with serving(answer) as server:
        request = MeteredRequest(read_timeout=0.3)
        await request.initialize()
        await _count_each(request, f"{server.url}/bot{TOKEN}",
                          f"http://127.0.0.1:{closed_port()}/bot{TOKEN}")


async def _count_each(request: MeteredRequest, base: str, nowhere: str) -> None:
    counts = {(m, o): value("sixshooter_bot_api_calls_total", method=m, outcome=o)
              for m, o in (("getMe", "ok"), ("sendMessage", "retry_after"),
                           ("getUpdates", "timed_out"), ("deleteMessage", "network_error"))}
    flood = value("sixshooter_bot_api_429_total")
    try:
        assert (await request.do_request(f"{base}/getMe", "POST"))[0] == 200
        assert (await request.do_request(f"{base}/sendMessage", "POST"))[0] == 429
        with pytest.raises(TimedOut):
            await request.do_request(f"{base}/getUpdates", "POST")
        with pytest.raises(NetworkError):
            await request.do_request(f"{nowhere}/deleteMessage", "POST")
    finally:
        await request.shutdown()
    for (m, o), before in counts.items():
        assert value("sixshooter_bot_api_calls_total", method=m, outcome=o) == before + 1, (m, o)
    assert value("sixshooter_bot_api_429_total") == flood + 1


async def test_each_job_of_the_drawing_thread_is_counted() -> None:
    draws = value("sixshooter_draws_total")
    drawer = Drawer()
    try:
        assert await drawer.draw(lambda: b"one") == b"one"
        assert await drawer.draw(lambda: b"two") == b"two"
    finally:
        drawer.shutdown()
    assert value("sixshooter_draws_total") == draws + 2


async def test_a_committed_transaction_counts_once_and_a_rolled_back_one_not(
        database: str, watched: None) -> None:
    db = await open_database(database, migrations=numbered(("CREATE TABLE t (x INTEGER);",)))
    committed = value("sixshooter_db_transactions_total", engine=db.engine)
    try:
        async with db.transaction():
            await db.execute("INSERT INTO t VALUES (1)")
            async with db.transaction():  # a savepoint of the outer one: not a transaction
                await db.execute("INSERT INTO t VALUES (2)")
            with pytest.raises(Rollback):
                async with db.transaction():  # undone alone; the outer one commits
                    await db.execute("INSERT INTO t VALUES (3)")
                    raise Rollback
        with pytest.raises(Rollback):
            async with db.transaction():  # undone: nothing committed
                await db.execute("INSERT INTO t VALUES (4)")
                raise Rollback
        async with db.transaction():
            pass
        assert sorted(r[0] for r in await db.fetchall("SELECT x FROM t")) == [1, 2]
    finally:
        await db.close()
    assert value("sixshooter_db_transactions_total", engine=db.engine) == committed + 2
    text = metrics.text().decode()
    assert f'sixshooter_db_transactions_total{{engine="{db.engine}"}}' in text
