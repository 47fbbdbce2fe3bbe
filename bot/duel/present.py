"""Show a duel in its chat: bring its messages from the version they show to the saved one.

A duel has few messages, so a group's chat stays readable (issue 11):

* **its header**: the challenge's message, edited when the duel starts and again whenever a
  deal is dealt, to carry that deal's commitment (the proof published before play stays in
  view for the whole duel);
* **one live message**: the table (the bullet just finished folded in beside it), the
  tiebreak offer, and at the end the result (with a scorecard of every bullet). Whenever the
  turn passes, the live message is sent anew, mentioning whoever must act (Telegram notifies
  a new message, never an edit), and the one it replaces is deleted. Only a tiebreak answer,
  which leaves the other player to decide, edits it in place.
* with the chat's "keep every reveal" setting, a finished bullet's message is turned into its
  reveal instead of being deleted.

The same routine serves a tap, a restart and the sync job, because it only compares what the
message shows (`shown`) with what is saved (`state`).
"""

from __future__ import annotations

import logging
from dataclasses import replace
from functools import partial

from telegram import Bot, MaybeInaccessibleMessage

import render
from bot.common import live
from bot.common.chats import forget_chat
from bot.common.live import Screen
from bot.duel import copies, inline_table
from bot.duel.captions import deals_of, header_caption, reveal_caption
from bot.duel.service import GAME
from bot.duel.table import Table, live_content, live_words, table_for
from bot.services import Services
from bot.storage import DuelRecord
from bot.telegram import send
from rules.duel import DuelState, Phase

log = logging.getLogger(__name__)


def _edited_in_place(shown: DuelState, state: DuelState) -> bool:
    """Is the change from `shown` to `state` one that tells no one new it is their turn (a
    tiebreak answer, the other player still to decide)? Then the message is edited; any
    other change passes the turn and is sent anew."""
    return (shown.phase is Phase.TIEBREAK_OFFER and state.phase is Phase.TIEBREAK_OFFER
            and shown.round == state.round)


async def _show_header(svc: Services, bot: Bot, t: Table, state: DuelState) -> bool:
    """Edit the duel's header (its challenge's message) when a deal it does not show yet was
    dealt: once per deal. False when the duel has no header in its chat (its group moved to
    a supergroup, which leaves the header behind)."""
    view = state.public_view()
    dealt = len(deals_of(view))
    if 0 < dealt <= t.record.header_rounds:
        return True  # shown there already (a chat's move to a supergroup sets it back to 0)
    challenge = await svc.storage.challenges.of_duel(t.record.id)
    if challenge is None or challenge.message_id is None or challenge.chat_id != t.record.chat_id:
        return False
    if dealt <= t.record.header_rounds:
        return True
    done = await send.edit_text(bot, t.record.chat_id, challenge.message_id,
                                header_caption(t.tr, view, t.seats), None)
    if done is send.Edit.FAILED:
        return True  # the next present tries again
    if done is send.Edit.DONE:
        await svc.storage.duels.note_message(t.record.chat_id, challenge.message_id,
                                             t.record.id, "header")
    await svc.storage.duels.set_header_rounds(t.record.id, dealt)  # (GONE: deleted for good)
    return done is send.Edit.DONE


async def _retire_shown(svc: Services, bot: Bot, t: Table, shown: DuelState,
                        state: DuelState, message_id: int) -> str:
    """The live message that showed `shown`, once a fresh one shows `state`: turned into the
    reveal of the bullet it ended when the chat keeps reveals, else deleted as soon as the
    chat's flood budget has room (`svc.janitor`: the fresh message went first). What became
    of it: "reveal" or "gone"."""
    chat = t.record.chat_id
    view = state.public_view()
    ended = view.results[len(shown.results):]
    if t.keep_reveals and shown.phase is Phase.BULLET and ended:
        photo = await t.drawer.draw(partial(render.reveal, view, ended[0], names=t.names,
                                             labels=t.tr, deck=t.deck))
        caption = reveal_caption(t.tr, view, ended[0], t.seats)
        if await send.edit_photo(bot, chat, message_id, photo, caption, None) is send.Edit.DONE:
            return "reveal"
    svc.janitor.delete_later(bot, chat, message_id)
    return "gone"


class DuelScreen(Screen[DuelRecord]):
    async def show(self, svc: Services, bot: Bot, record: DuelRecord,
                   note: str | None = None) -> None:
        await _present(svc, bot, record, note)

    async def gone(self, svc: Services, record: DuelRecord) -> None:
        """A chat that threw the bot out loses its live duels (closed, not counted)."""
        await forget_chat(svc, record.chat_id)

    async def presented(self, svc: Services, record: DuelRecord) -> None:
        """`svc.on_presented` (the turn timers) follow the duel to its new move."""
        for listener in svc.on_presented:
            await listener(record)

    async def pressed_on(self, svc: Services, bot: Bot, record: DuelRecord,
                         message: MaybeInaccessibleMessage | None,
                         version: int) -> tuple[DuelRecord, bool]:
        if record.inline:  # its one message, or its nudge: the version tells an old press
            return record, False
        return await copies.pressed_on(svc, bot, record, message, version)

    async def retire(self, svc: Services, bot: Bot, record: DuelRecord,
                     message: MaybeInaccessibleMessage | None, version: int) -> None:
        await copies.retire(svc, bot, record, message, version)


LIVE = live.Live(GAME, DuelScreen())


async def present(svc: Services, bot: Bot, record: DuelRecord, note: str | None = None) -> None:
    """Bring the duel's messages from the version they show to the saved one
    (`bot.common.live`: a chat gone or moved is handled there), then `svc.on_presented`.
    A `note` (what the clock did, a reminder) is news: it comes first in a freshly sent live
    message."""
    await LIVE.present(svc, bot, record, note)


async def repost(svc: Services, bot: Bot, record: DuelRecord, note: str = "") -> None:
    """Show a live duel again in a fresh message, which notifies whoever must act (its old
    one may be lost far up the chat); the old message goes."""
    await present(svc, bot, record, note)


async def _present(svc: Services, bot: Bot, record: DuelRecord, note: str | None) -> None:
    if record.inline:
        await inline_table.present(svc, bot, record, note)
        return
    state = svc.storage.duels.state(record)  # read only
    t = await table_for(svc, record)
    t = replace(t, headed=await _show_header(svc, bot, t, state))
    live_id = record.message_id
    shown = None if live_id is None or record.shown_version is None else svc.storage.duels.at(
        record, state, record.shown_version)  # the duel as its live message shows it
    if live_id is not None and shown is not None and note is None:
        if record.shown_version == record.version:
            return  # shown already
        if _edited_in_place(shown, state):
            words = live_words(t, state)
            edit = await send.edit_caption(bot, record.chat_id, live_id, words.caption,
                                           words.markup)
            if await LIVE.edited(svc, record, live_id, edit):
                return
            live_id = None  # deleted meanwhile: a fresh one follows
    c = await live_content(t, state, note)
    sent = await send.send_photo(bot, record.chat_id, record.thread_id, c.photo, c.caption,
                                 c.markup)
    if sent is None:
        return  # the sync job sends it later; the old one stays live meanwhile
    await LIVE.sent(svc, record, sent)
    await svc.storage.duels.note_message(record.chat_id, sent, record.id,
                                         "result" if state.is_over else "live")
    if live_id is not None and live_id != sent:
        kept = await _retire_shown(svc, bot, t, shown or state, state, live_id)
        if kept == "reveal":
            await svc.storage.duels.note_message(record.chat_id, live_id, record.id, "reveal")
