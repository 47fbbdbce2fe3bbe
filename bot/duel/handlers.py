"""The duel's commands and buttons: /duel, /cancel, /surrender, a challenge's
accept/decline/withdraw. A duel's bets and tiebreak answers are `present.LIVE`'s
(bot.common.live: `Live.handler`).

Every press is answered exactly once: a toast saying why nothing happened, or a silent answer
once the action is saved (and to the same press again, a double tap of the move just made).
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import asked, chat_language, pressed, reply, toast
from bot.common.refusal import Refusal
from bot.duel import inline, keyboards, payloads, practice
from bot.duel.challenges import (
    BadDuelCommand,
    accept,
    may_accept,
    may_decline,
    parse_duel_command,
    render_challenge,
    settle,
)
from bot.duel.jobs import schedule_expiry
from bot.duel.practice import aimed_at_the_bot
from bot.duel.present import LIVE, present, repost
from bot.duel.service import act
from bot.services import Services
from bot.storage import ChallengeRecord, ChallengeStatus
from bot.storage.challenges import AlreadyPending
from bot.telegram import send
from rules.duel import Surrender

log = logging.getLogger(__name__)

GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)


async def duel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    message, chat, user, svc, tr = a.message, a.chat, a.user, a.svc, a.tr
    if chat.type == "private":  # a duel with a friend anywhere, through inline mode
        await send.send_text(context.bot, chat.id, None, tr.t("inline.private_duel"),
                             inline.challenge_friend_markup(tr))
        return
    if chat.type not in GROUPS:
        await reply(context, update, tr.t("error.group_only"))
        return
    try:
        request = parse_duel_command(message, list(context.args or []))
    except BadDuelCommand as e:
        await reply(context, update, e.refusal.text(tr))
        return
    storage = svc.storage
    if aimed_at_the_bot(message, list(context.args or []), context.bot.bot):
        settings = await storage.chats.get_settings(chat.id)  # a practice duel instead
        await practice.offer(context, update, svc, tr, user, chat.id,
                             request.stack or settings.default_stack)
        return
    target_id = request.target_id
    if request.target is not None and not request.target.is_bot:
        t = request.target  # privacy mode hides their messages: learn their name from here
        await storage.users.upsert(t.id, t.first_name, t.last_name, t.username,
                                   t.language_code, t.is_bot, now=svc.clock())
    if request.target_username and target_id is None:
        known = await storage.users.find_by_username(request.target_username)
        if known is not None:
            target_id = known.id
            if known.is_bot:
                await reply(context, update, tr.t("error.bot"))
                return
    if request.target_is_bot:
        await reply(context, update, tr.t("error.bot"))
        return
    if target_id == user.id or (
            request.target_username or "").lower() == (user.username or "-").lower():
        await reply(context, update, tr.t("error.self"))
        return
    busy = await storage.duels.live_for_user_in_chat(chat.id, user.id)
    if busy is not None:
        await reply(context, update, tr.t("error.you_busy"))
        async with LIVE.lock(svc, busy.id):  # and bring the duel back into view
            fresh = await storage.duels.get(busy.id)
            if fresh is not None and fresh.is_live:
                await repost(svc, context.bot, fresh)
        return
    if target_id is not None and await storage.duels.live_for_user_in_chat(chat.id, target_id):
        await reply(context, update, tr.t("error.target_busy"))
        return
    settings = await storage.chats.get_settings(chat.id)
    now = svc.clock()
    created = await storage.challenges.create(  # one transaction with the one-pending check
        chat_id=chat.id, thread_id=message.message_thread_id if message.is_topic_message
        else None, challenger_id=user.id, target_id=target_id,
        target_username=None if target_id is not None else request.target_username,
        stack=request.stack or settings.default_stack, created_at=now,
        expires_at=now + svc.challenge_ttl,
    )
    if isinstance(created, AlreadyPending):
        await reply(context, update, tr.t("error.pending_exists"))
        return
    log.info("challenge %d in chat %d by user %d (target %s, stack %d)", created.id, chat.id,
             user.id, target_id or request.target_username or "open", created.stack)
    await post_challenge(context, svc, created, user.language_code)


async def post_challenge(context: ContextTypes.DEFAULT_TYPE, svc: Services,
                          c: ChallengeRecord, language_code: str | None) -> None:
    """Send a saved challenge's message (its buttons carry the challenge's id and version)
    and record it. A send that failed undoes the challenge, so nobody is blocked by a
    challenge that no one can see."""
    storage = svc.storage
    ctr = await chat_language(svc, c.chat_id, language_code)
    text = await render_challenge(svc, ctr, c)
    sent = None
    try:
        sent = await send.send_text(context.bot, c.chat_id, c.thread_id, text,
                                  keyboards.challenge(ctr, c))
    finally:
        if sent is None:
            await storage.challenges.discard_unsent(c.id)
            log.warning("challenge %d in chat %d: its message was not sent, so it is undone",
                        c.id, c.chat_id)
    if sent is None:
        return
    if await storage.challenges.set_message(c.id, sent.message_id):
        await schedule_expiry(context.application, c.id, svc.challenge_ttl)
        return  # from now on, whoever settles it edits this message
    fresh = await storage.challenges.get(c.id)
    if fresh is not None and not fresh.is_pending:
        # Settled while its message was on its way (accepted at once, withdrawn, or closed
        # as never sent), by someone who could not know the message: it must not keep live
        # buttons.
        if fresh.status is ChallengeStatus.ACCEPTED:
            await send.drop_keyboard(context.bot, c.chat_id, sent.message_id)
        else:
            settled = await render_challenge(svc, ctr, fresh, fresh.status)
            await send.edit_text(context.bot, c.chat_id, sent.message_id, settled, None)


async def cancel(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    chat, user, svc, tr = a.chat, a.user, a.svc, a.tr
    pending = await svc.storage.challenges.pending_by_challenger(chat.id, user.id)
    if not pending:
        await reply(context, update, tr.t("error.no_pending"))
        return
    ctr = await chat_language(svc, chat.id, user.language_code)
    for c in pending:
        await settle(svc, context.bot, ctr, c, ChallengeStatus.CANCELLED)
    await reply(context, update, tr.t("cancel.done"))


async def surrender(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    chat, user, svc, tr = a.chat, a.user, a.svc, a.tr
    record = await svc.storage.duels.live_for_user_in_chat(chat.id, user.id)
    if record is None:
        await reply(context, update, tr.t("error.no_duel"))
        return
    async with LIVE.lock(svc, record.id):
        outcome = await act(svc, record.id, None, user.id, Surrender())
        if isinstance(outcome, Refusal):
            await reply(context, update, outcome.text(tr))
            return
        await present(svc, context.bot, outcome.record)


# --- buttons ----------------------------------------------------------------------------


async def on_challenge(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.ChallengePress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    c = await svc.storage.challenges.get(press.challenge_id)
    if c is None or not c.is_pending or c.version != press.version:
        await toast(query, tr.t("toast.challenge_gone"))
        return
    challenger = await svc.storage.users.get(c.challenger_id)
    ctr = await chat_language(svc, c.chat_id, challenger.language_code if challenger else None)
    if press.op == payloads.ChallengeOp.WITHDRAW:
        if user.id != c.challenger_id:
            await toast(query, tr.t("toast.not_your_challenge"))
            return
        settled = await settle(svc, context.bot, ctr, c, ChallengeStatus.CANCELLED)
        await toast(query, tr.t("toast.withdrawn" if settled else "toast.challenge_gone"))
        return
    if press.op == payloads.ChallengeOp.DECLINE:  # only by the challenged player
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
