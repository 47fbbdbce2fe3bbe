"""A local HTTP server for the request classes' tests: each path's answer is a handler of the
test's (aiohttp.web), and what each request carried is kept."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Server:
    url: str  # http://127.0.0.1:PORT
    seen: list[web.Request] = field(default_factory=list)


def closed_port() -> int:
    """A port nothing listens on (bound, then let go)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


@asynccontextmanager
async def serving(handler: Handler) -> AsyncIterator[Server]:
    """Serve every POST and GET with `handler` on a free local port."""
    server = Server("")

    async def keep(request: web.Request) -> web.StreamResponse:
        server.seen.append(request)
        return await handler(request)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", keep)
    runner = web.AppRunner(app)
    await runner.setup()
    with socket.socket() as s:  # a free port, bound by the site at once
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    site = web.TCPSite(runner, "127.0.0.1", port)
    await site.start()
    server.url = f"http://127.0.0.1:{port}"
    try:
        yield server
    finally:
        await runner.cleanup()
