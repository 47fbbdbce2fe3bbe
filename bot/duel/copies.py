"""A press on a duel's message that is not its saved live one: a send that timed out but
arrived (its id never learned) becomes the live message; an older copy (a send made again,
or one whose deletion has not happened) moves nothing and loses its buttons. `DuelScreen`
asks here for every press (`bot.common.live`)."""

from __future__ import annotations

import logging
from dataclasses import replace

from telegram import Bot, MaybeInaccessibleMessage, Message

from bot.duel import payloads
from bot.services import Services
from bot.storage import ChatMessage, DuelRecord
from bot.telegram import callbacks

log = logging.getLogger(__name__)


def shows_duel(message: MaybeInaccessibleMessage | None, record: DuelRecord) -> bool:
    """Is the pressed message one of this duel's own (in its chat, with its buttons)? Forged
    callback data can arrive on any message: that one must not lose its buttons."""
    if not isinstance(message, Message) or message.chat.id != record.chat_id:
        return False
    markup = message.reply_markup
    if markup is None:
        return False
    for row in markup.inline_keyboard:
        for button in row:
            try:
                press = callbacks.decode(button.callback_data, payloads.PAYLOADS)
            except callbacks.CallbackDataError:
                continue
            if isinstance(press, payloads.DuelPress) and press.duel_id == record.id:
                return True
    return False


async def pressed_on(svc: Services, bot: Bot, record: DuelRecord,
                     message: MaybeInaccessibleMessage | None,
                     version: int) -> tuple[DuelRecord, bool]:
    """The duel to act on, once a press on one of its own messages that was newer than the
    saved live one is adopted; and whether the pressed message is an old one (not live)."""
    pressed_id = message.message_id if message is not None else None
    # Only a message newer than the saved live one can be adopted: the press on the live one
    # itself (nearly every press) does not read the keyboard's 25 buttons.
    if (pressed_id is not None and _newer(pressed_id, record)
            and shows_duel(message, record)):
        record = await adopt(svc, bot, record, pressed_id, version)
    return record, record.message_id not in (None, pressed_id)


def _newer(message_id: int, record: DuelRecord) -> bool:
    """Is this message newer than the duel's saved live one (or is none saved)?"""
    return record.message_id is None or message_id > record.message_id


async def adopt(svc: Services, bot: Bot, record: DuelRecord, message_id: int,
                version: int) -> DuelRecord:
    """A press on one of the duel's own messages (its buttons, its chat) that the bot has not
    saved as the live one. If that message was made for the saved version and is newer than
    the saved message (a send that timed out but arrived, its id never learned), it is the
    live message: it is saved as such, the one it replaces is deleted (as any message a turn
    left), and the press goes on there. Returns the record as it now is."""
    if not (record.is_live and _newer(message_id, record) and version == record.version):
        return record
    if not await svc.storage.duels.set_message(
            record.id, ChatMessage(record.chat_id, message_id), record.version):
        return record
    log.info("duel %d: message %d arrived after all; it is the live one", record.id, message_id)
    if record.message_id is not None:
        svc.janitor.delete_later(bot, record.chat_id, record.message_id)
    return replace(record, message_id=message_id, shown_version=record.version)


async def retire(svc: Services, bot: Bot, record: DuelRecord,
                 message: MaybeInaccessibleMessage | None, version: int) -> None:
    """A press on one of the duel's own messages older than the live one: it must not keep
    live buttons, so it is deleted, unless it is deleted already or about to be."""
    if message is None or not shows_duel(message, record):
        return
    message_id = message.message_id
    if svc.janitor.handled(record.chat_id, message_id):
        return
    log.info("duel %d: an old copy %d of its live message (v%d) is deleted", record.id,
             message_id, version)
    svc.janitor.delete_later(bot, record.chat_id, message_id)
