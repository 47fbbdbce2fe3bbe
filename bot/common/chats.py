"""Who is around, and a chat's end: users and chats seen in updates, the bot joining or
leaving a chat, and a group becoming a supergroup.

Closing or moving a chat asks every game (`ChatGames`, registered by each game's package
with `closes` in its `register(app)`, and held by the application's `Services`), so this module
knows no game.
"""

from __future__ import annotations

import logging

from telegram import ChatMember, Update
from telegram.ext import ContextTypes

from bot.services import ChatGames as ChatGames  # held by the Services, so defined there
from bot.services import Records, Services, services
from bot.storage import ChatMove
from bot.telegram import App

log = logging.getLogger(__name__)

_GONE = (ChatMember.LEFT, ChatMember.BANNED)
KEY = "sixshooter.chats.games"  # bot_data: every game's ChatGames, in the order registered


def closes(app: App, games: ChatGames) -> None:
    """Register a game's chat callbacks with the application (once per name)."""
    registered = closing(app)
    registered[:] = [g for g in registered if g.name != games.name]
    registered.append(games)


def closing(app: App) -> list[ChatGames]:
    """The games registered with the application (its Services hold them once built)."""
    found: list[ChatGames] = app.bot_data.setdefault(KEY, [])
    return found


def records(app: App) -> list[Records]:
    """The registered games' repositories of live records, for the storage to build, move
    with a chat and count (`bot.storage.Storage.open`)."""
    return [g.records for g in closing(app) if g.records is not None]


async def forget_chat(svc: Services, chat_id: int) -> None:
    """The bot left the chat (or was thrown out: Telegram said so, see
    `bot.telegram.send.ChatGone`, or a my_chat_member update did): every game closes its live
    games there without counting. Nothing short of that closes them: a refused send only
    waits."""
    await svc.storage.chats.mark_left(chat_id, now=svc.clock())
    closed = [await games.forget(svc, chat_id) for games in svc.chat_games]
    log.info("left chat %d: %s", chat_id, ", ".join(closed) or "nothing live")


async def migrate_chat(svc: Services, old_id: int, new_id: int) -> ChatMove:
    """The group `old_id` became the supergroup `new_id`: every row of it moves there in one
    transaction (`bot.storage.chat_move`), and the memory of both ids is dropped. Idempotent:
    Telegram's second signal finds nothing left to move. The live games it returns have no
    message any more; the caller (or the sync job) shows them in the new chat."""
    async with svc.storage.transaction():
        for games in svc.chat_games:
            await games.make_room(svc, old_id, new_id)
        moved = await svc.storage.move_chat(old_id, new_id, now=svc.clock())
    svc.forget_chats(old_id, new_id)
    if moved.moved:
        log.info("chat %d became supergroup %d: %d row(s) moved, live games to show again "
                 "%s, %d challenge(s) expired, %d balance(s) merged", old_id, new_id,
                 moved.rows, {kind: len(ids) for kind, ids in moved.live.items()},
                 moved.expired_challenges, moved.merged_balances)
    return moved


# --- the handlers ------------------------------------------------------------------------


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Record the user and chat of every update (only when something changed), so names,
    usernames and languages are known when a duel is drawn."""
    svc = services(context.bot_data)
    user, chat = update.effective_user, update.effective_chat
    now = svc.clock()
    if user is not None and chat is not None:
        await svc.storage.read_first(user.id, chat.id)
    if user is not None:
        await svc.storage.users.remember(user.id, user.first_name, user.last_name,
                                         user.username, user.language_code, user.is_bot,
                                         now=now)
    if chat is not None and update.my_chat_member is None:
        await svc.storage.chats.remember(chat.id, chat.type, chat.title, bool(chat.is_forum),
                                         now=now)


async def on_my_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    change = update.my_chat_member
    if change is None:
        return
    svc = services(context.bot_data)
    chat = change.chat
    if change.new_chat_member.status in _GONE:
        await forget_chat(svc, chat.id)  # marked left: its next update records it again
    else:
        await svc.storage.chats.upsert(chat.id, chat.type, chat.title, bool(chat.is_forum),
                                       now=svc.clock())
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
    for games in svc.chat_games:
        if games.show_moved is not None:
            await games.show_moved(svc, context.bot, moved)
