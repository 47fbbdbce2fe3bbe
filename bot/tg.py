"""Talking to Telegram safely: send and edit with every known failure turned into a result.

Flood limits are the rate limiter's job (AIORateLimiter retries RetryAfter). What is left here:
"message is not modified" is a success; a deleted message is `Sent.GONE` (the caller sends a
fresh one); a chat that threw the bot out raises `ChatGone`; network trouble is retried a
couple of times, then reported as `None` and logged once: the game is saved already, and the
sync job redraws it later.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, LinkPreviewOptions, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

log = logging.getLogger(__name__)
T = TypeVar("T")

NETWORK_TRIES = 3
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)


class ChatGone(Exception):
    """The bot can no longer write to the chat (removed, chat deleted)."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} is gone")
        self.chat_id = chat_id


class Edit(Enum):
    DONE = "done"  # edited (or it already showed exactly this)
    GONE = "gone"  # the message no longer exists: send a fresh one
    FAILED = "failed"  # network trouble: try again later


_GONE = ("message to edit not found", "message_id_invalid", "message can't be edited",
         "message to delete not found")
_CHAT_GONE = ("chat not found", "group chat was upgraded", "not enough rights",
              "have no rights to send", "topic_closed", "topic_deleted",
              "message thread not found")


async def _call(what: str, chat_id: int, factory: Callable[[], Awaitable[T]]) -> T | None:
    """Run a Bot call with network retries: its result, or None when the network failed.
    Raises BadRequest (the caller's to judge) and ChatGone."""
    for attempt in range(1, NETWORK_TRIES + 1):
        try:
            return await factory()
        except Forbidden as e:
            raise ChatGone(chat_id) from e
        except RetryAfter as e:  # the rate limiter gave up: wait once more ourselves
            delay = float(e.retry_after if isinstance(e.retry_after, int | float) else 1)
            await asyncio.sleep(min(delay, 30.0))
        except BadRequest as e:
            if any(s in e.message.lower() for s in _CHAT_GONE):
                raise ChatGone(chat_id) from e
            raise
        except (TimedOut, NetworkError) as e:
            if attempt == NETWORK_TRIES:
                log.warning("%s in chat %s failed after %d tries: %s", what, chat_id, attempt, e)
                return None
            await asyncio.sleep(0.2 * attempt)
    return None


async def send_photo(
    bot: Bot, chat_id: int, thread_id: int | None, photo: bytes, caption: str,
    markup: InlineKeyboardMarkup | None, reply_to: int | None = None,
) -> Message | None:
    return await _call("sendPhoto", chat_id, lambda: bot.send_photo(
        chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup,
        message_thread_id=thread_id, reply_to_message_id=reply_to,
        allow_sending_without_reply=True,
    ))


async def send_text(
    bot: Bot, chat_id: int, thread_id: int | None, text: str,
    markup: InlineKeyboardMarkup | None = None, reply_to: int | None = None,
) -> Message | None:
    return await _call("sendMessage", chat_id, lambda: bot.send_message(
        chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
        message_thread_id=thread_id, reply_to_message_id=reply_to,
        allow_sending_without_reply=True, link_preview_options=NO_PREVIEW,
    ))


async def _edit(what: str, chat_id: int, factory: Callable[[], Awaitable[object]]) -> Edit:
    try:
        result = await _call(what, chat_id, factory)
    except BadRequest as e:
        text = e.message.lower()
        if "message is not modified" in text:
            return Edit.DONE
        if any(s in text for s in _GONE):
            return Edit.GONE
        raise
    return Edit.FAILED if result is None else Edit.DONE


async def edit_photo(
    bot: Bot, chat_id: int, message_id: int, photo: bytes, caption: str,
    markup: InlineKeyboardMarkup | None,
) -> Edit:
    media = InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML)
    return await _edit("editMessageMedia", chat_id, lambda: bot.edit_message_media(
        media, chat_id=chat_id, message_id=message_id, reply_markup=markup,
    ))


async def edit_caption(
    bot: Bot, chat_id: int, message_id: int, caption: str, markup: InlineKeyboardMarkup | None,
) -> Edit:
    return await _edit("editMessageCaption", chat_id, lambda: bot.edit_message_caption(
        chat_id=chat_id, message_id=message_id, caption=caption, parse_mode=ParseMode.HTML,
        reply_markup=markup,
    ))


async def edit_text(
    bot: Bot, chat_id: int, message_id: int, text: str, markup: InlineKeyboardMarkup | None,
) -> Edit:
    return await _edit("editMessageText", chat_id, lambda: bot.edit_message_text(
        text, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML,
        reply_markup=markup, link_preview_options=NO_PREVIEW,
    ))


async def drop_keyboard(bot: Bot, chat_id: int, message_id: int) -> Edit:
    """Take the buttons off a message that is no longer live."""
    try:
        return await _edit("editMessageReplyMarkup", chat_id, lambda: bot.edit_message_reply_markup(
            chat_id=chat_id, message_id=message_id, reply_markup=None,
        ))
    except BadRequest as e:
        log.info("could not drop a keyboard in chat %s: %s", chat_id, e.message)
        return Edit.FAILED
