"""Small helpers the handlers share: the language to answer in, replies, toasts, decoding a
press; and the answer to a press no handler knows."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Generic, TypeVar

from telegram import Bot, CallbackQuery, Chat, Message, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError
from telegram.ext import ContextTypes

from bot.i18n import Translator, pick_language, translator
from bot.services import Services, services
from bot.storage.users import UserRecord
from bot.telegram import callbacks, press_ack, send

log = logging.getLogger(__name__)

P = TypeVar("P", bound=callbacks.Payload)  # the kind a press is decoded as (no other)


async def user_translator(svc: Services, update: Update) -> Translator:
    """The language of whoever sent the update (a chat's fixed language wins)."""
    user, chat = update.effective_user, update.effective_chat
    code = user.language_code if user else None
    if chat is None:
        return translator(pick_language(None, code))
    return await chat_language(svc, chat.id, code)


async def chat_language(svc: Services, chat_id: int, user_code: str | None) -> Translator:
    settings = await svc.storage.chats.get_settings(chat_id)
    return translator(pick_language(settings.language, user_code))


def display_name(user: UserRecord | None) -> str:
    if user is None:
        return "?"
    return f"{user.first_name} {user.last_name}" if user.last_name else user.first_name


async def names_of(svc: Services, ids: Iterable[int]) -> dict[int, str]:
    """Each user's display name, by id ("?" for one never seen)."""
    known = await svc.storage.users.get_many(ids)
    return {uid: display_name(user) for uid, user in known.items()}


async def reply(context: ContextTypes.DEFAULT_TYPE, update: Update, text: str,
                reply_to: int | None = None) -> None:
    """Answer a command in its chat and topic, as a reply to it (or to `reply_to`)."""
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    thread = message.message_thread_id if message.is_topic_message else None
    await send.send_text(context.bot, chat.id, thread, text,
                         reply_to=reply_to if reply_to is not None else message.message_id)


ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


async def is_admin(bot: Bot, chat_id: int, user_id: int) -> bool:
    """Is the user the chat's owner or one of its administrators (asked of Telegram)? No,
    when Telegram cannot say."""
    try:
        member = await bot.get_chat_member(chat_id, user_id)
    except TelegramError as e:
        log.info("could not check user %d in chat %d: %s", user_id, chat_id, e)
        return False
    return member.status in ADMINS


async def toast(query: CallbackQuery, text: str) -> None:
    """Answer a button press with a short notice (Telegram shows at most 200 characters);
    none if the press was acknowledged quietly already (it waited too long)."""
    if press_ack.claim():
        await query.answer(text[:200])


@dataclass(frozen=True, slots=True)
class Asked:
    """A command, with who sent it where and the language to answer in."""

    message: Message
    chat: Chat
    user: User
    svc: Services
    tr: Translator


async def asked(update: Update, context: ContextTypes.DEFAULT_TYPE) -> Asked | None:
    """The command's message, chat and sender (None for an update without them)."""
    message, chat, user = update.effective_message, update.effective_chat, update.effective_user
    if message is None or chat is None or user is None:
        return None
    svc = services(context.bot_data)
    return Asked(message, chat, user, svc, await user_translator(svc, update))


@dataclass(frozen=True, slots=True)
class Pressed(Generic[P]):
    """A button press decoded into the payload its handler expects."""

    query: CallbackQuery
    user: User
    svc: Services
    tr: Translator
    payload: P


async def pressed(update: Update, context: ContextTypes.DEFAULT_TYPE,
                  kind: type[P]) -> Pressed[P] | None:
    """Decode a press into `kind`; anything else (forged, foreign, malformed data) gets the
    "not valid" toast and None."""
    query, user = update.callback_query, update.effective_user
    if query is None or user is None:
        return None
    svc = services(context.bot_data)
    tr = await user_translator(svc, update)
    try:
        payload = callbacks.decode(query.data or "", (kind,))
    except callbacks.CallbackDataError:
        await toast(query, tr.t("toast.invalid"))
        return None
    return Pressed(query, user, svc, tr, payload)


async def on_unknown(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Callback data that no handler knows: forged, or from an older version of the bot."""
    query = update.callback_query
    if query is None:
        return
    tr = await user_translator(services(context.bot_data), update)
    await toast(query, tr.t("toast.invalid"))
