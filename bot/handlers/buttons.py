"""Button handlers: a duel's bets and tiebreak answers, a challenge's accept/decline/withdraw.

Every press is answered exactly once: a toast saying why nothing happened, or a silent answer
once the action is saved.
"""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Message, Update
from telegram.ext import ContextTypes

from bot.challenges import accept, may_accept, may_decline, settle
from bot.game import STALE
from bot.handlers.common import chat_language, pressed, toast, user_translator
from bot.handlers.errors import answer_quietly
from bot.present import LIVE, adopt, retire
from bot.services import services
from bot.storage import ChallengeStatus, DuelRecord
from bot.telegram import callbacks

log = logging.getLogger(__name__)


def _shows_duel(query: CallbackQuery, record: DuelRecord) -> bool:
    """Is the pressed message one of this duel's own (in its chat, with its buttons)? Forged
    callback data can arrive on any message: that one must not lose its buttons."""
    message = query.message
    if not isinstance(message, Message) or message.chat.id != record.chat_id:
        return False
    prefix = f"d:{record.id}:"
    markup = message.reply_markup
    return markup is not None and any(
        isinstance(b.callback_data, str) and b.callback_data.startswith(prefix)
        for row in markup.inline_keyboard for b in row)


async def on_duel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, callbacks.DuelPress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    async with LIVE.lock(svc, press.duel_id):
        record = await svc.storage.duels.get(press.duel_id)
        pressed_id = query.message.message_id if query.message else None
        if record is not None and pressed_id is not None and _shows_duel(query, record):
            record = await adopt(svc, record, pressed_id, press.version)  # a send that arrived
        if record is not None and record.is_live and record.message_id not in (
                None, pressed_id) and record.player_index(user.id) is not None:
            # A button on a message that is no longer the duel's live one.
            await toast(query, STALE.text(tr))
            if pressed_id is not None and _shows_duel(query, record):
                await retire(context.bot, record, pressed_id, press.version)
            return
        await LIVE.press(svc, context.bot, query, tr, user.id, press.duel_id, press.version,
                         press.action)


async def on_challenge(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, callbacks.ChallengePress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    c = await svc.storage.challenges.get(press.challenge_id)
    if c is None or not c.is_pending or c.version != press.version:
        await toast(query, tr.t("toast.challenge_gone"))
        return
    challenger = await svc.storage.users.get(c.challenger_id)
    ctr = await chat_language(svc, c.chat_id, challenger.language_code if challenger else None)
    if press.op == callbacks.ChallengeOp.WITHDRAW:
        if user.id != c.challenger_id:
            await toast(query, tr.t("toast.not_your_challenge"))
            return
        settled = await settle(svc, context.bot, ctr, c, ChallengeStatus.CANCELLED)
        await toast(query, tr.t("toast.withdrawn" if settled else "toast.challenge_gone"))
        return
    if press.op == callbacks.ChallengeOp.DECLINE:  # only by the challenged player
        why_not = may_decline(c, user)
        if why_not is not None:
            log.info("challenge %d: a decline by user %d refused: %s", c.id, user.id, why_not)
            await toast(query, why_not.text(tr))
            return
        settled = await settle(svc, context.bot, ctr, c, ChallengeStatus.DECLINED, by=user)
        await toast(query, tr.t("toast.declined" if settled else "toast.challenge_gone"))
        return
    why_not = may_accept(c, user)
    if why_not is not None:
        await toast(query, why_not.text(tr))
        return
    duels = svc.storage.duels
    if await duels.live_for_user_in_chat(c.chat_id, user.id) is not None:
        await toast(query, tr.t("error.you_busy"))
        return
    if await duels.live_for_user_in_chat(c.chat_id, c.challenger_id) is not None:
        await toast(query, tr.t("toast.challenger_busy"))
        return
    async with svc.lock(f"challenge:{c.id}"):
        record = await accept(svc, context.bot, ctr, c, user)
    if record is None:
        await toast(query, tr.t("toast.challenge_gone"))
        return
    await answer_quietly(query)  # the duel is saved and shown: a failed answer changes nothing


async def on_unknown(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Callback data that no handler knows: forged, or from an older version of the bot."""
    query = update.callback_query
    if query is None:
        return
    tr = await user_translator(services(context.bot_data), update)
    await toast(query, tr.t("toast.invalid"))
