"""Who is around: users and chats seen in updates, the bot joining or leaving a chat, and a
group becoming a supergroup."""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from bot.game import forget_chat, migrate_chat
from bot.jobs import sync_duel
from bot.services import services
from bot.sixcard.present import sync_game

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


async def on_migrate(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group was upgraded to a supergroup (Telegram says so twice: `migrate_to_chat_id` in
    the old group, `migrate_from_chat_id` in the new supergroup). The first one moves the
    chat's duels, standings, settings and balances to the new id; its live games are shown
    there at once. The second one finds nothing left to move."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    svc = services(context.bot_data)
    moved = await migrate_chat(svc, old, new)
    for duel_id in moved.live_duels:
        await sync_duel(svc, context.application, duel_id)
    for game_id in moved.live_games:
        await sync_game(svc, context.bot, game_id)
