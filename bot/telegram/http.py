"""The bot's HTTP client for the Bot API: python-telegram-bot's request interface over aiohttp.

python-telegram-bot's own client (httpx over httpcore and anyio) spent about 1 ms of CPU on
each request and 1.6 ms on a photo's upload, on this machine against a local server; aiohttp
0.2 and 0.3 ms (issue 21: a tap makes three or four requests, and the HTTP client was the
largest part of the event loop's time under load). Same contract as python-telegram-bot's
`HTTPXRequest`: form fields (each value JSON-encoded by python-telegram-bot) or multipart with
the files, the status and body back, `TimedOut` for a timeout and `NetworkError` for any other
transport failure.

Whether a failed request could have reached Telegram is what `bot.telegram.send` must know
(a send that may have arrived is not sent again): a failure before the request left this
machine (no free connection within the pool timeout, the connection refused or not made in
time) is raised from a `NotSent`; anything later (a read timeout, a connection dropped while
waiting for the answer) is not.

`MeteredRequest` is the bot's request class (bot.app gives it to the builder for sends and
for getUpdates): each call counted (`bot.ops.metrics.bot_api_call`) by its method (the URL's
last segment, never the token's) and its outcome: "ok", "retry_after" for a 429, else the
error class python-telegram-bot raises for the HTTP status (bad_request, forbidden,
invalid_token, conflict, server_error, ...) or for the transport (timed_out, network_error).
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import weakref
from typing import Any
from urllib.parse import quote, urlencode

import aiohttp
from telegram.error import NetworkError, TimedOut
from telegram.request import BaseRequest, RequestData

from bot.ops import metrics

DEFAULT = 5.0  # seconds: python-telegram-bot's own defaults for connect, read and write
POOL = 1.0  # seconds a request waits for a free connection
MEDIA_WRITE = 20.0  # seconds to upload a file


# A Bot API URL's path holds the token (/bot<token>/method): never in an error's words.
_TOKEN_PATH = re.compile(r"/bot[^/\s'\"]+")


_OPEN: weakref.WeakSet[AiohttpRequest] = weakref.WeakSet()  # initialized, not shut down yet


async def close_all() -> None:
    """Shut down every request class still open in this process: a start that failed midway
    (python-telegram-bot shuts down only a bot it finished initializing) leaves its sessions
    open, and aiohttp logs each one left at exit as an error."""
    for request in list(_OPEN):
        await request.shutdown()


class NotSent(Exception):
    """The cause of a failure that happened before the request could reach Telegram."""


def _said(e: BaseException) -> str:
    """An aiohttp error in one short line, without the token (some name the URL)."""
    what = str(e)
    if isinstance(e, aiohttp.ClientConnectorError):  # its own words repeat the address
        errno = e.os_error.errno
        reason = os.strerror(errno) if errno and errno > 0 else (  # (a name not found: < 0)
            e.os_error.strerror or type(e.os_error).__name__)
        what = f"{e.host}:{e.port}: {reason}"
    return _TOKEN_PATH.sub("/bot<token>", f"{type(e).__name__}: {what}")


def _given(value: Any, default: float | None) -> float | None:
    """A timeout passed to `do_request`: python-telegram-bot's DEFAULT_NONE means ours."""
    return default if isinstance(value, type(BaseRequest.DEFAULT_NONE)) else value


