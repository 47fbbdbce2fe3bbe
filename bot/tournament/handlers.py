"""/tournament and a tournament's buttons (t:...): join, leave, start, cancel the sign-up, and
a pairing's "play" (a challenge to the other player, or the answer to theirs).

Who may: anyone joins or leaves a sign-up (its opener cannot leave: they cancel it); the
opener or a chat admin starts or cancels one; only a pairing's two players play it. Each
tournament's presses are handled one after another (its lock)."""

from __future__ import annotations

import logging

from telegram import Bot, Update, User
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import asked, chat_language, is_admin, names_of, pressed, reply, toast
from bot.common.refusal import Refusal
from bot.duel.challenges import accept
from bot.duel.handlers import post_challenge
from bot.services import Services
from bot.storage.tournaments import TournamentRecord, TournamentStatus
from bot.telegram import send
from bot.tournament import jobs, payloads, present
from bot.tournament.service import (
    Answer,
    BadTournamentCommand,
    Field,
    load,
    parse_command,
    play,
    start,
)

log = logging.getLogger(__name__)

GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)
Op = payloads.TournamentOp


async def may_run(bot: Bot, t: TournamentRecord, user_id: int) -> bool:
    """The opener or one of the chat's admins (asked of Telegram)."""
    return user_id == t.opener_id or await is_admin(bot, t.chat_id, user_id)


async def _send_signup(svc: Services, bot: Bot, t: TournamentRecord) -> None:
    """The sign-up message, sent anew (the one before it deleted) and recorded."""
    field = await load(svc, t.id)
    if field is None:
        return
    tr = await present.language(svc, t)
    names = await names_of(svc, [*field.players, t.opener_id])
    sent = await send.send_text(bot, t.chat_id, t.thread_id,
                                present.signup_text(tr, field, names),
                                present.signup_keyboard(tr, t.id))
    if sent is None:
        return
    if t.message_id is not None:
        svc.janitor.delete_later(bot, t.chat_id, t.message_id)
    await svc.storage.tournaments.set_message(t.id, sent.message_id, t.shown)


async def tournament(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """`/tournament [double] [12h|2d]` opens a sign-up; with one open, shows it again (the
    sign-up or the table); `/tournament cancel` ends it (its opener or an admin)."""
    a = await asked(update, context)
    if a is None:
        return
    message, chat, user, svc, tr = a.message, a.chat, a.user, a.svc, a.tr
    if chat.type not in GROUPS:
        await reply(context, update, tr.t("tournament.group_only"))
        return
    args = list(context.args or [])
    try:
        request = parse_command(args)
    except BadTournamentCommand as e:
        await reply(context, update, e.refusal.text(tr))
        return
    repo = svc.storage.tournaments
    thread = message.message_thread_id if message.is_topic_message else None
    current = await repo.current(chat.id, thread)
    if request.cancel:
        if current is None:
            await reply(context, update, tr.t("tournament.none"))
        elif not await may_run(context.bot, current, user.id):
            await reply(context, update, tr.t("tournament.runners_only"))
        elif await repo.cancel(current.id, current.version):
            log.info("tournament %d in chat %d cancelled by user %d", current.id, chat.id,
                     user.id)
            await _after_cancel(svc, context.bot, current.id)
            await reply(context, update, tr.t("tournament.cancelled"))
        return
    if current is not None:
        if args:
            await reply(context, update, tr.t("tournament.exists"))
        elif current.status is TournamentStatus.SIGNUP:
            await _send_signup(svc, context.bot, current)
        else:
            field = await load(svc, current.id)
            if field is not None:
                await present.post_table(svc, context.bot, field)
        return
    stack = (await svc.storage.chats.get_settings(chat.id)).default_stack
    opened = await repo.open(chat.id, thread, user.id, stack, request.double,
                             request.round_seconds, svc.clock())
    if opened is None:  # opened by someone else meanwhile
        await reply(context, update, tr.t("tournament.exists"))
        return
    log.info("tournament %d opened in chat %d by user %d", opened.id, chat.id, user.id)
    await _send_signup(svc, context.bot, opened)


async def _after_cancel(svc: Services, bot: Bot, tournament_id: int) -> None:
    field = await load(svc, tournament_id)
    if field is None:
        return
    if field.matches:  # it was running: its table's buttons go
        if field.record.message_id is not None:
            await send.drop_keyboard(bot, field.record.chat_id, field.record.message_id)
    else:
        await present.edit_signup(svc, bot, field)


async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.TournamentPress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    async with svc.lock(f"tournament:{press.tournament_id}"):
        refusal = await _press(context, svc, user, press)
    if refusal is None:
        await answer_quietly(query)
    else:
        await toast(query, refusal.text(tr))


async def _press(context: ContextTypes.DEFAULT_TYPE, svc: Services, user: User,
                 press: payloads.TournamentPress) -> Refusal | None:
    field = await load(svc, press.tournament_id)
    if field is None:
        return Refusal("toast.invalid")
    t, repo, bot = field.record, svc.storage.tournaments, context.bot
    if press.op is Op.MATCH:
        return await _play(context, svc, user, press.match or 0, field)
    if t.status is not TournamentStatus.SIGNUP:
        return Refusal("tournament.toast_over")
    if press.op is Op.JOIN:
        if user.id in field.players:
            return Refusal("tournament.toast_already_in")
        if not await repo.join(t.id, user.id):
            return Refusal("tournament.toast_full")
    elif press.op is Op.LEAVE:
        if user.id == t.opener_id:
            return Refusal("tournament.toast_opener_stays")
        if not await repo.leave(t.id, user.id):
            return Refusal("tournament.toast_not_in")
    elif not await may_run(bot, t, user.id):
        return Refusal("tournament.runners_only")
    elif press.op is Op.CANCEL:
        if not await repo.cancel(t.id, t.version):
            return Refusal("tournament.toast_stale")
        log.info("tournament %d cancelled by user %d", t.id, user.id)
    else:
        started = await start(svc, field, jobs.scale_of(context.bot_data))
        if isinstance(started, Refusal):
            return started
    fresh = await load(svc, t.id)
    if fresh is not None:
        await present.edit_signup(svc, bot, fresh)
        if fresh.record.status is TournamentStatus.RUNNING:
            await present.post_table(svc, bot, fresh, notify=None)  # everyone: it began
    return None


async def _play(context: ContextTypes.DEFAULT_TYPE, svc: Services, user: User, idx: int,
                field: Field) -> Refusal | None:
    outcome = await play(svc, field, idx, user.id)
    if isinstance(outcome, Refusal):
        return outcome
    challenge = await svc.storage.challenges.get(outcome.challenge_id)
    if challenge is None:
        return Refusal("toast.challenge_gone")
    if isinstance(outcome, Answer):
        challenger = await svc.storage.users.get(challenge.challenger_id)
        ctr = await chat_language(svc, challenge.chat_id,
                                  challenger.language_code if challenger else None)
        async with svc.lock(f"challenge:{challenge.id}"):
            started = await accept(svc, context.bot, ctr, challenge, user)
        return None if started is not None else Refusal("toast.challenge_gone")
    await post_challenge(context, svc, challenge, user.language_code)
    return None
