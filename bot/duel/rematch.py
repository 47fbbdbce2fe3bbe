"""A finished duel's result buttons: Rematch (either player challenges the other with the same
stack; when both tap it, the second tap accepts the first's challenge; against the bot, a new
practice duel at the same level starts at once), Standings (the chat's
/stats board, in reply to the result) and Review (`bot.duel.reviews`, in reply to it)."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import chat_language, pressed, toast
from bot.duel import payloads, practice
from bot.duel.challenges import accept
from bot.duel.handlers import post_challenge
from bot.duel.reviews import reviewer_of
from bot.stats.handlers import show_board
from bot.storage.challenges import AlreadyPending

log = logging.getLogger(__name__)


async def on_result(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.ResultPress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    record = await svc.storage.duels.get(press.duel_id)
    if record is None or record.is_live:
        await toast(query, tr.t("toast.invalid"))
        return
    if press.op is payloads.ResultOp.STANDINGS:
        await answer_quietly(query)
        await show_board(context, update, svc, tr, record.chat_id, user.id)
        return
    if press.op is payloads.ResultOp.REVIEW:
        reviewer = reviewer_of(context.bot_data)
        if reviewer is None:  # (not started yet)
            await toast(query, tr.t("review.pending"))
        else:
            await reviewer.on_press(context.bot, query, tr, record)
        return
    seat = record.player_index(user.id)
    if seat is None:
        await toast(query, tr.t("toast.rematch_players_only"))
        return
    if record.practice:  # against the bot: the same level and stack again, at once
        if await svc.storage.duels.live_for_user_in_chat(record.chat_id, user.id) is not None:
            await toast(query, tr.t("error.you_busy"))
            return
        await answer_quietly(query)
        await practice.again(svc, context.bot, record)
        return
    other = record.players[1 - seat]
    storage, chat_id = svc.storage, record.chat_id
    for player, key in ((user.id, "error.you_busy"), (other, "error.target_busy")):
        if await storage.duels.live_for_user_in_chat(chat_id, player) is not None:
            await toast(query, tr.t(key))
            return
    stack = svc.storage.duels.state(record).start_stack
    theirs = [c for c in await storage.challenges.pending_by_challenger(chat_id, other)
              if c.target_id == user.id and c.stack == stack]
    if theirs:  # the other player asked first: this tap is the answer
        challenger = await storage.users.get(other)
        ctr = await chat_language(svc, chat_id, challenger.language_code if challenger else None)
        async with svc.lock(f"challenge:{theirs[0].id}"):
            started = await accept(svc, context.bot, ctr, theirs[0], user)
        if started is None:
            await toast(query, tr.t("toast.challenge_gone"))
        else:
            await answer_quietly(query)
        return
    now = svc.clock()
    created = await storage.challenges.create(
        chat_id=chat_id, thread_id=record.thread_id, challenger_id=user.id, target_id=other,
        target_username=None, stack=stack, created_at=now, expires_at=now + svc.challenge_ttl)
    if isinstance(created, AlreadyPending):
        await toast(query, tr.t("error.pending_exists"))
        return
    log.info("challenge %d in chat %d: a rematch of duel %d by user %d", created.id, chat_id,
             record.id, user.id)
    await toast(query, tr.t("toast.rematch_sent"))
    await post_challenge(context, svc, created, user.language_code)
