"""The webhook's server: only Telegram's secret gets in, only an update is taken, and it is
handed to the intake as Telegram sent it."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Mapping, Sequence
from typing import Any, cast

import aiohttp
import pytest

from bot.telegram import webhook_server
from bot.telegram.intake import Intake

SECRET = "s3cret-token_value"


class FakeIntake:
    def __init__(self) -> None:
        self.received: list[Mapping[str, Any]] = []

    async def receive(self, updates: Sequence[Mapping[str, Any]]) -> None:
        self.received.extend(updates)


@pytest.fixture
async def served() -> AsyncIterator[tuple[str, FakeIntake]]:
    intake = FakeIntake()
    server = webhook_server.server(cast(Intake, intake), path="/hook", secret=SECRET)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server.listen(port, "127.0.0.1")
    try:
        yield f"http://127.0.0.1:{port}/hook", intake
    finally:
        server.stop()
        await server.close_all_connections()


async def post(url: str, body: bytes, secret: str = SECRET) -> int:
    async with aiohttp.ClientSession() as session, session.post(
            url, data=body, headers={webhook_server.SECRET_HEADER: secret}) as response:
        return response.status


async def test_an_update_is_handed_on_as_telegram_sent_it(
        served: tuple[str, FakeIntake]) -> None:
    url, intake = served
    body = b'{"update_id": 41, "message": {"x": 1}, "a_newer_field": [1]}'
    assert await post(url, body) == 200
    assert intake.received == [{"update_id": 41, "message": {"x": 1}, "a_newer_field": [1]}]


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b'{"message": {}}',
                                  b'{"update_id": "41"}', b'{"update_id": true}'])
async def test_a_body_that_is_no_update_is_refused_and_changes_nothing(
        served: tuple[str, FakeIntake], body: bytes) -> None:
    url, intake = served
    assert await post(url, body) == 400
    assert intake.received == []


async def test_without_the_secret_nothing_gets_in(served: tuple[str, FakeIntake]) -> None:
    url, intake = served
    assert await post(url, b'{"update_id": 41}', secret="guess") == 403
    assert intake.received == []
