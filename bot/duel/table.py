"""A duel's table at one moment, as any place shows it: who sits there (`Table`, their
names and the language), its words and buttons (`live_words`) and its picture
(`live_content`): the table during a bullet and at a tiebreak offer, the result at the end.
`bot.duel.present` shows it in a chat, `bot.duel.inline_table` on an inline message."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from telegram import InlineKeyboardMarkup

import render
from bot.common.handlers import display_name
from bot.duel import keyboards
from bot.duel.captions import Seat, bullet_caption, offer_caption, result_caption
from bot.i18n import Translator, pick_language, translator
from bot.services import Services
from bot.storage import DuelRecord
from bot.telegram.drawing import Drawer
from rules.duel import DuelState, Phase


@dataclass(frozen=True, slots=True)
class Table:
    """Who sits at a duel's table and how it is shown there."""

    record: DuelRecord
    seats: tuple[Seat, Seat]
    tr: Translator
    lang: str
    show_cards_out: bool
    drawer: Drawer  # the one drawing thread (svc.drawer)
    keep_reveals: bool = False  # each finished bullet stays as its own reveal message
    headed: bool = True  # the duel's header is in its chat (it carries the commitments)
    deck: render.Deck = render.Deck.CLASSIC  # the chat's card colours

    @property
    def names(self) -> tuple[str, str]:
        return (self.seats[0].name, self.seats[1].name)


async def table_for(svc: Services, record: DuelRecord) -> Table:
    known = await svc.storage.users.get_many(record.players)
    users = [known[uid] for uid in record.players]
    settings = await svc.storage.chats.get_settings(record.chat_id)
    # The challenger's language, unless the chat fixed one.
    lang = pick_language(settings.language, users[0].language_code if users[0] else None)
    seats = (Seat(record.players[0], display_name(users[0])),
             Seat(record.players[1], display_name(users[1]), record.practice))
    return Table(record, seats, translator(lang), lang, settings.show_cards_out, svc.drawer,
                 settings.keep_reveals,
                 deck=render.Deck.FOUR if settings.four_colour_deck else render.Deck.CLASSIC)


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


def live_words(t: Table, state: DuelState, note: str | None = None) -> Words:
    view = state.public_view()
    if view.phase is Phase.BULLET:
        markup = keyboards.duel_bets(t.tr, t.record.id, t.record.version, view,
                                     state.legal_actions(view.to_act[0]),
                                     odds=t.record.practice)
        caption = bullet_caption(t.tr, view, t.seats, commitment=not t.headed)
    elif view.phase is Phase.TIEBREAK_OFFER:
        markup = keyboards.tiebreak_offer(t.tr, t.record.id, t.record.version)
        caption = offer_caption(t.tr, view, t.seats)
    else:
        markup = keyboards.result(t.tr, t.record.id, view)
        caption = result_caption(t.tr, view, t.seats, state.end_reason)
    return Words(f"{note}\n{caption}" if note else caption, markup)


async def live_content(t: Table, state: DuelState, note: str | None = None) -> Content:
    """The message for the duel's current moment: the table during a bullet and at a
    tiebreak offer, the result (with its scorecard) at the end."""
    view = state.public_view()
    words = live_words(t, state, note)
    if view.phase is Phase.OVER:
        photo = await t.drawer.draw(partial(render.result, view, names=t.names, labels=t.tr,
                                             reason=state.end_reason, deck=t.deck))
    else:
        photo = await t.drawer.draw(partial(render.table, view, names=t.names, labels=t.tr,
                                             show_cards_out=t.show_cards_out, deck=t.deck))
    return Content(photo, words.caption, words.markup)


