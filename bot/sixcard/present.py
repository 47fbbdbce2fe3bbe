"""Show a six-card game in its chat: one message, edited in place from deal to payout.

The message is the table picture (`render.sixcard`, drawn in the shared drawing thread) with
the caption and the buttons of the saved version. The same routine serves a tap, a restart
and the sync job: it shows whatever is saved and records which version the message shows.
A finished game's message stays, with the result and no buttons.
"""

from __future__ import annotations

import logging
from functools import partial

from telegram import Bot

import render
from bot.common import live
from bot.common.handlers import display_name
from bot.common.live import Screen
from bot.i18n import Translator, mention_html, pick_language, translator
from bot.services import Services, services
from bot.sixcard.captions import caption
from bot.sixcard.keyboards import game_keyboard
from bot.sixcard.service import GAME, abandon, games
from bot.storage.chat_move import ChatMove
from bot.storage.sixcard import SixCardRecord
from bot.telegram import App, send

log = logging.getLogger(__name__)

async def player_translator(svc: Services, record: SixCardRecord) -> tuple[Translator, str]:
    """The player's language (unless the chat fixed one) and their name."""
    user = await svc.storage.users.get(record.user_id)
    settings = await svc.storage.chats.get_settings(record.chat_id)
    lang = pick_language(settings.language, user.language_code if user else None)
    return translator(lang), display_name(user)


async def chat_deck(svc: Services, record: SixCardRecord) -> render.Deck:
    """The chat's card colours (its settings are read once an update: no second query)."""
    settings = await svc.storage.chats.get_settings(record.chat_id)
    return render.Deck.FOUR if settings.four_colour_deck else render.Deck.CLASSIC


class SixCardScreen(Screen[SixCardRecord]):
    async def show(self, svc: Services, bot: Bot, record: SixCardRecord,
                   note: str | None = None) -> None:
        await _present(svc, bot, record)

    async def gone(self, svc: Services, record: SixCardRecord) -> None:
        """The chat threw the bot out: its live game is closed, not counted, the chips back
        on the balance."""
        if record.is_live:
            await abandon(svc, record)
        else:
            await games(svc).mark_shown(record.id, record.version)


LIVE = live.Live(GAME, SixCardScreen())


async def present(svc: Services, bot: Bot, record: SixCardRecord) -> None:
    """Bring the game's message up to the saved version (`bot.common.live`)."""
    await LIVE.present(svc, bot, record)


async def _present(svc: Services, bot: Bot, record: SixCardRecord) -> None:
    view = games(svc).state(record).public_view()
    tr, name = await player_translator(svc, record)
    photo = await svc.drawer.draw(partial(render.sixcard, view, name=name, labels=tr,
                                          deck=await chat_deck(svc, record)))
    text = caption(tr, view, mention_html(record.user_id, name))
    markup = game_keyboard(tr, record.id, record.version, view) if record.is_live else None
    if record.message_id is not None:
        edit = await send.edit_photo(bot, record.chat_id, record.message_id, photo, text, markup)
        if await LIVE.edited(svc, record, record.message_id, edit):
            return
    await LIVE.sent(svc, record, await send.send_photo(bot, record.chat_id, record.thread_id,
                                                       photo, text, markup))


async def show_moved(svc: Services, bot: Bot, moved: ChatMove) -> None:
    """A group became a supergroup: its live games are shown there at once."""
    for game_id in moved.live_of(LIVE.game.kind):
        await LIVE.sync(svc, bot, game_id)


async def resume(app: App) -> None:
    """After a start: every game's message up to date (the one sync job keeps them so)."""
    done = await LIVE.resync(services(app.bot_data), app.bot)
    log.info("resumed: %d six-card game message(s) redrawn", done)
