"""The Hint button of a practice duel (issue 22): the best three moves for its player now
(hand and stake), each with its chance to win the duel, judged as the `hard` level plays
(`rules.duel.advice.hint`: `rules.duel.judge`, through the review's `move_values`) from the
public view only. Computed in the search process (`bot.offload`), as the Odds, the reviews and
the bot's moves are, so no tap waits on it. Each hint shown is counted on the duel
(`DuelRepo.add_hint`), and the duel's review says how many were taken. A duel between people
has no Hint button, and a press on one is refused."""

from __future__ import annotations

import logging
import random

from telegram import Message, Update
from telegram.ext import ContextTypes

from bot.common.errors import answer_quietly
from bot.common.handlers import pressed, toast
from bot.duel import payloads
from bot.i18n import Html, Translator
from bot.telegram import send
from rules.duel import Bet, Phase, PublicView
from rules.duel.searches import hint

log = logging.getLogger(__name__)

def hint_text(tr: Translator, view: PublicView, moves: list[tuple[Bet, float]]) -> Html:
    lines = [tr.t("hint.title", bullet=view.bullet)]
    for place, (bet, chance) in enumerate(moves, start=1):
        word = "button.pass" if bet.chips == 1 and not view.bonus_duel else "button.play"
        lines.append(tr.t("hint.move", place=place, hand=bet.position + 1,
                          card=view.hands[bet.position].face_up.display,
                          bet=tr.t(word, chips=bet.chips), chance=f"{chance * 100:.0f}"))
    lines.append(tr.t("hint.note"))
    return Html("\n".join(lines))


async def on_hint(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    p = await pressed(update, context, payloads.HintPress)
    if p is None:
        return
    query, user, svc, tr = p.query, p.user, p.svc, p.tr
    record = await svc.storage.duels.get(p.payload.duel_id)
    seat = None if record is None else record.player_index(user.id)
    if record is None or not record.practice or seat is None:
        await toast(query, tr.t("hint.players_only"))
        return
    state = svc.storage.duels.state(record)
    view = state.public_view()
    if not record.is_live or view.phase is Phase.OVER:
        await toast(query, tr.t("toast.over"))
        return
    if view.phase is not Phase.BULLET or seat not in view.to_act:
        await toast(query, tr.t("hint.not_your_move"))
        return
    moves = await svc.offload.run(hint, view, seat, random.Random(svc.rng.random()))
    if not moves:
        await toast(query, tr.t("hint.one_move"))
        return
    await answer_quietly(query)
    hints = await svc.storage.duels.add_hint(record.id)
    log.info("practice duel %d: hint %d at version %d", record.id, hints, record.version)
    message = query.message
    reply_to = message.message_id if isinstance(message, Message) else None
    await send.send_text(context.bot, record.chat_id, record.thread_id,
                         hint_text(tr, view, moves), reply_to=reply_to)
