"""The HTTP side: an aiohttp server speaking the Bot API on 127.0.0.1 (a free port)."""

from __future__ import annotations

import asyncio
import json
import re
import time
import traceback
from collections.abc import Iterator, Sequence
from email import policy
from email.parser import BytesParser
from typing import Any

from aiohttp import hdrs, web

from .core import current_request
from .delivery import DEFAULT_CONNECTIONS, DEFAULT_TIMEOUT, Deliverer, Delivery
from .methods import FakeBotMethods, Handler
from .model import BOT_TOKEN, JSON, ApiError, FakeChat, RecordedRequest
from .spec import Upload, decode_params, known_methods, limits

_TOKEN_SHAPE = re.compile(r"^\d+:[\w-]{30,}$")
MAX_REQUEST_BYTES = 60 * 1024 * 1024  # Telegram takes uploads up to 50 MB; photos stop at 10


class FakeTelegramAPI(FakeBotMethods):
    """A fake Telegram Bot API server for end-to-end tests.

    ``await api.start()`` binds 127.0.0.1 on a free port; point python-telegram-bot at
    ``api.base_url`` (``http://127.0.0.1:PORT/bot``) with token ``api.token``. Drive it with the
    control methods (``add_user``, ``create_group``, ``send_command``, ``press_button``,
    ``kick_bot``, ``inject_rate_limit``...) and observe with the query methods (``messages``,
    ``message``, ``calls``, ``wait_for...``). Also usable as ``async with FakeTelegramAPI()``.
    """

    def __init__(
        self,
        *,
        token: str = BOT_TOKEN,
        host: str = "127.0.0.1",
        port: int = 0,
        strict_ampersand: bool = True,
        callback_answer_timeout: float = 15.0,
        privacy_mode: bool = True,
    ) -> None:
        super().__init__(
            strict_ampersand=strict_ampersand,
            callback_answer_timeout=callback_answer_timeout,
            privacy_mode=privacy_mode,
        )
        self.token = token
        self.host = host
        self.port = port
        self._runner: web.AppRunner | None = None
        self._methods = known_methods()
        self._handlers: dict[str, Handler] = self.handlers()
        # every implemented method needs its field types to decode form-encoded parameters
        missing = [m for m in self._handlers if m not in limits()["methods"]]
        assert not missing, f"re-run extract_limits.py with these methods: {missing}"
        self._seq = 0
        self.internal_errors: list[str] = []  # tracebacks of bugs in the fake (HTTP 500)
        self._delivery = Deliverer(self, self.internal_errors)

    @property
    def base_url(self) -> str:
        """What python-telegram-bot takes as ``base_url`` (the token is appended to it)."""
        return f"http://{self.host}:{self.port}/bot"

    @property
    def test_url(self) -> str:
        """Root of the HTTP test-control endpoints."""
        return f"http://{self.host}:{self.port}/_test"

    async def start(self) -> FakeTelegramAPI:
        app = web.Application(client_max_size=MAX_REQUEST_BYTES)
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        app.router.add_route("*", "/_test/{action}", self._handle_test)
        self._runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._closing = False
        return self

    def deliver_to(self, targets: Sequence[str], *, connections: int = DEFAULT_CONNECTIONS,
                   timeout: float = DEFAULT_TIMEOUT) -> None:
        """While a webhook is set, POST the updates to these local URLs in turn, as Telegram
        and a round-robin load balancer would, ``connections`` at a time (see delivery.py)."""
        self._delivery.deliver_to(targets, connections=connections, timeout=timeout)

    @property
    def deliveries(self) -> list[Delivery]:
        """Every webhook POST so far, failed ones included, in the order they started."""
        return list(self._delivery.deliveries)

    @property
    def deliveries_in_flight(self) -> int:
        return self._delivery.in_flight

    async def stop(self) -> None:
        self._closing = True
        self._notify()  # long polls return at once
        await self._delivery.stop()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegramAPI:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ------------------------------------------------------------------ HTTP

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], dict[str, Upload]]:
        raw: dict[str, Any] = dict(request.query)
        uploads: dict[str, Upload] = {}
        ctype = request.content_type
        if ctype == "application/json":
            body = await request.read()
            if body.strip():
                try:
                    data = json.loads(body)
                except ValueError:
                    raise ApiError.bad_request("can't parse JSON encoded request body") from None
                if not isinstance(data, dict):
                    raise ApiError.bad_request("JSON object expected as request body")
                raw |= data
        elif ctype == "multipart/form-data":
            body = await request.read()
            for name, filename, ctype_part, payload in _form_parts(
                    request.headers[hdrs.CONTENT_TYPE], body):
                if filename is not None:
                    upload = Upload(name, filename, ctype_part, payload)
                    uploads[name] = upload
                    raw[name] = upload
                else:
                    raw[name] = payload.decode("utf-8")
        elif request.can_read_body:
            raw |= {k: v for k, v in (await request.post()).items() if isinstance(v, str)}
        return raw, uploads

    def _respond(self, record: RecordedRequest, status: int, payload: JSON) -> web.Response:
        record.status, record.response = status, payload
        self._notify()
        return web.json_response(payload, status=status)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        token, name = request.match_info["token"], request.match_info["method"]
        self._seq += 1
        record = RecordedRequest(self._seq, name, {}, {}, time.time())
        peer = request.transport.get_extra_info("peername") if request.transport else None
        if peer:
            record.peer = (str(peer[0]), int(peer[1]))
        self.requests.append(record)
        if token != self.token:
            if _TOKEN_SHAPE.match(token):
                return self._respond(record, 401, ApiError(401, "Unauthorized").payload())
            return self._respond(record, 404, ApiError(404, "Not Found").payload())
        canonical = self._methods.get(name.lower())
        if canonical is None:
            return self._respond(record, 404, ApiError(404, "Not Found").payload())
        record.method = canonical
        current_request.set(record.seq)
        try:
            raw, uploads = await self._read_params(request)
            record.params = {
                k: v.describe() if isinstance(v, Upload) else v for k, v in raw.items()
            }
            record.files = {k: u.describe() for k, u in uploads.items()}
            params, record.unknown_params = decode_params(canonical, raw)
            record.params = {
                k: v.describe() if isinstance(v, Upload) else v for k, v in params.items()
            }
            injected = self._take_injection(canonical)
            if injected is not None and injected.kind == "429":
                err = ApiError(
                    429,
                    f"Too Many Requests: retry after {injected.retry_after}",
                    {"retry_after": injected.retry_after},
                )
                return self._respond(record, 429, err.payload())
            if injected is not None and not injected.after_processing:
                return self._drop_connection(request, record)
            handler = self._handlers.get(canonical)
            if handler is None:
                raise ApiError.bad_request(f"method {canonical} is not implemented by the fake API")
            counted, flood_chat = self._flood_target(canonical, params)
            if counted:
                retry_after = self.flood_retry_after(canonical, flood_chat)
                if retry_after is not None:
                    err = ApiError(
                        429,
                        f"Too Many Requests: retry after {retry_after}",
                        {"retry_after": retry_after},
                    )
                    return self._respond(record, 429, err.payload())
            result = await handler(params, uploads)
            if canonical in self.delays:  # done already; only the answer is late
                await asyncio.sleep(self.delays[canonical])
            if counted:
                self.flood_record(canonical, flood_chat)
            if injected is not None:  # network failure after the call took effect
                record.response = {"ok": True, "result": result}
                return self._drop_connection(request, record)
            return self._respond(record, 200, {"ok": True, "result": result})
        except ApiError as exc:
            return self._respond(record, exc.code, exc.payload())
        except Exception as exc:  # a bug in the fake itself: answer 500, keep the traceback
            self.internal_errors.append(traceback.format_exc())
            payload = ApiError(500, f"Internal Server Error: fake API bug: {exc!r}").payload()
            return self._respond(record, 500, payload)
        finally:
            if record.status == 0:  # the client went away (e.g. killed while long polling)
                record.status = -2
                record.response = {"description": "request cancelled: client disconnected"}
                self._notify()

    def _flood_target(self, method: str, params: dict[str, Any]) -> tuple[bool, FakeChat | None]:
        """(counted by flood control, the chat whose limits apply). An inline message's edit
        names no chat: it counts against the bot's own limit only."""
        if self.flood_limits is None:
            return False, None
        if params.get("inline_message_id") and method.startswith("editMessage"):
            return True, None
        if "chat_id" not in params:
            return False, None
        try:
            return True, self.resolve_chat(params["chat_id"])
        except ApiError:
            return False, None  # the handler reports it

    def _drop_connection(self, request: web.Request, record: RecordedRequest) -> web.Response:
        """Close the TCP connection without an HTTP answer (client sees a network error)."""
        record.status = -1
        record.response = {**record.response, "description": "connection dropped by test"}
        if request.transport is not None:
            request.transport.abort()
        self._notify()
        return web.Response(status=500)

    # ------------------------------------------------------------------ HTTP test control

    async def _handle_test(self, request: web.Request) -> web.Response:
        """Minimal JSON control for manual runs: see ``__main__`` for the list of actions."""
        from .control_http import dispatch  # local: optional convenience layer

        action = request.match_info["action"]
        body: JSON = {}
        if request.can_read_body:
            try:
                body = await request.json()
            except ValueError:
                return web.json_response({"ok": False, "error": "JSON body expected"}, status=400)
        try:
            result = dispatch(self, action, body)
        except (KeyError, ValueError, TypeError) as exc:
            return web.json_response({"ok": False, "error": repr(exc)}, status=400)
        return web.json_response({"ok": True, "result": result})


def _form_parts(content_type: str, body: bytes) -> Iterator[tuple[str, str | None, str | None,
                                                                 bytes]]:
    """The named parts of a multipart/form-data body: (name, filename, content type, bytes).

    The whole body is parsed with the standard library's MIME parser. aiohttp's streaming
    multipart reader calls its own deprecated ``unread_data()`` when a read happens to return
    more than it asked for (aiohttp 3.14), a DeprecationWarning that depends on how the body
    arrives over TCP.
    """
    head = f"{hdrs.CONTENT_TYPE}: {content_type}\r\n\r\n".encode("latin-1")
    message = BytesParser(policy=policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():
        raise ApiError.bad_request("can't parse multipart/form-data request body")
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str) or part.is_multipart():
            continue
        payload = part.get_payload(decode=True)
        ctype = part.get(hdrs.CONTENT_TYPE)
        yield (name, part.get_filename(), None if ctype is None else str(ctype),
               payload if isinstance(payload, bytes) else b"")
