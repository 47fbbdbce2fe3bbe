"""The Bot API's HTTP client (bot.telegram.http) against a local server: what it sends, what it
returns, and which failures say the request never left this machine."""

from __future__ import annotations

import asyncio
import json
import traceback
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import cast

import pytest
from aiohttp import web
from telegram import InputFile
from telegram.error import NetworkError, TimedOut
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter

from bot.telegram import http, send
from bot.telegram.http import AiohttpRequest, NotSent
from tests.support.httpserver import closed_port, serving


def ok() -> web.Response:
    return web.json_response({"ok": True, "result": True})


@asynccontextmanager
async def opened(request: AiohttpRequest) -> AsyncIterator[AiohttpRequest]:
    """The request class initialized for the test's requests, shut down after."""
    await request.initialize()
    try:
        yield request
    finally:
        await request.shutdown()


def data(**fields: object) -> RequestData:
    return RequestData([RequestParameter.from_input(k, v) for k, v in fields.items()])


async def test_form_fields_go_as_a_form_and_the_answer_comes_back() -> None:
    got: dict[str, str] = {}

    async def answer(request: web.Request) -> web.Response:
        got.update({k: str(v) for k, v in (await request.post()).items()})
        return web.json_response({"ok": True, "result": {"n": 1}}, status=200)

    async with serving(answer) as server, opened(AiohttpRequest()) as request:
        status, body = await request.do_request(
            f"{server.url}/botT/answerCallbackQuery", "POST",
            data(callback_query_id="42", text="Не ваш ход: 2 & 1 = 100%", show_alert=True))
    assert status == 200 and json.loads(body) == {"ok": True, "result": {"n": 1}}
    assert got == {"callback_query_id": "42", "text": "Не ваш ход: 2 & 1 = 100%",
                   "show_alert": "true"}
    assert server.seen[0].headers["Content-Type"] == "application/x-www-form-urlencoded"
    assert server.seen[0].headers["User-Agent"].startswith("python-telegram-bot")


async def test_a_photo_goes_as_multipart_with_its_bytes_and_name() -> None:
    photo = bytes(range(256)) * 400
    got: dict[str, object] = {}

    async def answer(request: web.Request) -> web.Response:
        form = await request.post()
        got.update(form)
        part = form["photo"]
        assert isinstance(part, web.FileField)
        got["photo"] = (part.filename, part.file.read(), part.content_type)
        got["boundary"] = request.content_type, request.headers["Content-Type"]
        return web.Response(status=400, body=b'{"ok":false}')

    async with serving(answer) as server, opened(AiohttpRequest()) as request:
        status, body = await request.do_request(
            f"{server.url}/botT/sendPhoto", "POST",
            data(chat_id=-100, caption='<b>Ход "Анны"</b>\r\n#3 A♠',
                 photo=InputFile(photo, filename="table.jpg")))
    assert (status, body) == (400, b'{"ok":false}')  # a refusal is the caller's to read
    assert got["chat_id"] == "-100" and got["caption"] == '<b>Ход "Анны"</b>\r\n#3 A♠'
    assert got["photo"] == ("table.jpg", photo, "image/jpeg")
    kind, header = cast(tuple[str, str], got["boundary"])
    assert kind == "multipart/form-data" and "boundary=" in header


async def test_a_refused_connection_never_reached_telegram() -> None:
    async with opened(AiohttpRequest(connect_timeout=2)) as request:
        with pytest.raises(NetworkError) as raised:
            await request.do_request(f"http://127.0.0.1:{closed_port()}/botT/sendMessage",
                                     "POST", data(chat_id=1, text="hi"))
    assert isinstance(raised.value.__cause__, NotSent)
    assert send.surely_not_sent(raised.value)


async def test_a_slow_answer_may_have_arrived() -> None:
    async def slow(request: web.Request) -> web.Response:
        await asyncio.sleep(2)
        return ok()

    async with serving(slow) as server, opened(AiohttpRequest(read_timeout=0.2)) as request:
        with pytest.raises(TimedOut) as raised:
            await request.do_request(f"{server.url}/botT/sendMessage", "POST",
                                     data(chat_id=1, text="hi"))
    assert not send.surely_not_sent(raised.value)  # it was sent: Telegram may have it


async def test_no_free_connection_within_the_pool_timeout_is_not_sent() -> None:
    release = asyncio.Event()

    async def held(request: web.Request) -> web.Response:
        await release.wait()
        return ok()

    one = AiohttpRequest(1, pool_timeout=0.2, read_timeout=10)  # a pool of one connection
    async with serving(held) as server, opened(one) as request:
        first = asyncio.ensure_future(request.do_request(
            f"{server.url}/botT/getMe", "POST"))
        await asyncio.sleep(0.1)
        with pytest.raises(TimedOut) as raised:
            await request.do_request(f"{server.url}/botT/sendMessage", "POST",
                                     data(chat_id=1, text="hi"))
        release.set()
        assert (await first)[0] == 200  # the one in flight was not disturbed
    assert send.surely_not_sent(raised.value)
    assert len(server.seen) == 1  # the second never left


async def test_a_request_before_initialize_is_refused() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest().do_request("http://127.0.0.1:1/botT/getMe", "POST")


async def test_an_error_that_names_the_url_does_not_name_the_token() -> None:
    token = "123456:AAE-secret-token-of-the-bot"
    async with opened(AiohttpRequest()) as request:
        with pytest.raises(NetworkError) as raised:  # aiohttp's InvalidURL says the URL
            await request.do_request(f"http://[bad/bot{token}/getMe", "POST")
    said = str(raised.value)
    logged = "".join(traceback.format_exception(raised.value))  # what log.exception writes
    assert "/bot<token>/getMe" in said and "/bot<token>/getMe" in logged
    assert "secret" not in said and "secret" not in logged


async def test_close_all_shuts_what_a_failed_start_left_open() -> None:
    left = [AiohttpRequest(), AiohttpRequest(2)]
    for request in left:
        await request.initialize()
    await http.close_all()
    with pytest.raises(RuntimeError, match="not initialized"):
        await left[0].do_request("http://127.0.0.1:1/botT/getMe", "POST")
    await http.close_all()  # nothing left: nothing done
