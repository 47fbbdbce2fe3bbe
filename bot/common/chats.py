"""Who is around, and a chat's end: users and chats seen in updates, the bot joining or
leaving a chat, and a group becoming a supergroup.

Closing or moving a chat asks every game (`ChatGames`, registered by each game's package
with `closes`), so this module knows no game.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from telegram import Bot, ChatMember, Update
from telegram.ext import ContextTypes

from bot.services import Services, services
from bot.storage import ChatMove

log = logging.getLogger(__name__)

_GONE = (ChatMember.LEFT, ChatMember.BANNED)


async def _nothing(svc: Services, old_id: int, new_id: int) -> None:
    return None


@dataclass(frozen=True, slots=True)
class ChatGames:
    """What a game does when a chat ends or moves."""

    name: str
    # The bot left the chat: close its live games without counting them; what was closed,
    # for the log line ("2 live duel(s) abandoned").
    forget: Callable[[Services, int], Awaitable[str]]
    # The chat's rows move to the new id in this transaction: make room first (old, new).
    make_room: Callable[[Services, int, int], Awaitable[None]] = _nothing
    # After the move: show the chat's moved live games in the new chat.
    show_moved: Callable[[Services, Bot, ChatMove], Awaitable[None]] | None = None


GAMES: list[ChatGames] = []


def closes(games: ChatGames) -> None:
    """Register a game's chat callbacks (once per name)."""
    GAMES[:] = [g for g in GAMES if g.name != games.name]
    GAMES.append(games)


async def forget_chat(svc: Services, chat_id: int) -> None:
    """The bot left the chat (or was thrown out: Telegram said so, see
    `bot.telegram.send.ChatGone`, or a my_chat_member update did): every game closes its live
    games there without counting. Nothing short of that closes them: a refused send only
    waits."""
    await svc.storage.chats.mark_left(chat_id, now=svc.clock())
    closed = [await games.forget(svc, chat_id) for games in GAMES]
    log.info("left chat %d: %s", chat_id, ", ".join(closed) or "nothing live")


async def migrate_chat(svc: Services, old_id: int, new_id: int) -> ChatMove:
    """The group `old_id` became the supergroup `new_id`: every row of it moves there in one
    transaction (`bot.storage.migrate`), and the memory of both ids is dropped. Idempotent:
    Telegram's second signal finds nothing left to move. The live games it returns have no
    message any more; the caller (or the sync job) shows them in the new chat."""
    async with svc.storage.transaction():
        for games in GAMES:
            await games.make_room(svc, old_id, new_id)
        moved = await svc.storage.move_chat(old_id, new_id, now=svc.clock())
    svc.forget_chats(old_id, new_id)
    if moved.moved:
        log.info("chat %d became supergroup %d: %d row(s) moved, %d live duel(s) and %d "
                 "six-card game(s) to show again, %d challenge(s) expired, %d balance(s) "
                 "merged", old_id, new_id, moved.rows, len(moved.live_duels),
                 len(moved.live_games), moved.expired_challenges, moved.merged_balances)
    return moved


# --- the handlers ------------------------------------------------------------------------


async def remember(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Record the user and chat of every update (only when something changed), so names,
    usernames and languages are known when a duel is drawn."""
    svc = services(context.bot_data)
    user, chat = update.effective_user, update.effective_chat
    now = svc.clock()
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
    for games in GAMES:
        if games.show_moved is not None:
            await games.show_moved(svc, context.bot, moved)
