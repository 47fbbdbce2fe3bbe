"""Webhook delivery, as Telegram does it, through a round-robin load balancer.

Once the bot has called setWebhook, the updates the tests create are not handed out by
getUpdates (it answers 409 Conflict meanwhile, as Telegram does) but POSTed, one JSON-serialized
Update per request, with the ``X-Telegram-Bot-Api-Secret-Token`` header when a secret was set.
Telegram posts to the one public https URL; a load balancer in front of the workers spreads the
requests. The fake plays both: ``api.deliver_to([...])`` names the workers' local URLs
(``http://127.0.0.1:PORT/PATH``), taken in turn for every attempt.

As setWebhook's description says, an update stays pending until a request for it is answered
with a 2XY status; any other outcome (a refused connection, a reset, a timeout, another status)
is a failed attempt, repeated on the next target. Several deliveries are in flight at once, in
update order (``connections``, at most the webhook's ``max_connections``, "1-100, defaults to
40"), so two updates of one chat can be on two workers at the same moment. Every attempt is
kept in ``api.deliveries``; the latest failure also shows in getWebhookInfo.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import aiohttp

from .model import JSON

if TYPE_CHECKING:
    from .methods import FakeBotMethods

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
DEFAULT_CONNECTIONS = 4  # Telegram's default is 40; a handful shows the concurrency here
DEFAULT_TIMEOUT = 10.0  # seconds an attempt may take before it counts as failed
RETRY_PAUSE = 0.2  # after an update failed on every target in a row


@dataclass
class Delivery:
    """One POST of one update to one target."""

    update_id: int
    target: str
    started: float  # time.time()
    ended: float = 0.0
    status: int = 0  # the HTTP status; 0 while in flight; -1 no answer (refused, reset, timeout)
    error: str | None = None

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def summary(self) -> str:
        outcome = "(in flight)" if self.ended == 0 else (
            str(self.status) if self.status > 0 else f"failed: {self.error}")
        return f"update {self.update_id} -> {self.target}: {outcome}"


class Deliverer:
    """The pump that posts pending updates to the targets while a webhook is set."""

    def __init__(self, state: FakeBotMethods, errors: list[str]) -> None:
        self.state = state
        self.errors = errors  # the fake's own bugs, which fail the test
        self.targets: list[str] = []
        self.connections = DEFAULT_CONNECTIONS
        self.timeout = DEFAULT_TIMEOUT
        self.deliveries: list[Delivery] = []
        self._turn = 0
        self._in_flight: dict[int, asyncio.Task[None]] = {}
        self._failed_in_a_row: dict[int, int] = {}
        self._retry_turn: dict[int, int] = {}  # update id -> the target its repeat goes to
        self._not_before: dict[int, float] = {}  # update id -> loop time of its next attempt
        self._pump: asyncio.Task[None] | None = None
        self._session: aiohttp.ClientSession | None = None

    def deliver_to(self, targets: Sequence[str], *, connections: int = DEFAULT_CONNECTIONS,
                   timeout: float = DEFAULT_TIMEOUT) -> None:
        """Post to these URLs in turn from now on (an empty list: hold the updates)."""
        if connections < 1:
            raise ValueError("connections must be at least 1")
        self.targets, self.connections, self.timeout = list(targets), connections, timeout
        if self._pump is None or self._pump.done():
            self._pump = asyncio.get_running_loop().create_task(self._run())
        self.state._notify()

    @property
    def in_flight(self) -> int:
        return len(self._in_flight)

    async def stop(self) -> None:
        tasks = [t for t in (self._pump, *self._in_flight.values()) if t is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._pump = None
        self._in_flight.clear()
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _limit(self) -> int:
        hook = self.state.webhook
        allowed = int(hook.get("max_connections", 40)) if hook else 0
        return min(self.connections, allowed)

    def _due(self) -> list[JSON]:
        """Pending updates of wanted kinds, not in flight and not pausing, in order."""
        state, now = self.state, asyncio.get_running_loop().time()
        state._updates = [u for u in state._updates
                          if state._update_kind(u) in state._allowed_updates]
        return [u for u in state._updates if u["update_id"] not in self._in_flight
                and self._not_before.get(u["update_id"], 0.0) <= now]

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.state._closing:
            if self.state.webhook is not None and self.targets:
                for update in self._due()[: max(0, self._limit() - len(self._in_flight))]:
                    uid = update["update_id"]
                    task = loop.create_task(self._deliver(update))
                    self._in_flight[uid] = task
                    task.add_done_callback(self._check)
            pauses = [p for t in self._not_before.values() if (p := t - loop.time()) > 0]
            await self.state._wait_change(max(0.01, min(pauses, default=1.0)))

    async def _deliver(self, update: JSON) -> None:
        uid = update["update_id"]
        turn = self._retry_turn.pop(uid, None)  # a repeat goes to the next target
        if turn is None:
            turn, self._turn = self._turn, self._turn + 1  # a first attempt takes its turn
        target = self.targets[turn % len(self.targets)]
        record = Delivery(uid, target, time.time())
        self.deliveries.append(record)
        self.state._delivered_upto = max(self.state._delivered_upto, uid)
        hook = self.state.webhook or {}
        headers = {SECRET_HEADER: hook["secret_token"]} if hook.get("secret_token") else {}
        try:
            if self._session is None:
                self._session = aiohttp.ClientSession()
            async with self._session.post(
                    target, json=update, headers=headers,
                    timeout=aiohttp.ClientTimeout(total=self.timeout)) as response:
                await response.read()
                record.status = response.status
        except asyncio.CancelledError:
            self._in_flight.pop(uid, None)
            raise
        except Exception as exc:  # any other outcome is a failed attempt, repeated
            record.status, record.error = -1, type(exc).__name__
        record.ended = time.time()
        self._in_flight.pop(uid, None)
        if record.ok:
            self.state._updates = [u for u in self.state._updates if u["update_id"] != uid]
            self._failed_in_a_row.pop(uid, None)
            self._not_before.pop(uid, None)
        else:
            self.state.last_webhook_error = (int(record.ended), _error_message(record))
            self._retry_turn[uid] = turn + 1
            failed = self._failed_in_a_row[uid] = self._failed_in_a_row.get(uid, 0) + 1
            if failed % max(1, len(self.targets)) == 0:  # every target failed it: pause
                self._not_before[uid] = asyncio.get_running_loop().time() + RETRY_PAUSE
            else:
                self._not_before.pop(uid, None)
        self.state._notify()


    def _check(self, task: asyncio.Task[None]) -> None:
        """A delivery that raised is a bug of the fake: kept for the test to fail on."""
        if not task.cancelled() and task.exception() is not None:
            self.errors.append(f"webhook delivery: {task.exception()!r}")


def _error_message(record: Delivery) -> str:
    """getWebhookInfo's last_error_message, worded like Telegram's."""
    if record.status > 0:
        return f"Wrong response from the webhook: {record.status}"
    if "Timeout" in (record.error or ""):
        return "Read timeout expired"
    return "Connection refused"
