"""Duel a friend anywhere (issue 38): typing the bot's @username in any chat offers a
challenge at the usual stacks (or the one typed); the chosen one is posted in that chat, from
the user, via the bot, with Accept / Decline / Withdraw. Whoever else accepts plays the duel
on that very message (`bot.duel.inline_table`).

The message is all there is of a challenge until a press on it (or Telegram's word that it
was chosen, with inline feedback on) writes it down (`bot.storage.inline`): its buttons carry
the challenger, the stack and the minute it was offered. A press settles it once, whichever
worker gets it. Accepting needs somewhere to send the table's picture first: one of the two
must have started the bot (else an alert says so, and nothing changes).
"""

from __future__ import annotations

import contextlib
import logging

from telegram import (
    CallbackQuery,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResultArticle,
    InputTextMessageContent,
    SwitchInlineQueryChosenChat,
    Update,
)
from telegram.constants import ParseMode
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import display_name, pressed, toast
from bot.duel import inline_table
from bot.duel.challenges import BadDuelCommand, parse_stack
from bot.duel.payloads import ChallengeOp, InlineChallengePress
from bot.duel.present import LIVE, present
from bot.duel.service import start_inline_duel
from bot.i18n import Translator, mention_html, pick_language, translator
from bot.services import Services, services
from bot.storage import ChallengeStatus
from bot.storage.inline import InlineRepo
from bot.telegram import press_ack, send, styles
from rules.duel import MAX_STACK, MIN_STACK

log = logging.getLogger(__name__)

STACKS = (30, 50, 100)  # offered when no stack is typed (the chat's default is unknown here)
OPEN_MINUTES = 24 * 60  # a challenge's buttons accept for a day after it was offered
RESULT = "duel:"  # an inline result's id: RESULT + its stack


def offered_stacks(query: str) -> tuple[int, ...]:
    """The stacks to offer for what was typed: a stack in range, else the usual ones."""
    for word in query.split():
        with contextlib.suppress(BadDuelCommand):
            return (parse_stack(word),)
    return tuple(s for s in STACKS if MIN_STACK <= s <= MAX_STACK)


def challenge_markup(tr: Translator, challenger_id: int, stack: int,
                     minute: int) -> InlineKeyboardMarkup:
    def button(key: str, op: ChallengeOp) -> InlineKeyboardButton:
        return styles.button(tr.t(key), InlineChallengePress(challenger_id, stack, minute, op))

    return InlineKeyboardMarkup([[button("button.accept", ChallengeOp.ACCEPT),
                                  button("button.decline", ChallengeOp.DECLINE),
                                  button("button.withdraw", ChallengeOp.WITHDRAW)]])


def challenge_friend_markup(tr: Translator) -> InlineKeyboardMarkup:
    """/duel in the bot's private chat: pick a friend or a group to post a challenge in."""
    anywhere = SwitchInlineQueryChosenChat(query="", allow_user_chats=True,
                                           allow_group_chats=True)
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        tr.t("button.challenge_friend"), switch_inline_query_chosen_chat=anywhere)]])


async def on_inline_query(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The challenges offered for what the user typed after the bot's @username."""
    query = update.inline_query
    if query is None:
        return
    user = query.from_user
    tr = translator(pick_language(None, user.language_code))
    minute = int(services(context.bot_data).clock() // 60)
    who = mention_html(user.id, user.full_name)
    results = [InlineQueryResultArticle(
        id=f"{RESULT}{stack}", title=tr.tn("inline.offer_title", stack),
        description=tr.t("inline.offer_description"),
        input_message_content=InputTextMessageContent(
            tr.tn("challenge.open", stack, challenger=who), parse_mode=ParseMode.HTML),
        reply_markup=challenge_markup(tr, user.id, stack, minute),
    ) for stack in offered_stacks(query.query)]
    await query.answer(results, cache_time=0, is_personal=True)


async def on_chosen(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Telegram says a challenge was posted (with inline feedback on): written down now."""
    chosen = update.chosen_inline_result
    if (chosen is None or chosen.inline_message_id is None
            or not chosen.result_id.startswith(RESULT)):
        return
    stack = chosen.result_id.removeprefix(RESULT)
    if not stack.isdecimal():
        return
    svc = services(context.bot_data)
    await svc.storage.of(InlineRepo).post(chosen.inline_message_id, chosen.from_user.id,
                                          int(stack), now=int(svc.clock()))


async def on_press(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Accept, Decline or Withdraw on a challenge posted through inline mode."""
    p = await pressed(update, context, InlineChallengePress)
    if p is None:
        return
    query, user, svc, tr, payload = p.query, p.user, p.svc, p.tr, p.payload
    where = query.inline_message_id
    if where is None:
        await toast(query, tr.t("toast.invalid"))
        return
    inline = svc.storage.of(InlineRepo)
    now = int(svc.clock())
    c = await inline.post(where, payload.challenger_id, payload.stack, now=now)
    if c.status is not ChallengeStatus.PENDING:
        await toast(query, tr.t("toast.challenge_gone"))
        return
    challenger = mention_html(c.challenger_id, await _name(svc, c.challenger_id))
    if payload.op is ChallengeOp.WITHDRAW:
        if user.id != c.challenger_id:
            await toast(query, tr.t("toast.not_your_challenge"))
        elif await inline.settle(where, ChallengeStatus.CANCELLED):
            await answer_quietly(query)
            await send.edit_inline_text(context.bot, where,
                                         tr.t("challenge.cancelled", challenger=challenger), None)
        return
    if user.id == c.challenger_id:
        await toast(query, tr.t("toast.decline_own" if payload.op is ChallengeOp.DECLINE
                                else "toast.own_challenge"))
        return
    if user.is_bot:
        await toast(query, tr.t("toast.not_for_you"))
        return
    if payload.op is ChallengeOp.DECLINE:
        if await inline.settle(where, ChallengeStatus.DECLINED):
            await answer_quietly(query)
            text = tr.t("challenge.declined", challenger=challenger,
                        target=mention_html(user.id, user.full_name))
            await send.edit_inline_text(context.bot, where, text, None)
        return
    if now // 60 - payload.minute > OPEN_MINUTES:
        if await inline.settle(where, ChallengeStatus.EXPIRED):
            await toast(query, tr.t("toast.challenge_gone"))
            await send.edit_inline_text(context.bot, where,
                                         tr.t("challenge.expired", challenger=challenger), None)
        return
    if not any([await inline_table.reachable(svc, u) for u in (c.challenger_id, user.id)]):
        await _alert(query, tr.t("inline.start_first", bot=context.bot.username or ""))
        return
    record = await start_inline_duel(svc, c, user.id)
    if record is None:  # someone else accepted it meanwhile, or these two are at a duel
        now_c = await inline.challenge(where)
        gone = now_c is None or now_c.status is not ChallengeStatus.PENDING
        await toast(query, tr.t("toast.challenge_gone" if gone else "inline.busy"))
        return
    await answer_quietly(query)
    async with LIVE.lock(svc, record.id):  # the sync job must not show it a second time
        await present(svc, context.bot, record)


async def _alert(query: CallbackQuery, text: str) -> None:
    """An answer the presser must dismiss (why nothing happened, and what to do)."""
    if press_ack.claim():
        await query.answer(text[:200], show_alert=True)


async def _name(svc: Services, user_id: int) -> str:
    return display_name(await svc.storage.users.get(user_id))
