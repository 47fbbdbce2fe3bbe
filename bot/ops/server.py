"""The operators' HTTP server: `GET /metrics` (Prometheus) and `GET /healthz`, on their own
port (SIXSHOOTER_METRICS_PORT, off by default; SIXSHOOTER_METRICS_LISTEN, 127.0.0.1), never on
the public webhook's.

It is tornado (python-telegram-bot's webhooks extra brings it) in the bot's own event loop:
`await start(config, storage)` in the application's start-up, `await server.stop()` at its
shutdown. A scrape first refreshes the live-games gauge from the database (at most every
`LIVE_EVERY` seconds, and never waiting on it longer than the health check would).
"""

from __future__ import annotations

import asyncio
import logging
import socket
import time

from tornado.httpserver import HTTPServer
from tornado.web import Application, RequestHandler

from bot.config import Config
from bot.ops import metrics
from bot.ops.health import PING_TIMEOUT, HealthHandler, StorageGetter
from bot.storage import Storage, StorageError

log = logging.getLogger(__name__)

LIVE_EVERY = 1.0  # seconds a scrape may show the live games counted by an earlier one

_live_at: list[float] = [-LIVE_EVERY]


async def refresh_live(storage: Storage | None) -> None:
    """Count the live games again, unless that was done less than LIVE_EVERY s ago; a database
    that does not answer leaves the last counts (its failure is counted among db errors)."""
    now = time.monotonic()
    if storage is None or now - _live_at[0] < LIVE_EVERY:
        return
    _live_at[0] = now
    try:
        async with asyncio.timeout(PING_TIMEOUT):
            live = await storage.live_games()
    except (TimeoutError, StorageError) as e:
        log.debug("metrics: the live games were not counted: %s", type(e).__name__)
        return
    metrics.set_live(live)


class MetricsHandler(RequestHandler):
    def initialize(self, storage: StorageGetter) -> None:
        self._storage = storage

    async def get(self) -> None:
        await refresh_live(self._storage())
        self.set_header("Content-Type", metrics.CONTENT_TYPE)
        self.set_header("Cache-Control", "no-store")
        self.write(metrics.text())


def _log_request(handler: RequestHandler) -> None:
    """Scrapes and health checks come every few seconds: logged at DEBUG, failures at INFO."""
    status = handler.get_status()
    log.log(logging.DEBUG if status < 400 else logging.INFO, "%s %d %s", "ops",
            status, handler.request.method)


class OpsServer:
    """The running server; `stop()` closes its port and its connections."""

    def __init__(self, server: HTTPServer, address: str, port: int) -> None:
        self._server = server
        self.address, self.port = address, port

    async def stop(self) -> None:
        self._server.stop()
        await self._server.close_all_connections()


def application(storage: StorageGetter) -> Application:
    routes = {"storage": storage}
    return Application([(r"/metrics", MetricsHandler, routes),
                        (r"/healthz", HealthHandler, routes)], log_function=_log_request)


async def start(config: Config, storage: StorageGetter) -> OpsServer | None:
    """Serve /metrics and /healthz if SIXSHOOTER_METRICS_PORT is set (else None). A port that
    cannot be bound is one error line, and the bot runs on without them."""
    if config.metrics_port is None:
        return None
    address, port = config.metrics_listen, config.metrics_port
    try:
        listening = _bind(address, port)
    except OSError as e:
        log.error("cannot serve /metrics on %s port %d: %s; the bot runs without them "
                  "(free the port or change SIXSHOOTER_METRICS_PORT)", address, port,
                  e.strerror or e)
        return None
    server = HTTPServer(application(storage))
    server.add_sockets([listening])
    log.info("metrics on %s port %d: /metrics, /healthz", address, port)
    return OpsServer(server, address, port)


def _bind(address: str, port: int) -> socket.socket:
    """A listening socket (closed again if it cannot bind: tornado's own would leak)."""
    sock = socket.socket(socket.AF_INET6 if ":" in address else socket.AF_INET)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((address, port))
        sock.listen(128)
        sock.setblocking(False)
    except BaseException:
        sock.close()
        raise
    return sock
