"""Talking to Telegram safely: send and edit with every known failure turned into a result.

Flood limits are the rate limiter's job (it retries RetryAfter). What is left here, scoped to
what failed:

* **The bot is out of the chat** (403 "bot was kicked from the group chat", "bot is not a
  member of the ... chat", "bot was blocked by the user", "user is deactivated", and 400 "chat
  not found", which Telegram answers for a chat id the bot cannot reach at all: a deleted
  group, a supergroup it was removed from): `ChatGone`, and only then does the caller forget
  the chat (`bot.common.chats.forget_chat`). Nothing else ever closes a chat's games.
* **The group became a supergroup** (400 "group chat was upgraded to a supergroup chat" with
  `migrate_to_chat_id`, raised by python-telegram-bot as `ChatMigrated`): `ChatMoved`; the
  caller moves the chat's rows to the new id (`bot.common.chats.migrate_chat`) and shows its games
  there.
* **A refused send or edit** (no rights to send photos right now, "not enough rights", a closed
  forum topic "TOPIC_CLOSED", a deleted one "TOPIC_DELETED" / "message thread not found", any
  other 403): logged once and reported like a network failure (`None` / `Edit.FAILED`). The
  game is saved already; the sync job shows it later, when Telegram lets it. Its turn timer
  keeps running meanwhile.
* **Forum topics: a game in a closed or deleted topic waits for its topic.** It is not moved
  to General: a duel stays in the topic it was started in (each topic is its own table, and
  other topics' games go on untouched). The sync job retries it until the topic is reopened;
  in a topic that never comes back, the turn timer (or /surrender) ends the duel as it would
  any duel nobody can play.
* **Network trouble**: an edit is idempotent and is retried a couple of times. A send is
  retried only when the request surely never reached Telegram (python-telegram-bot's
  `TimedOut`/`NetworkError` raised from `bot.telegram.http.NotSent`: no free connection, the
  connection refused or not made in time); after a read or write timeout or a dropped answer
  the message may well exist, so it is not sent again here: `None`, the saved message id stays
  as it was, and the sync job sends it later. Should both copies then exist, a press on the
  extra one retires it (`bot.duel.present.claim`).

"Message is not modified" is a success; a deleted message is `Edit.GONE` (the caller sends a
fresh one).
"""

from __future__ import annotations

import asyncio
import datetime as dtm
import logging
import warnings
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, TypeVar

from telegram import (
    Bot,
    InlineKeyboardMarkup,
    InputFile,
    InputMediaPhoto,
    LinkPreviewOptions,
    Message,
    ReplyParameters,
)
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
)
from telegram.warnings import PTBUserWarning

from bot.telegram import intake
from bot.telegram.http import NotSent

log = logging.getLogger(__name__)
T = TypeVar("T")

NETWORK_TRIES = 3
NO_PREVIEW = LinkPreviewOptions(is_disabled=True)
# Calls whose answer is read as Telegram sent it (`raw`): that python-telegram-bot has a method
# of its own for them is known.
RAW = ("getUpdates", "sendPhoto")
warnings.filterwarnings("ignore", message=rf"Please use 'Bot\.({'|'.join(RAW)})' instead",
                        category=PTBUserWarning)
# The request never left this machine (no connection, or none free in the pool): safe to send
# again. Every other transport failure may have reached Telegram.
NOT_SENT = (NotSent,)


class ChatGone(Exception):
    """Telegram says the bot is no longer in the chat (removed, blocked, chat deleted)."""

    def __init__(self, chat_id: int) -> None:
        super().__init__(f"chat {chat_id} is gone")
        self.chat_id = chat_id


class ChatMoved(Exception):
    """The group was upgraded to a supergroup: its chat id is now `new_chat_id`."""

    def __init__(self, chat_id: int, new_chat_id: int) -> None:
        super().__init__(f"chat {chat_id} moved to {new_chat_id}")
        self.chat_id = chat_id
        self.new_chat_id = new_chat_id


class Edit(Enum):
    DONE = "done"  # edited (or it already showed exactly this)
    GONE = "gone"  # the message no longer exists: send a fresh one
    FAILED = "failed"  # refused or network trouble: try again later


_GONE = ("message to edit not found", "message_id_invalid", "message can't be edited",
         "message to delete not found")
# The bot is out of the chat: these and only these forget it.
_BOT_OUT = ("bot was kicked", "bot is not a member", "bot was blocked by the user",
            "user is deactivated", "chat not found", "group chat was deleted")
# Telegram refused this one request for now (rights, a closed or deleted topic): retried later.
_REFUSED = ("not enough rights", "have no rights", "need administrator rights", "topic_closed",
            "topic_deleted", "message thread not found", "chat_write_forbidden",
            "chat_send_photos_forbidden", "chat_send_plain_forbidden")


