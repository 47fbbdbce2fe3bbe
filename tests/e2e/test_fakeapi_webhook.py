"""The fake Bot API's webhook delivery (tests/support/fakeapi/delivery.py) against small local
servers standing in for the bot's workers: POSTs in turn over the targets, with the secret;
an update dropped only after a 2XY answer, a failed attempt repeated on the next target;
several in flight at once; getUpdates refused meanwhile."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web
from telegram.error import Conflict

from tests.support.botprocess import fake_bot
from tests.support.driver import eventually
from tests.support.fakeapi import SECRET_HEADER, FakeTelegramAPI
from tests.support.fakeapi.model import FakeUser

HOOK = "https://bot.example.org/hook"
SECRET = "s3cret-token_for-the-tests"


@dataclass
class Target:
    """A local server recording what it is posted; answers `status` after `gate` opens."""

    status: int = 200
    delay: float = 0.0
    gate: asyncio.Event = field(default_factory=asyncio.Event)
    received: list[tuple[int, str | None]] = field(default_factory=list)  # (update id, secret)
    waiting: int = 0
    runner: web.AppRunner | None = None
    url: str = ""

    async def handle(self, request: web.Request) -> web.Response:
        body = json.loads(await request.read())
        self.waiting += 1
        try:
            await self.gate.wait()
            if self.delay:
                await asyncio.sleep(self.delay)
        finally:
            self.waiting -= 1
        self.received.append((body["update_id"], request.headers.get(SECRET_HEADER)))
        return web.Response(status=self.status, text="ok")

    @property
    def ids(self) -> list[int]:
        return [uid for uid, _ in self.received]


@pytest.fixture
async def targets() -> AsyncIterator[list[Target]]:
    made: list[Target] = []
    for _ in range(3):
        target = Target()
        target.gate.set()
        app = web.Application()
        app.router.add_post("/hook", target.handle)
        target.runner = web.AppRunner(app, access_log=None)
        await target.runner.setup()
        site = web.TCPSite(target.runner, "127.0.0.1", 0)
        await site.start()
        target.url = f"http://127.0.0.1:{target.runner.addresses[0][1]}/hook"
        made.append(target)
    yield made
    for target in made:
        target.gate.set()
        assert target.runner is not None
        await target.runner.cleanup()


def refused_url() -> str:
    """A local URL where nothing listens (a worker that is down)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}/hook"


def updates(api: FakeTelegramAPI, user: FakeUser, n: int) -> list[int]:
    chat = api.private_chat(user)
    return [api.send_message(user, chat, f"/start {i}").update_id or 0 for i in range(n)]


async def set_hook(api: FakeTelegramAPI, **kwargs: object) -> None:
    async with fake_bot(api) as client:
        assert await client.set_webhook(HOOK, secret_token=SECRET, **kwargs)  # type: ignore[arg-type]


async def all_delivered(api: FakeTelegramAPI) -> None:
    await api.wait_for(lambda: not api.pending_updates, 10.0, "every update delivered")


async def test_round_robin_with_the_secret_and_getupdates_refused(
        fake_api: FakeTelegramAPI, targets: list[Target]) -> None:
    alice = fake_api.add_user("Alice")
    early = updates(fake_api, alice, 2)  # pending before the webhook: delivered then
    fake_api.deliver_to([t.url for t in targets[:2]], connections=1)
    await asyncio.sleep(0.2)
    assert not targets[0].received and len(fake_api.pending_updates) == 2  # no webhook yet
    await set_hook(fake_api)
    sent = early + updates(fake_api, alice, 4)
    await all_delivered(fake_api)
    first, second = targets[0], targets[1]
    assert first.ids == sent[0::2] and second.ids == sent[1::2]  # in turn, in order
    assert {s for t in (first, second) for _, s in t.received} == {SECRET}
    assert not targets[2].received
    assert all(d.ok for d in fake_api.deliveries)
    async with fake_bot(fake_api) as client:
        with pytest.raises(Conflict, match="webhook is active"):
            await client.get_updates()
        info = await client.get_webhook_info()
        assert (info.url, info.pending_update_count, info.last_error_message) == (HOOK, 0, None)


