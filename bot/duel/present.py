"""Show a duel in its chat: bring its messages from the version they show to the saved one.

One message per bullet. While the bullet is on, its message is edited in place; when the bullet
is over that message becomes its reveal (no buttons) and a new message carries the next bullet,
the tiebreak offer or the result. The same routine serves a tap, a restart and the sync job,
because it only compares what the message shows (`shown`) with what is saved (`state`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from functools import partial

from telegram import Bot, InlineKeyboardMarkup

import render
from bot.common import live
from bot.common.chats import forget_chat
from bot.common.handlers import display_name
from bot.common.live import Screen
from bot.duel import keyboards
from bot.duel.captions import (
    Seat,
    bullet_caption,
    closed_offer_caption,
    offer_caption,
    result_caption,
    reveal_caption,
)
from bot.duel.service import GAME
from bot.i18n import Translator, pick_language, translator
from bot.services import Services
from bot.storage import DuelRecord
from bot.telegram import send
from bot.telegram.drawing import Drawer
from rules.duel import DuelState, Phase

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits at a duel's table and how it is shown there."""

    record: DuelRecord
    seats: tuple[Seat, Seat]
    tr: Translator
    lang: str
    show_cards_out: bool
    drawer: Drawer  # the one drawing thread (svc.drawer)

    @property
    def names(self) -> tuple[str, str]:
        return (self.seats[0].name, self.seats[1].name)


async def table_for(svc: Services, record: DuelRecord) -> Table:
    users = [await svc.storage.users.get(uid) for uid in record.players]
    settings = await svc.storage.chats.get_settings(record.chat_id)
    # The challenger's language, unless the chat fixed one.
    lang = pick_language(settings.language, users[0].language_code if users[0] else None)
    seats = (Seat(record.players[0], display_name(users[0])),
             Seat(record.players[1], display_name(users[1])))
    return Table(record, seats, translator(lang), lang, settings.show_cards_out, svc.drawer)


@dataclass(frozen=True, slots=True)
class Content:
    photo: bytes
    caption: str
    markup: InlineKeyboardMarkup | None


@dataclass(frozen=True, slots=True)
class Words:
    """A message's caption and buttons, without its picture."""

    caption: str
    markup: InlineKeyboardMarkup | None


def live_words(t: Table, state: DuelState) -> Words:
    view = state.public_view()
    if view.phase is Phase.BULLET:
        markup = keyboards.duel_bets(t.tr, t.record.id, t.record.version, view,
                                     state.legal_actions(view.to_act[0]))
        return Words(bullet_caption(t.tr, view, t.seats), markup)
    if view.phase is Phase.TIEBREAK_OFFER:
        markup = keyboards.tiebreak_offer(t.tr, t.record.id, t.record.version)
        return Words(offer_caption(t.tr, view, t.seats), markup)
    return Words(result_caption(t.tr, view, t.seats, state.end_reason), None)


async def live_content(t: Table, state: DuelState) -> Content:
    """The message for the duel's current moment: the table during a bullet, the stacks'
    chart at a tiebreak offer and at the end."""
    view = state.public_view()
    words = live_words(t, state)
    if view.phase is Phase.BULLET:
        photo = await t.drawer.draw(partial(render.table, view, names=t.names, labels=t.tr,
                                             show_cards_out=t.show_cards_out))
    else:
        photo = await t.drawer.draw(partial(render.result, view, names=t.names,
                                             labels=t.tr))
    return Content(photo, words.caption, words.markup)


def _same_message(shown: DuelState, state: DuelState) -> bool:
    """Does the message that shows `shown` also show `state` (edited in place)?"""
    if shown.phase is not state.phase or shown.round != state.round:
        return False
    if state.phase is Phase.BULLET:
        return shown.bullet == state.bullet
    return state.phase is Phase.TIEBREAK_OFFER


async def _close(bot: Bot, t: Table, shown: DuelState, state: DuelState, message_id: int) -> None:
    """Turn the message that showed `shown` into its final form, without buttons."""
    view = state.public_view()
    chat = t.record.chat_id
    if shown.phase is Phase.BULLET:
        result = next((r for r in view.results if r.number == shown.bullet), None)
        if result is not None:
            photo = await t.drawer.draw(partial(render.reveal, view, result,
                                                 names=t.names, labels=t.tr))
            caption = reveal_caption(t.tr, view, result, t.seats)
            await send.edit_photo(bot, chat, message_id, photo, caption, None)
            return
    if shown.phase is Phase.TIEBREAK_OFFER:
        await send.edit_caption(bot, chat, message_id, closed_offer_caption(t.tr, view),
                              None)
        return
    await send.drop_keyboard(bot, chat, message_id)  # a bullet ended by surrender or time