def retry_after_seconds(error: RetryAfter) -> float:
    """How long Telegram asks to wait. The bot opts in to python-telegram-bot's time periods as
    timedelta (PTB_TIMEDELTA=1, set by `sixshooter run`); a number still counts as seconds."""
    value = error.retry_after
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


def bot_out(error: TelegramError) -> bool:
    """Does this error say the bot is no longer in the chat?"""
    text = error.message.lower()
    return isinstance(error, Forbidden | BadRequest) and any(s in text for s in _BOT_OUT)


def surely_not_sent(error: NetworkError) -> bool:
    """A transport failure that happened before the request could reach Telegram."""
    return isinstance(error.__cause__, NOT_SENT)


async def _call(what: str, chat_id: int, factory: Callable[[], Awaitable[T]], *,
                resend_safe: bool) -> T | None:
    """Run a Bot call: its result, or None when it failed for now (refused, network).

    Raises ChatGone, ChatMoved, and any other BadRequest (the caller's to judge). A call that
    is not `resend_safe` (a send) is made again only when it surely never reached Telegram.
    """
    for attempt in range(1, NETWORK_TRIES + 1):
        try:
            result = await factory()
        except ChatMigrated as e:
            raise ChatMoved(chat_id, e.new_chat_id) from e
        except RetryAfter as e:  # the rate limiter gave up; a 429 did nothing: wait, again
            await asyncio.sleep(min(retry_after_seconds(e), 30.0))
            continue
        except Forbidden as e:
            if bot_out(e):
                raise ChatGone(chat_id) from e
            log.info("%s in chat %s refused: %s; tried again later", what, chat_id, e.message)
            return None
        except BadRequest as e:
            if bot_out(e):
                raise ChatGone(chat_id) from e
            if any(s in e.message.lower() for s in _REFUSED):
                log.info("%s in chat %s refused: %s; tried again later", what, chat_id,
                         e.message)
                return None
            raise
        except NetworkError as e:  # TimedOut included
            if not resend_safe and not surely_not_sent(e):
                log.warning("%s in chat %s: no answer (%s); it may have arrived, so it is not "
                            "sent again now", what, chat_id, _describe(e))
                await intake.settled()
                return None
            if attempt == NETWORK_TRIES:
                log.warning("%s in chat %s failed after %d tries: %s", what, chat_id, attempt,
                            _describe(e))
                return None
            await asyncio.sleep(0.2 * attempt)
            continue
        if not resend_safe:  # the bot has said something about the update: never again
            await intake.settled()
        return result
    return None


def _describe(error: NetworkError) -> str:
    cause = type(error.__cause__).__name__ if error.__cause__ is not None else None
    if cause is None or cause in error.message:
        return error.message
    return f"{error.message} ({cause})"


async def raw(bot: Bot, method: str, api_kwargs: dict[str, Any], *,
              read_timeout: float | None = None) -> Any:
    """A Bot API call (one of `RAW`) whose answer is the JSON Telegram sent, not made into
    python-telegram-bot's objects: an update batch is saved as it came, and of a sent photo only
    its message id is read (its Message, with each photo size and the keyboard's buttons, was
    about 5 % of the bot's CPU under load). The call goes through the same request, rate
    limiter and errors as any other."""
    if method not in RAW:
        raise ValueError(f"{method} is not one of the calls read raw: {RAW}")
    if read_timeout is None:  # the request's own
        return await bot.do_api_request(method, api_kwargs=api_kwargs)
    return await bot.do_api_request(method, api_kwargs=api_kwargs, read_timeout=read_timeout)


async def send_photo(
    bot: Bot, chat_id: int, thread_id: int | None, photo: bytes, caption: str,
    markup: InlineKeyboardMarkup | None, reply_to: int | None = None,
) -> int | None:
    """Send a photo: the new message's id, or None (see `_call`)."""
    kwargs: dict[str, Any] = {"chat_id": chat_id, "photo": InputFile(photo),
                              "caption": caption, "parse_mode": ParseMode.HTML.value}
    if markup is not None:
        kwargs["reply_markup"] = markup
    if thread_id is not None:
        kwargs["message_thread_id"] = thread_id
    if reply_to is not None:
        kwargs["reply_parameters"] = ReplyParameters(reply_to,
                                                     allow_sending_without_reply=True)
    sent = await _call("sendPhoto", chat_id, lambda: raw(bot, "sendPhoto", kwargs),
                       resend_safe=False)
    return None if sent is None else int(sent["message_id"])


async def send_text(
    bot: Bot, chat_id: int, thread_id: int | None, text: str,
    markup: InlineKeyboardMarkup | None = None, reply_to: int | None = None,
) -> Message | None:
    return await _call("sendMessage", chat_id, lambda: bot.send_message(
        chat_id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
        message_thread_id=thread_id, reply_to_message_id=reply_to,
        allow_sending_without_reply=True, link_preview_options=NO_PREVIEW,
    ), resend_safe=False)


