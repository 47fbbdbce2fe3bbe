"""Practice duels against the bot (issue 12): `/practice [stack]` in a group or in private, or
`/duel` aimed at the bot (in reply to it, or `/duel @ThisBot`), offers a level; a press starts
the duel with the bot in seat 1 (`rules.duel.ai` plays it: `bot.duel.ai_turns`). A practice
duel is a duel like any other (saved before shown, timers, restarts, stale presses), except
that it writes no result (the chat's standings are people's) and its table has an Odds
button."""

from __future__ import annotations

import logging
import random
from typing import TYPE_CHECKING

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update, User
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import asked, pressed, reply, toast
from bot.duel import payloads
from bot.duel.challenges import BadDuelCommand, parse_stack
from bot.duel.present import LIVE, present
from bot.i18n import Html, Translator
from bot.services import Services
from bot.storage import DuelRecord, chat_lock, deals_of
from bot.telegram import send, styles
from rules.cards import shuffled_deck
from rules.duel import DuelState, choose_first_dealer
from rules.duel.searches import hand_odds
from rules.fairness import new_salt

if TYPE_CHECKING:
    from rules.duel.searches import HandOdds

log = logging.getLogger(__name__)

BOT_SEAT = 1  # the bot plays seat 1 of a practice duel; the person seat 0


def aimed_at_the_bot(message: Message, args: list[str], bot: User) -> bool:
    """Is this /duel aimed at this bot (a reply to one of its messages, or @its_username)?"""
    replied = message.reply_to_message
    if replied is not None and replied.from_user is not None and replied.from_user.id == bot.id:
        topic_root = message.is_topic_message and replied.message_id == message.message_thread_id
        if not topic_root:
            return True
    name = (bot.username or "").lower()
    return bool(name) and any(a.lower() == "@" + name for a in args)


def level_keyboard(tr: Translator, user_id: int, stack: int) -> InlineKeyboardMarkup:
    def button(level: payloads.AiLevel) -> InlineKeyboardButton:
        return styles.button(tr.t(f"practice.level_{level.level}"),
                             payloads.PracticePress(user_id, level, stack))

    return InlineKeyboardMarkup([[button(lv) for lv in payloads.AiLevel]])


async def offer(context: ContextTypes.DEFAULT_TYPE, update: Update, svc: Services,
                tr: Translator, user: User, chat_id: int, stack: int) -> None:
    """Ask which level the bot should play, unless the user is in a live duel here."""
    busy = await svc.storage.duels.live_for_user_in_chat(chat_id, user.id)
    if busy is not None:
        await reply(context, update, tr.t("error.you_busy"))
        return
    message, chat = update.effective_message, update.effective_chat
    if message is None or chat is None:
        return
    thread = message.message_thread_id if message.is_topic_message else None
    await send.send_text(context.bot, chat.id, thread, tr.t("practice.offer", stack=stack),
                         level_keyboard(tr, user.id, stack), reply_to=message.message_id)


