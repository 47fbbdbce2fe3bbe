"""Show a six-card game in its chat: one message, edited in place from deal to payout.

The message is the table picture (`render.sixcard`, drawn in the shared drawing thread) with
the caption and the buttons of the saved version. The same routine serves a tap, a restart
and the sync job: it shows whatever is saved and records which version the message shows.
A finished game's message stays, with the result and no buttons.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from telegram import Bot
from telegram.ext import Application, ContextTypes

import render
from bot.game import migrate_chat
from bot.i18n import Translator, mention_html, pick_language, translator
from bot.present import display_name, draw
from bot.services import Services, services
from bot.sixcard.captions import caption
from bot.sixcard.game import abandon, casino
from bot.sixcard.keyboards import game_keyboard
from bot.storage.casino import GameRecord, GameStatus
from bot.telegram import send
from rules.sixcard import SixCardGame

log = logging.getLogger(__name__)

SYNC_EVERY = 20.0  # seconds between checks for lagging game messages
SYNC_GRACE = 5  # a save this recent is probably being shown right now


async def player_translator(svc: Services, record: GameRecord) -> tuple[Translator, str]:
    """The player's language (unless the chat fixed one) and their name."""
    user = await svc.storage.users.get(record.user_id)
    settings = await svc.storage.chats.get_settings(record.chat_id)
    lang = pick_language(settings.language, user.language_code if user else None)
    return translator(lang), display_name(user)


async def present(svc: Services, bot: Bot, record: GameRecord) -> None:
    """Bring the game's message up to the saved version. A chat that threw the bot out
    loses its live game (closed, not counted, the chips back on the balance); a group that
    became a supergroup takes it along, and it is shown there. A refused or failed send or
    edit leaves it for the sync job."""
    try:
        await _present(svc, bot, record)
    except send.ChatGone:
        await _gone(svc, record)
    except send.ChatMoved as e:
        await migrate_chat(svc, e.chat_id, e.new_chat_id)
        fresh = await casino(svc).get_game(record.id)
        if fresh is None or fresh.chat_id == record.chat_id:
            return
        try:
            await _present(svc, bot, fresh)
        except send.ChatGone:
            await _gone(svc, fresh)
        except send.ChatMoved:
            log.warning("six-card game %d: its chat moved again; left to the sync job",
                        fresh.id)


async def _gone(svc: Services, record: GameRecord) -> None:
    if record.is_live:
        await abandon(svc, record)
    else:
        await casino(svc).mark_shown(record.id, record.version)


async def _present(svc: Services, bot: Bot, record: GameRecord) -> None:
    view = SixCardGame.from_json(record.state_json).public_view()
    tr, name = await player_translator(svc, record)
    photo = await draw(partial(render.sixcard, view, name=name, labels=tr))
    text = caption(tr, view, mention_html(record.user_id, name))
    markup = game_keyboard(tr, record.id, record.version, view) if record.is_live else None
    repo = casino(svc)
    if record.message_id is not None:
        edit = await send.edit_photo(bot, record.chat_id, record.message_id, photo, text, markup)
        if edit is send.Edit.DONE:
            await repo.set_message(record.id, record.message_id, record.version)
            return
        if edit is send.Edit.FAILED:
            return  # the sync job tries again
        log.info("six-card game %d: its message %d is gone; sending a fresh one", record.id,
                 record.message_id)
    sent = await send.send_photo(bot, record.chat_id, record.thread_id, photo, text, markup)
    if sent is not None:
        await repo.set_message(record.id, sent.message_id, record.version)


# --- after a restart, and whenever a message fell behind ---------------------------------


async def sync_game(svc: Services, bot: Bot, game_id: int) -> None:
    async with svc.lock(f"sixcard:{game_id}"):
        record = await casino(svc).get_game(game_id)
        if record is not None and record.needs_redraw and record.status is not GameStatus.ABANDONED:
            await present(svc, bot, record)


async def resume(app: Application[Any, Any, Any, Any, Any, Any]) -> None:
    """After a start: every game's message up to date, and the sync job armed."""
    svc = services(app.bot_data)
    lagging = await casino(svc).lagging()
    for record in lagging:
        await sync_game(svc, app.bot, record.id)
    if app.job_queue is not None:
        app.job_queue.run_repeating(sync_lagging, interval=SYNC_EVERY, first=SYNC_EVERY,
                                    name="sixcard-sync")
    log.info("resumed: %d six-card game message(s) redrawn", len(lagging))


async def sync_lagging(context: ContextTypes.DEFAULT_TYPE) -> None:
    svc = services(context.bot_data)
    now = svc.clock()
    for record in await casino(svc).lagging():
        if now - record.updated_at >= SYNC_GRACE:
            await sync_game(svc, context.bot, record.id)
