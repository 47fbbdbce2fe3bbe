"""`GET /healthz`: 200 "ok" while the database answers, 503 and one line why otherwise.

`HealthHandler` is a tornado RequestHandler, mounted on the ops port (bot.ops.server) and on the
webhook's port for the load balancer; it takes a getter of the bot's Storage (None while the
bot is still starting):

    (r"/healthz", HealthHandler, {"storage": lambda: services.storage})

The reason it gives is the same few words whatever failed, never an address, a user name or a
password; the details go to the log (redacted, as every line), once per change of state.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from tornado.web import RequestHandler

from bot.storage import Storage, StorageError

log = logging.getLogger(__name__)

PING_TIMEOUT = 2.0  # seconds the database has to answer a trivial query
StorageGetter = Callable[[], Storage | None]

_last_failure: list[str | None] = [None]  # the last reason logged (None: healthy)


async def check(storage: Storage | None, timeout: float = PING_TIMEOUT) -> str | None:
    """None if the database answers within `timeout`, else why not (one line, no secrets)."""
    if storage is None:
        return "starting: the database is not open yet"
    try:
        async with asyncio.timeout(timeout):
            await storage.ping()
    except TimeoutError:
        reason, detail = f"the database did not answer within {timeout:g} s", ""
    except StorageError as e:
        reason, detail = "the database cannot be reached", str(e)
    else:
        if _last_failure[0] is not None:
            log.info("health: the database answers again")
            _last_failure[0] = None
        return None
    if _last_failure[0] != reason:
        log.warning("health: %s%s", reason, f" ({detail})" if detail else "")
        _last_failure[0] = reason
    return reason


class HealthHandler(RequestHandler):
    def initialize(self, storage: StorageGetter) -> None:
        self._storage = storage

    async def get(self) -> None:
        await self._answer(body=True)

    async def head(self) -> None:
        await self._answer(body=False)

    async def _answer(self, *, body: bool) -> None:
        reason = await check(self._storage())
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        self.set_status(200 if reason is None else 503)
        if body:
            self.write("ok\n" if reason is None else f"{reason}\n")
