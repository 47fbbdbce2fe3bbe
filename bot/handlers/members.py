"""Who is around: users and chats seen in updates, and the bot joining or leaving a chat."""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from bot.game import forget_chat
from bot.services import services

log = logging.getLogger(__name__)

_GONE = (ChatMember.LEFT, ChatMember.BANNED)


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Record the user and chat of every update (only when something changed), so names,
    usernames and languages are known when a duel is drawn."""
    svc = services(context.bot_data)
    user, chat = update.effective_user, update.effective_chat
    now = svc.clock()
    if user is not None:
        key = (user.first_name, user.last_name, user.username, user.language_code, user.is_bot)
        if svc.seen_users.get(user.id) != key:
            await svc.storage.users.upsert(user.id, user.first_name, user.last_name,
                                           user.username, user.language_code, user.is_bot,
                                           now=now)
            svc.seen_users[user.id] = key
    if chat is not None and update.my_chat_member is None:
        ckey = (chat.type, chat.title, bool(chat.is_forum))
        if svc.seen_chats.get(chat.id) != ckey:
            await svc.storage.chats.upsert(chat.id, chat.type, chat.title, bool(chat.is_forum),
                                           now=now)
            svc.seen_chats[chat.id] = ckey


async def on_my_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    change = update.my_chat_member
    if change is None:
        return
    svc = services(context.bot_data)
    chat = change.chat
    if change.new_chat_member.status in _GONE:
        svc.seen_chats.pop(chat.id, None)
        await forget_chat(svc, chat.id)
    else:
        await svc.storage.chats.upsert(chat.id, chat.type, chat.title, bool(chat.is_forum),
                                       now=svc.clock())
        svc.seen_chats[chat.id] = (chat.type, chat.title, bool(chat.is_forum))
        log.info("joined chat %d (%s)", chat.id, chat.type)
