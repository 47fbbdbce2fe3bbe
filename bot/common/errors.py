"""The one error handler: log once, tell the user something went wrong, never raise.

A failed button press gets a "⚠️" toast; a failed command gets a short apology as a reply, in
the sender's language as their Telegram client reports it (no database: the database may be
what failed). Each update is apologised for at most once, though several of its handlers
may fail.
"""

from __future__ import annotations

import logging
from collections import deque

from telegram import CallbackQuery, MessageEntity, Update
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.i18n import pick_language, translator
from bot.storage import StorageError
from bot.telegram import press_ack, send

log = logging.getLogger(__name__)

_APOLOGISED = "sixshooter.apologised"  # bot_data: the updates answered here lately
_REMEMBERED = 256


async def answer_quietly(query: CallbackQuery, text: str | None = None) -> bool:
    """Answer a press; False (logged) if Telegram refused or could not be reached. The press
    is saved already, so a failed answer must not stop the board from being shown."""
    if not press_ack.claim():
        return False  # acknowledged quietly already (it waited too long)
    try:
        await query.answer(text[:200] if text is not None else None)
    except TelegramError as e:
        log.warning("could not answer a button press: %s", e)
        return False
    return True


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    try:
        error = context.error
        if isinstance(error, TelegramError):
            log.warning("Telegram error while handling an update: %s", error)
        elif isinstance(error, StorageError):  # the database busy or failing: no bug here
            log.warning("storage error while handling an update: %s", error)
        else:
            log.error("unexpected error while handling an update", exc_info=error)
        if isinstance(update, Update) and _first_time(context, update):
            await _tell(update, context)
    except Exception:
        log.exception("the error handler failed")


def _first_time(context: ContextTypes.DEFAULT_TYPE, update: Update) -> bool:
    seen = context.bot_data.setdefault(_APOLOGISED, deque(maxlen=_REMEMBERED))
    if update.update_id in seen:
        return False
    seen.append(update.update_id)
    return True


async def _tell(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.callback_query is not None:
        await answer_quietly(update.callback_query, "⚠️")
        return
    message, user = update.message, update.effective_user
    if message is None or not any(e.type == MessageEntity.BOT_COMMAND and e.offset == 0
                                  for e in message.entities):
        return  # not a command (a failure remembering who wrote in the chat): no reply
    tr = translator(pick_language(None, user.language_code if user else None))
    thread = message.message_thread_id if message.is_topic_message else None
    try:
        await send.send_text(context.bot, message.chat_id, thread, tr.t("error.apology"),
                           reply_to=message.message_id)
    except Exception as e:  # a chat that is gone, a refused send...: nothing more to do
        log.warning("could not apologise in chat %s: %s", message.chat_id, e)
