"""Webhook mode's server: each worker serves Telegram's POSTs itself, saving before its 200.

Telegram posts every update to the webhook URL (through a load balancer, to any worker) and
forgets it once answered 200, so the answer waits for `Intake.receive` to have saved it: a
worker killed before that leaves Telegram to deliver it again (to whichever worker answers),
and one killed after leaves it saved, for another worker once its lease runs out. A duplicate
(a delivery retried after a lost answer) is answered 200 and takes no effect. Requests without
Telegram's secret header (`bot.telegram.webhook`) get 403 and change nothing; other paths 404.

`extra` routes (the health check a load balancer asks) are served on the same port.
"""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Sequence
from http import HTTPStatus
from typing import Any

import tornado.web
from tornado.httpserver import HTTPServer

from bot.telegram.intake import Intake, is_update

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # bytes: an update is a few KB; anything larger is not Telegram's


class UpdateHandler(tornado.web.RequestHandler):
    def initialize(self, intake: Intake, secret: str) -> None:
        self.intake, self.secret = intake, secret

    def check_xsrf_cookie(self) -> None:  # a machine's POST, authenticated by the secret
        pass

    async def post(self) -> None:
        given = self.request.headers.get(SECRET_HEADER, "")
        if not hmac.compare_digest(given.encode(), self.secret.encode()):
            log.debug("webhook: a request without the right secret, refused")
            raise tornado.web.HTTPError(HTTPStatus.FORBIDDEN)
        try:
            data = json.loads(self.request.body)
        except ValueError:
            data = None
        if not is_update(data):
            log.debug("webhook: a body that is no update, refused")
            raise tornado.web.HTTPError(HTTPStatus.BAD_REQUEST)
        await self.intake.receive([data])  # saved (the database away: handled unsaved)
        self.set_status(HTTPStatus.OK)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(f"{status_code}\n")  # no traceback, no detail


Route = tuple[str, type[tornado.web.RequestHandler], dict[str, Any]]


def server(intake: Intake, *, path: str, secret: str,
           extra: Sequence[Route] = ()) -> HTTPServer:
    """The webhook's HTTP server (not yet listening): `path` is a regular expression."""
    routes: list[Any] = [(path, UpdateHandler, {"intake": intake, "secret": secret}), *extra]
    app = tornado.web.Application(routes, default_handler_class=_NotFound)
    return HTTPServer(app, xheaders=True, max_body_size=MAX_BODY)


class _NotFound(tornado.web.RequestHandler):
    def prepare(self) -> None:
        raise tornado.web.HTTPError(HTTPStatus.NOT_FOUND)

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        self.finish(f"{status_code}\n")