class AiohttpRequest(BaseRequest):
    """Requests over one aiohttp session of `connection_pool_size` connections."""

    def __init__(self, connection_pool_size: int = 1, *, read_timeout: float | None = DEFAULT,
                 write_timeout: float | None = DEFAULT, connect_timeout: float | None = DEFAULT,
                 pool_timeout: float | None = POOL,
                 media_write_timeout: float | None = MEDIA_WRITE) -> None:
        if connection_pool_size < 1:
            raise ValueError("connection_pool_size must be at least 1")
        self.pool_size = connection_pool_size
        self._read, self._write, self._connect = read_timeout, write_timeout, connect_timeout
        self._pool, self._media_write = pool_timeout, media_write_timeout
        self._session: aiohttp.ClientSession | None = None
        self._free: asyncio.Semaphore | None = None

    @property
    def read_timeout(self) -> float | None:
        return self._read

    async def initialize(self) -> None:
        if self._session is None or self._session.closed:
            connector = aiohttp.TCPConnector(limit=self.pool_size, enable_cleanup_closed=True)
            self._session = aiohttp.ClientSession(
                connector=connector, headers={"User-Agent": self.USER_AGENT})
            self._free = asyncio.Semaphore(self.pool_size)
            _OPEN.add(self)

    async def shutdown(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None
        _OPEN.discard(self)

    async def do_request(
        self, url: str, method: str, request_data: RequestData | None = None,
        read_timeout: Any = BaseRequest.DEFAULT_NONE,
        write_timeout: Any = BaseRequest.DEFAULT_NONE,
        connect_timeout: Any = BaseRequest.DEFAULT_NONE,
        pool_timeout: Any = BaseRequest.DEFAULT_NONE,
    ) -> tuple[int, bytes]:
        session, free = self._session, self._free
        if session is None or session.closed or free is None:
            raise RuntimeError("this AiohttpRequest is not initialized")
        files = request_data.multipart_data if request_data else None
        fields = request_data.json_parameters if request_data else None
        read = _given(read_timeout, self._read)
        write = _given(write_timeout, self._write if not files else self._media_write)
        connect = _given(connect_timeout, self._connect)
        pool = _given(pool_timeout, self._pool)
        # aiohttp has no timeout for the upload alone: the whole exchange gets the connect,
        # write and read timeouts together, and the answer its read timeout between chunks.
        total = None if None in (read, write, connect) else (connect or 0) + (write or 0) + (
            read or 0)
        timeout = aiohttp.ClientTimeout(total=total, sock_connect=connect, sock_read=read)
        try:
            if free.locked():  # taken: wait, at most so long (free: no timer armed)
                async with asyncio.timeout(pool):
                    await free.acquire()
            else:
                await free.acquire()
        except TimeoutError:
            raise TimedOut("Pool timeout: every connection to the Bot API is busy; the request "
                           "was not sent") from NotSent("pool timeout")
        try:
            async with session.request(method, url, data=_body(fields, files),
                                       timeout=timeout) as response:
                return response.status, await response.read()
        except aiohttp.ConnectionTimeoutError as e:
            raise TimedOut(_said(e)) from NotSent(_said(e))
        except aiohttp.ClientConnectorError as e:  # refused, no route, no name: never sent
            raise NetworkError(_said(e)) from NotSent(_said(e))
        except (TimeoutError, aiohttp.ServerTimeoutError) as e:  # sent: it may have arrived
            raise TimedOut(_said(e)) from None  # (the error itself may name the URL)
        except aiohttp.ClientError as e:
            raise NetworkError(_said(e)) from None
        finally:
            free.release()


# HTTP status -> the error class python-telegram-bot turns it into (snake_case).
_STATUS = {400: "bad_request", 401: "invalid_token", 403: "forbidden", 404: "invalid_token",
           409: "conflict", 429: "retry_after", 502: "network_error"}


def outcome_of(status: int) -> str:
    if 200 <= status < 300:
        return "ok"
    if status in _STATUS:
        return _STATUS[status]
    return "server_error" if status >= 500 else "error"


class MeteredRequest(AiohttpRequest):
    """The one place that sees every Bot API call, counted for /metrics."""

    async def do_request(self, url: str, method: str, *args: Any,
                         **kwargs: Any) -> tuple[int, bytes]:
        """The request (python-telegram-bot's arguments, passed on), counted."""
        name = metrics.method_of(url)
        try:
            status, payload = await super().do_request(url, method, *args, **kwargs)
        except TimedOut:
            metrics.bot_api_call(name, "timed_out")
            raise
        except Exception:
            metrics.bot_api_call(name, "network_error")
            raise
        metrics.bot_api_call(name, outcome_of(status))
        return status, payload


# Bodies are built here as bytes, not by aiohttp's FormData or MultipartWriter: FormData takes
# a uuid4 per request (a getrandom system call, even for a form it then sends urlencoded), and
# the multipart writer makes a payload object and a header set per field and writes each on
# its own (a photo's upload was about 5 % of the bot's time under load). A boundary need only
# be absent from the body, not unguessable: 128 random bits from a generator seeded once.
_BOUNDARIES = random.Random()
FORM = "application/x-www-form-urlencoded"


def _body(fields: dict[str, Any] | None,
          files: dict[str, Any] | None) -> aiohttp.Payload | None:
    """Form fields (urlencoded), or multipart/form-data with the files (each
    python-telegram-bot's field tuple: filename, content, MIME type), as FormData sends
    them."""
    if not files:
        return aiohttp.BytesPayload(urlencode(fields).encode(), content_type=FORM) if fields \
            else None
    dash = f"--{_BOUNDARIES.getrandbits(128):032x}".encode()
    chunks: list[bytes] = []
    for name, value in (fields or {}).items():
        chunks += [dash, b'\r\nContent-Disposition: form-data; name="', _quoted(name),
                   b'"\r\n\r\n', str(value).encode(), b"\r\n"]
    for name, (filename, content, mimetype) in files.items():
        chunks += [dash, b'\r\nContent-Disposition: form-data; name="', _quoted(name),
                   b'"; filename="', _quoted(filename), b'"\r\nContent-Type: ',
                   mimetype.encode("ascii"), b"\r\n\r\n",
                   content if isinstance(content, bytes) else content.read(), b"\r\n"]
    chunks += [dash, b"--\r\n"]
    return aiohttp.BytesPayload(b"".join(chunks), content_type=(
        f"multipart/form-data; boundary={dash[2:].decode()}"))


def _quoted(value: str) -> bytes:
    """A field's name or a file's name inside the quotes of its part's header: anything but
    letters, digits and `_.-~` percent-encoded (as aiohttp quotes a filename)."""
    return quote(value, safe="").encode("ascii")
