"""Six-card poker's commands: /sixcard, /balance, /rebuy. The game's taps are
`present.LIVE`'s (bot.common.live: `Live.handler`), each answered exactly once: a toast
saying why nothing happened, or a silent answer once the action is saved (then the message is
brought up to date).
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ContextTypes

from bot.common.handlers import asked, display_name, reply
from bot.i18n import WAIT, duration, mention_html
from bot.sixcard.args import BadArgs, parse_args
from bot.sixcard.present import LIVE, present
from bot.sixcard.service import Busy, Contended, Unaffordable, games, rebuy, start_game
from bot.storage.balances import START_BALANCE, RebuyRefusal
from render.text import signed

log = logging.getLogger(__name__)

async def sixcard_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None or a.user.is_bot:
        return
    message, chat, user, svc, tr = a.message, a.chat, a.user, a.svc, a.tr
    try:
        antes = parse_args(list(context.args or []))
    except BadArgs as e:
        await reply(context, update, "\n".join((e.refusal.text(tr), tr.t("sixcard.usage"))))
        return
    thread = message.message_thread_id if message.is_topic_message else None
    started = await start_game(svc, chat.id, thread, user.id, antes)
    if isinstance(started, Busy):
        live = started.record  # point at its message when it is in this topic
        await reply(context, update, tr.t("sixcard.error_busy"),
                     reply_to=live.message_id if live.thread_id == thread else None)
        return
    if isinstance(started, Unaffordable):
        lines = [tr.t("sixcard.error_afford", need=tr.tn("chips", started.need),
                      balance=started.balance)]
        if started.balance == 0:
            lines.append(tr.t("sixcard.balance_zero", amount=START_BALANCE))
        await reply(context, update, "\n".join(lines))
        return
    if isinstance(started, Contended):
        await reply(context, update, tr.t("sixcard.error_retry"))
        return
    async with LIVE.lock(svc, started.id):
        await present(svc, context.bot, started)


async def balance_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None or a.user.is_bot:
        return
    chat, user, svc, tr = a.chat, a.user, a.svc, a.tr
    record = await svc.storage.balances.balance(chat.id, user.id, now=svc.clock())
    name = mention_html(user.id, display_name(await svc.storage.users.get(user.id)))
    lines = [tr.t("sixcard.balance", name=name, chips=tr.tn("chips", record.balance))]
    live = await games(svc).live_game(chat.id, user.id)
    if live is not None:
        game = games(svc).state(live)
        lines.append(tr.t("sixcard.balance_live",
                          chips=tr.tn("chips", game.start_balance - game.balance)))
    if record.games or record.rebuys:
        lines.append(tr.t("sixcard.balance_stats", games=record.games, net=signed(record.net),
                          rebuys=record.rebuys))
    if record.balance == 0 and live is None:
        lines.append(tr.t("sixcard.balance_zero", amount=START_BALANCE))
    await reply(context, update, "\n".join(lines))


async def rebuy_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None or a.user.is_bot:
        return
    chat, user, svc, tr = a.chat, a.user, a.svc, a.tr
    outcome = await rebuy(svc, chat.id, user.id)
    chips = tr.tn("chips", outcome.balance.balance)
    if outcome.refusal is None:
        text = tr.t("sixcard.rebuy_done", chips=chips, rebuys=outcome.balance.rebuys)
    elif outcome.refusal is RebuyRefusal.NOT_ZERO:
        text = tr.t("sixcard.rebuy_not_zero", chips=chips)
    elif outcome.refusal is RebuyRefusal.IN_PLAY:
        text = tr.t("sixcard.rebuy_in_play")
    else:
        text = tr.t("sixcard.rebuy_too_soon", wait=duration(tr, outcome.wait, WAIT))
    await reply(context, update, text)