async def practice(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    args = [x for x in (context.args or []) if not x.startswith("@")]
    stack = (await a.svc.storage.chats.get_settings(a.chat.id)).default_stack
    if len(args) > 1:
        await reply(context, update, a.tr.t("error.bad_args"))
        return
    if args:
        try:
            stack = parse_stack(args[0])
        except BadDuelCommand as e:
            await reply(context, update, e.refusal.text(a.tr))
            return
    await offer(context, update, a.svc, a.tr, a.user, a.chat.id, stack)


async def start_practice(svc: Services, bot_user: User, chat_id: int, thread_id: int | None,
                         user_id: int, level: str, stack: int) -> int | None:
    """Create the practice duel (saved first); its id, or None if the user is in a live duel
    here already."""
    storage = svc.storage
    await storage.users.upsert(bot_user.id, bot_user.first_name, bot_user.last_name,
                               bot_user.username, None, True, now=svc.clock())
    state = DuelState.new(stack, choose_first_dealer(svc.rng))
    state.deal(shuffled_deck(svc.rng), new_salt())
    async with storage.transaction(lock=chat_lock(chat_id)):  # one live duel, across workers
        if await storage.duels.live_for_user_in_chat(chat_id, user_id) is not None:
            return None
        record = await storage.duels.create(chat_id, thread_id, (user_id, bot_user.id),
                                            state.to_json(), svc.clock(),
                                            deals=deals_of(state.public_view()),
                                            ai_level=level)
    log.info("practice duel %d in chat %d: user %d vs the bot (%s), stack %d", record.id,
             chat_id, user_id, level, stack)
    return record.id


async def on_level(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.PracticePress)
    if p is None:
        return
    query, user, svc, tr, press = p.query, p.user, p.svc, p.tr, p.payload
    message = query.message
    if user.id != press.user_id or not isinstance(message, Message):
        await toast(query, tr.t("practice.not_yours"))
        return
    try:
        stack = parse_stack(str(press.stack))
    except BadDuelCommand:
        await toast(query, tr.t("toast.invalid"))
        return
    thread = message.message_thread_id if message.is_topic_message else None
    async with svc.lock(f"practice:{message.chat.id}:{user.id}"):
        duel_id = await start_practice(svc, context.bot.bot, message.chat.id, thread, user.id,
                                       press.level.level, stack)
    if duel_id is None:
        await toast(query, tr.t("error.you_busy"))
        return
    await answer_quietly(query)
    await send.edit_text(context.bot, message.chat.id, message.message_id,
                         tr.t("practice.started", level=tr.t(
                             f"practice.level_{press.level.level}")), None)
    async with LIVE.lock(svc, duel_id):
        record = await svc.storage.duels.get(duel_id)
        if record is not None:
            await present(svc, context.bot, record)


async def again(svc: Services, bot: Bot, record: DuelRecord) -> bool:
    """A rematch of a finished practice duel: the same level and stack, at once (False if
    the player is in a live duel here already, told so in the chat)."""
    stack = svc.storage.duels.state(record).start_stack
    user_id = record.players[0]
    assert record.ai_level is not None
    async with svc.lock(f"practice:{record.chat_id}:{user_id}"):
        duel_id = await start_practice(svc, bot.bot, record.chat_id, record.thread_id, user_id,
                                       record.ai_level, stack)
    if duel_id is None:
        return False
    async with LIVE.lock(svc, duel_id):
        fresh = await svc.storage.duels.get(duel_id)
        if fresh is not None:
            await present(svc, bot, fresh)
    return True


# --- odds -----------------------------------------------------------------------------------


def odds_text(tr: Translator, odds: list[HandOdds]) -> Html:
    lines = [tr.t("practice.odds_title")]
    for o in odds:
        lines.append(tr.t("practice.odds_hand", hand=o.position + 1,
                          pair=f"{o.pair_or_better:.0%}", bonus=f"{o.bonus:.1%}",
                          win=f"{o.wins:.0%}"))
    lines.append(tr.t("practice.odds_note"))
    return Html("\n".join(lines))


async def on_odds(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.OddsPress)
    if p is None:
        return
    query, user, svc, tr = p.query, p.user, p.svc, p.tr
    record = await svc.storage.duels.get(p.payload.duel_id)
    if record is None or not record.practice or record.player_index(user.id) is None:
        await toast(query, tr.t("practice.odds_players_only"))
        return
    state = svc.storage.duels.state(record)
    if not record.is_live or not state.public_view().hands:
        await toast(query, tr.t("toast.over"))
        return
    odds = await svc.offload.run(hand_odds, state.public_view(), random.Random(svc.rng.random()))
    await answer_quietly(query)
    message = query.message
    reply_to = message.message_id if isinstance(message, Message) else None
    await send.send_text(context.bot, record.chat_id, record.thread_id, odds_text(tr, odds),
                         reply_to=reply_to)
