"""A duel between friends anywhere, shown on the inline message its challenge was posted as
(issue 38), and the private message that tells whoever must act that it is their turn.

* **One message, edited.** Every move edits the inline message: the table with its buttons,
  then the result. The bot knows it by its id alone (no chat), may edit it but never delete
  it, and an edit may not upload a picture: the picture goes there by the `file_id` of a copy
  sent first to a player's private chat with the bot.
* **The nudge** is that copy: an edit notifies nobody, so whoever must act gets the table in
  their private chat, with its buttons (a move can be made there too), sent anew at every
  turn so that it notifies, the previous one deleted; none when they turned nudges off in
  /settings there. When nobody to act can be told (they never started the bot, or do not
  want nudges), the copy goes silently to the other player (to one to act who wants no
  nudges when the other never started the bot: the picture must go somewhere), and the
  table says once how to get nudges. The nudges go when the duel ends; the result's copy
  stays, silently.
* **A message its chat deleted** ends its duel, not counted, the next time the bot edits it
  (a move, or the turn timer's reminder or timeout).
"""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.duel.table import Content, Table, live_content, table_for
from bot.i18n import Html, mention_html, pick_language, translator
from bot.services import Services
from bot.storage import DuelRecord
from bot.storage.games import InlineMessage
from bot.telegram import send
from rules.duel import DuelState, Phase, PublicView

log = logging.getLogger(__name__)

NUDGE, RESULT = "nudge", "result"  # the kinds of a duel's messages in its players' chats


async def reachable(svc: Services, user_id: int) -> bool:
    """Has the user started the bot (their private chat with it is known, and not blocked)?"""
    chat = await svc.storage.chats.get(user_id)
    return chat is not None and chat.active and chat.type == "private"


async def wants_nudges(svc: Services, user_id: int) -> bool:
    return (await reachable(svc, user_id)
            and (await svc.storage.chats.get_settings(user_id)).nudges)


async def present(svc: Services, bot: Bot, record: DuelRecord, note: str | None) -> None:
    """Bring the inline message to the saved version (`note`: news said first, such as what
    the clock did, and a nudge anew)."""
    if record.inline_message_id is None:
        raise ValueError(f"duel {record.id} is not shown on an inline message")
    if record.shown_version == record.version and note is None:
        return
    state = svc.storage.duels.state(record)
    t = replace(await table_for(svc, record), headed=False)  # its proofs in the caption
    c = await live_content(t, state, note)
    markup = inline_buttons(state.public_view(), c.markup)
    caption = c.caption
    if record.version == 0:
        caption = f"{caption}\n{await _how_to_be_nudged(svc, bot, t)}".rstrip()
    file_id = await _copies(svc, bot, t, state, replace(c, markup=markup))
    where = record.inline_message_id
    if file_id is not None:
        edit = await send.edit_inline_photo(bot, where, file_id, caption, markup)
    else:
        edit = await send.edit_inline_words(bot, where, caption, markup)
    if edit is send.Edit.DONE:
        await svc.storage.duels.set_message(record.id, InlineMessage(where), record.version)
    elif edit is send.Edit.GONE:
        await _gone(svc, bot, record)


def inline_buttons(view: PublicView,
                   markup: InlineKeyboardMarkup | None) -> InlineKeyboardMarkup | None:
    """The buttons of an inline duel: a group's, but a result's Rematch posts a new challenge
    through inline mode in the same chat, and its Standings (a chat's board) are left out."""
    if markup is None or view.phase is not Phase.OVER:
        return markup
    rows: list[list[InlineKeyboardButton]] = []
    for row in markup.inline_keyboard:
        kept: list[InlineKeyboardButton] = []
        for button in row:
            data = button.callback_data if isinstance(button.callback_data, str) else ""
            if data.endswith(":m"):  # rematch
                kept.append(InlineKeyboardButton(
                    button.text, switch_inline_query_current_chat=str(view.start_stack)))
            elif not data.endswith(":s"):  # standings
                kept.append(button)
        if kept:
            rows.append(kept)
    return InlineKeyboardMarkup(rows)