async def _edit(what: str, chat_id: int, factory: Callable[[], Awaitable[object]]) -> Edit:
    try:
        result = await _call(what, chat_id, factory, resend_safe=True)
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


async def delete(bot: Bot, chat_id: int, message_id: int) -> Edit:
    """Delete one of the bot's own messages (an extra copy); GONE if it was gone already,
    FAILED if Telegram would not (too old, no rights)."""
    try:
        return await _edit("deleteMessage", chat_id, lambda: bot.delete_message(
            chat_id, message_id))
    except BadRequest as e:
        log.info("could not delete message %s in chat %s: %s", message_id, chat_id, e.message)
        return Edit.FAILED


async def delete_many(bot: Bot, chat_id: int, message_ids: list[int]) -> Edit:
    """Delete several of the bot's own messages in one call (those already gone are skipped
    by Telegram); FAILED if Telegram would not."""
    try:
        return await _edit("deleteMessages", chat_id, lambda: bot.delete_messages(
            chat_id, message_ids))
    except BadRequest as e:
        log.info("could not delete %d message(s) in chat %s: %s", len(message_ids), chat_id,
                 e.message)
        return Edit.FAILED


# --- inline messages (sent through the bot in any chat: known by their id alone) ------------
#
# Telegram lets the bot edit them, never delete them, and an edit may not upload a file: a
# picture goes there by the `file_id` of one sent elsewhere first (`upload`). Their edits are
# paced as a chat of their own (bot.telegram.ratelimit.chat_key) and count against the bot's.

_NO_TEXT = ("there is no text in the message", "there is no caption in the message",
            "message text is empty")


@dataclass(frozen=True, slots=True)
class Uploaded:
    message_id: int
    file_id: str  # the photo's largest size, for an inline message's edit


async def upload(bot: Bot, chat_id: int, photo: bytes, caption: str,
                 markup: InlineKeyboardMarkup | None, *, silent: bool = False) -> Uploaded | None:
    """Send a photo (`silent`: without a notification) and keep what an inline message's
    edit needs of it; None (see `_call`)."""
    kwargs: dict[str, Any] = {"chat_id": chat_id, "photo": InputFile(photo),
                              "caption": caption, "parse_mode": ParseMode.HTML.value,
                              "disable_notification": silent}
    if markup is not None:
        kwargs["reply_markup"] = markup
    sent = await _call("sendPhoto", chat_id, lambda: raw(bot, "sendPhoto", kwargs),
                       resend_safe=False)
    if sent is None or not sent.get("photo"):
        return None
    largest = max(sent["photo"], key=lambda size: size.get("width", 0) * size.get("height", 0))
    return Uploaded(int(sent["message_id"]), str(largest["file_id"]))


async def _edit_inline(what: str, factory: Callable[[], Awaitable[object]]) -> Edit:
    try:
        return await _edit(what, 0, factory)
    except ChatGone:
        return Edit.GONE


async def edit_inline_photo(bot: Bot, inline_message_id: str, file_id: str, caption: str,
                            markup: InlineKeyboardMarkup | None) -> Edit:
    """The inline message shows the photo of `file_id` with the caption; a file_id Telegram
    refuses is FAILED (logged): the next try uploads anew."""
    media = InputMediaPhoto(file_id, caption=caption, parse_mode=ParseMode.HTML)
    try:
        return await _edit_inline("editMessageMedia", lambda: bot.edit_message_media(
            media, inline_message_id=inline_message_id, reply_markup=markup))
    except BadRequest as e:
        log.warning("an inline message's picture was refused: %s", e.message)
        return Edit.FAILED


async def edit_inline_words(bot: Bot, inline_message_id: str, text: str,
                            markup: InlineKeyboardMarkup | None) -> Edit:
    """The inline message's caption (a photo's) or text (as posted) and buttons."""
    try:
        return await _edit_inline("editMessageCaption", lambda: bot.edit_message_caption(
            inline_message_id=inline_message_id, caption=text, parse_mode=ParseMode.HTML,
            reply_markup=markup))
    except BadRequest as e:
        if not any(s in e.message.lower() for s in _NO_TEXT):
            log.warning("an inline message's caption was refused: %s", e.message)
            return Edit.FAILED
    return await edit_inline_text(bot, inline_message_id, text, markup)


async def edit_inline_text(bot: Bot, inline_message_id: str, text: str,
                           markup: InlineKeyboardMarkup | None) -> Edit:
    """The text and buttons of an inline message posted as text (a challenge, not yet a
    table): no caption to try first, which Telegram would refuse."""
    try:
        return await _edit_inline("editMessageText", lambda: bot.edit_message_text(
            text, inline_message_id=inline_message_id, parse_mode=ParseMode.HTML,
            reply_markup=markup, link_preview_options=NO_PREVIEW))
    except BadRequest as e:
        log.warning("an inline message's text was refused: %s", e.message)
        return Edit.FAILED