async def test_a_failed_attempt_goes_to_the_next_target_and_nothing_is_lost(
        fake_api: FakeTelegramAPI, targets: list[Target]) -> None:
    broken, slow, good = targets
    broken.status, slow.delay = 502, 1.5
    await set_hook(fake_api)
    urls = [broken.url, refused_url(), slow.url, good.url]
    fake_api.deliver_to(urls, timeout=0.5)
    sent = updates(fake_api, fake_api.add_user("Alice"), 5)
    await all_delivered(fake_api)
    assert sorted(good.ids) == sent  # each one acknowledged once, by the only good target
    by_update = {uid: [d for d in fake_api.deliveries if d.update_id == uid] for uid in sent}
    for uid, attempts in by_update.items():
        assert [d.ok for d in attempts][-1] and sum(d.ok for d in attempts) == 1, uid
        turns = [urls.index(d.target) for d in attempts]
        assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(turns)), turns  # the next
    outcomes = {d.target: d.status for d in fake_api.deliveries if not d.ok}
    assert outcomes[broken.url] == 502 and -1 in outcomes.values()  # refused, timed out
    assert {d.error for d in fake_api.deliveries if d.status == -1} >= {"ClientConnectorError"}


async def test_an_update_stays_pending_until_a_target_answers_2xx(
        fake_api: FakeTelegramAPI, targets: list[Target]) -> None:
    await set_hook(fake_api)
    fake_api.deliver_to([refused_url(), refused_url()])
    sent = updates(fake_api, fake_api.add_user("Alice"), 1)
    await fake_api.wait_for(lambda: len(fake_api.deliveries) >= 4, 10.0, "four attempts")
    assert [u["update_id"] for u in fake_api.pending_updates] == sent
    async with fake_bot(fake_api) as client:
        info = await client.get_webhook_info()
    assert info.pending_update_count == 1 and info.last_error_message == "Connection refused"
    fake_api.deliver_to([targets[0].url])  # a worker came back
    await all_delivered(fake_api)
    assert targets[0].ids == sent


async def test_several_in_flight_at_once_up_to_the_connections(
        fake_api: FakeTelegramAPI, targets: list[Target]) -> None:
    for t in targets:
        t.gate.clear()  # the workers hold every request until released
    await set_hook(fake_api, max_connections=2)  # the webhook's own limit is lower: it counts
    fake_api.deliver_to([t.url for t in targets], connections=3)
    alice = fake_api.add_user("Alice")
    sent = updates(fake_api, alice, 5)  # one chat: two of its updates on two workers at once
    await eventually(lambda: sum(t.waiting for t in targets) == 2, "two in flight", 5.0)
    await asyncio.sleep(0.3)
    assert sum(t.waiting for t in targets) == 2 == fake_api.deliveries_in_flight
    assert [t.waiting for t in targets] == [1, 1, 0]
    await set_hook(fake_api)  # max_connections 40 now: the fake's 3 is the limit
    await eventually(lambda: sum(t.waiting for t in targets) == 3, "three in flight", 5.0)
    for t in targets:
        t.gate.set()
    await all_delivered(fake_api)
    assert sorted(uid for t in targets for uid in t.ids) == sent
    assert all(d.ok for d in fake_api.deliveries)


async def test_delete_webhook_gives_the_updates_back_to_getupdates(
        fake_api: FakeTelegramAPI, targets: list[Target]) -> None:
    await set_hook(fake_api)
    fake_api.deliver_to([targets[0].url])
    alice = fake_api.add_user("Alice")
    first = updates(fake_api, alice, 1)
    await fake_api.wait_for(lambda: targets[0].ids == first, 5.0, "the first update")
    async with fake_bot(fake_api) as client:
        assert await client.delete_webhook()
        later = updates(fake_api, alice, 2)
        got = await client.get_updates(timeout=0)
    await asyncio.sleep(0.2)
    assert [u.update_id for u in got] == later and len(targets[0].ids) == 1