async def _how_to_be_nudged(svc: Services, bot: Bot, t: Table) -> str:
    """A line for the players the bot cannot tell of their turn (they never started it)."""
    out = [seat for seat in t.seats if not await reachable(svc, seat.user_id)]
    if not out:
        return ""
    names = Html(", ".join(mention_html(s.user_id, s.name) for s in out))
    return t.tr.t("inline.how_to_be_nudged", names=names, bot=bot.username or "")


async def _copies(svc: Services, bot: Bot, t: Table, state: DuelState, c: Content) -> str | None:
    """Send the table to the private chats it goes to (see the module doc) and delete the
    duel's previous nudges; the file_id of the picture, or None when nobody can get one."""
    record, duels = t.record, svc.storage.duels
    old = await duels.messages_of(record.id, NUDGE)
    file_id: str | None = None
    sent: list[tuple[int, int]] = []
    to_act = () if state.is_over else tuple(record.players[p] for p in state.players_to_act)
    for user_id in to_act:
        if not await wants_nudges(svc, user_id):
            continue
        up = await _send_copy(svc, bot, user_id, await _nudge_caption(svc, t, user_id), c.photo,
                              c.markup, silent=False)
        if up is not None:
            sent.append((user_id, up.message_id))
            await duels.note_message(user_id, up.message_id, record.id, NUDGE)
            file_id = file_id or up.file_id
    if file_id is None:
        # The other player first; else one to act who wants no nudges (silently all the
        # same): without a copy somewhere the table would keep its old picture.
        others = [u for u in record.players if u not in to_act]
        for user_id in [*others, *(u for u in record.players if u not in others)]:
            if not await reachable(svc, user_id):
                continue
            up = await _send_copy(svc, bot, user_id, c.caption, c.photo,
                                  None if state.is_over else c.markup, silent=True)
            if up is not None:
                kind = RESULT if state.is_over else NUDGE
                if kind == NUDGE:
                    sent.append((user_id, up.message_id))
                await duels.note_message(user_id, up.message_id, record.id, kind)
                file_id = up.file_id
                break
    for chat_id, message_id in old:
        if (chat_id, message_id) not in sent:
            await svc.janitor.delete_journaled(bot, chat_id, message_id)
            await duels.forget_message(chat_id, message_id)
    return file_id


async def _send_copy(svc: Services, bot: Bot, user_id: int, caption: str, photo: bytes,
                     markup: InlineKeyboardMarkup | None, *,
                     silent: bool) -> send.Uploaded | None:
    try:
        return await send.upload(bot, user_id, photo, caption, markup, silent=silent)
    except send.ChatGone:  # they blocked the bot: not reachable any more
        await svc.storage.chats.mark_left(user_id, now=int(svc.clock()))
        return None


async def _nudge_caption(svc: Services, t: Table, user_id: int) -> str:
    """"Your move" in the player's own language (their private chat's, else Telegram's)."""
    user = await svc.storage.users.get(user_id)
    settings = await svc.storage.chats.get_settings(user_id)
    tr = translator(pick_language(settings.language, user.language_code if user else None))
    other = next(s for s in t.seats if s.user_id != user_id)
    return tr.t("inline.nudge", opponent=other.name)


async def _gone(svc: Services, bot: Bot, record: DuelRecord) -> None:
    """The inline message was deleted in its chat: the duel ends there, not counted."""
    log.info("duel %d: its inline message is gone; abandoned", record.id)
    await svc.storage.duels.abandon(record.id, now=int(svc.clock()))
    for chat_id, message_id in await svc.storage.duels.messages_of(record.id, NUDGE):
        await svc.janitor.delete_journaled(bot, chat_id, message_id)
        await svc.storage.duels.forget_message(chat_id, message_id)


__all__ = ["NUDGE", "RESULT", "inline_buttons", "present", "reachable", "wants_nudges"]