async def _edit_live(bot: Bot, t: Table, state: DuelState, message_id: int) -> send.Edit:
    """Edit the live message in place; a tiebreak offer's picture never changes, so only its
    caption and buttons are sent again."""
    chat = t.record.chat_id
    if state.phase is Phase.TIEBREAK_OFFER:
        words = live_words(t, state)
        return await send.edit_caption(bot, chat, message_id, words.caption, words.markup)
    c = await live_content(t, state)
    return await send.edit_photo(bot, chat, message_id, c.photo, c.caption, c.markup)


class DuelScreen(Screen[DuelRecord]):
    async def show(self, svc: Services, bot: Bot, record: DuelRecord) -> None:
        await _present(svc, bot, record)

    async def gone(self, svc: Services, record: DuelRecord) -> None:
        """A chat that threw the bot out loses its live duels (closed, not counted)."""
        await forget_chat(svc, record.chat_id)

    async def presented(self, svc: Services, record: DuelRecord) -> None:
        """`svc.on_presented` (the turn timers) follow the duel to its new move."""
        for listener in svc.on_presented:
            await listener(record)


LIVE = live.Live(GAME, DuelScreen())


async def present(svc: Services, bot: Bot, record: DuelRecord) -> None:
    """Bring the duel's messages from the version they show to the saved one
    (`bot.common.live`: a chat gone or moved is handled there), then `svc.on_presented`."""
    await LIVE.present(svc, bot, record)


async def repost(svc: Services, bot: Bot, record: DuelRecord) -> None:
    """Show a live duel again in a fresh message (its old one may be lost far up the chat, or
    deleted); the old message's buttons go."""
    if record.message_id is not None:
        try:
            await send.drop_keyboard(bot, record.chat_id, record.message_id)
        except send.ChatGone:
            await forget_chat(svc, record.chat_id)
            return
        except send.ChatMoved as e:
            await LIVE.moved(svc, bot, record, e)  # shown afresh in the new chat
            return
    await present(svc, bot, replace(record, message_id=None, shown_version=None))


# --- a press on a message that is not the saved live one ---------------------------------


async def adopt(svc: Services, record: DuelRecord, message_id: int, version: int) -> DuelRecord:
    """A press on one of the duel's own messages (its buttons, its chat) that the bot has not
    saved as the live one. If that message was made for the saved version and is newer than
    the saved message (a send that timed out but arrived, its id never learned), it is the
    live message: it is saved as such and the press goes on there. Returns the record as it
    now is."""
    newer = record.message_id is None or message_id > record.message_id
    if not (record.is_live and newer and version == record.version):
        return record
    if not await svc.storage.duels.set_message(record.id, message_id, record.version):
        return record
    log.info("duel %d: message %d arrived after all; it is the live one", record.id, message_id)
    return replace(record, message_id=message_id, shown_version=record.version)


async def retire(bot: Bot, record: DuelRecord, message_id: int, version: int) -> None:
    """A press on one of the duel's own messages older than the live one: it must not keep
    live buttons. A copy of what the live message shows (the same version: an extra of a
    send that was made again) is deleted; an earlier moment's message loses its buttons."""
    try:
        if version == record.version == record.shown_version:
            done = await send.delete(bot, record.chat_id, message_id)
            if done is not send.Edit.FAILED:
                log.info("duel %d: an extra copy %d of its live message deleted", record.id,
                         message_id)
                return
        await send.drop_keyboard(bot, record.chat_id, message_id)
    except (send.ChatGone, send.ChatMoved) as e:
        log.info("duel %d: could not retire message %d: %s", record.id, message_id, e)


async def _present(svc: Services, bot: Bot, record: DuelRecord) -> None:
    state = DuelState.from_json(record.state_json)
    live_id = record.message_id
    shown = None if live_id is None or record.shown_version is None else state.at(
        record.shown_version)  # the duel as its message shows it
    t = await table_for(svc, record)
    if live_id is not None and shown is not None:
        if _same_message(shown, state):
            if await LIVE.edited(svc, record, live_id,
                                 await _edit_live(bot, t, state, live_id)):
                return
        else:
            await _close(bot, t, shown, state, live_id)
    c = await live_content(t, state)
    await LIVE.sent(svc, record, await send.send_photo(
        bot, record.chat_id, record.thread_id, c.photo, c.caption, c.markup))
