"""Running the application: started, fed by our own intake (long polling or a webhook), stopped
cleanly on SIGINT or SIGTERM.

python-telegram-bot's `run_polling` / `run_webhook` are not used: their updater acknowledges
updates before they are saved (`bot.telegram.intake`). The order here follows theirs:
post_init, start, take updates until a stop signal, then stop taking, stop, post_stop,
shutdown, post_shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.storage import Storage
from bot.telegram import App, polling, webhook_server
from bot.telegram.intake import Intake

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@dataclass(frozen=True)
class Webhook:
    url: str
    path: str  # the URL's path as a regular expression
    listen: str
    port: int
    secret: str
    routes: Sequence[webhook_server.Route] = ()


async def run(app: App, storage_of: Callable[[App], Storage], *,
              allowed: Sequence[str], webhook: Webhook | None = None) -> None:
    """Run until a stop signal. `storage_of(app)` gives the storage post_init opened."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in STOP_SIGNALS:
        loop.add_signal_handler(sig, stop.set)
    try:
        if app.post_init is not None:
            await app.post_init(app)
        await app.start()
        try:
            await _take_updates(app, storage_of(app), allowed, webhook, stop)
        finally:
            await app.stop()
            if app.post_stop is not None:
                await app.post_stop(app)
    finally:
        for sig in STOP_SIGNALS:
            loop.remove_signal_handler(sig)
        await app.shutdown()
        if app.post_shutdown is not None:
            await app.post_shutdown(app)


async def _take_updates(app: App, storage: Storage, allowed: Sequence[str],
                        webhook: Webhook | None, stop: asyncio.Event) -> None:
    intake = Intake(app, storage)
    await intake.start()
    try:
        if webhook is None:
            await polling.lead(app, intake, storage, allowed, stop)
            return
        server = webhook_server.server(intake, path=webhook.path, secret=webhook.secret,
                             extra=webhook.routes)
        server.listen(webhook.port, webhook.listen)
        try:
            # Every worker says the same (idempotent), keeping what Telegram holds for us.
            await app.bot.set_webhook(webhook.url, secret_token=webhook.secret,
                                      allowed_updates=list(allowed),
                                      drop_pending_updates=False)
            log.info("serving the webhook on %s port %d", webhook.listen, webhook.port)
            await stop.wait()
        finally:
            server.stop()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(server.close_all_connections(), 5.0)
    finally:
        await intake.stop()
