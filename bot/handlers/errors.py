"""The one error handler: log once, tell the user something went wrong, never crash."""

from __future__ import annotations

import contextlib
import logging

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

log = logging.getLogger(__name__)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    error = context.error
    if isinstance(error, TelegramError):
        log.warning("Telegram error while handling an update: %s", error)
    else:
        log.error("unexpected error while handling an update", exc_info=error)
    if isinstance(update, Update) and update.callback_query is not None:
        with contextlib.suppress(TelegramError):
            await update.callback_query.answer("⚠️", show_alert=False)
