"""/verify: check a round's deck order against the commitment published before play.

`/verify COMMITMENT SALT DECK` checks what it is given (the result's copy buttons copy exactly
that command for each deal). `/verify` in reply to any message of a duel (its header, its live
table, a reveal, its result) checks every finished deal of that duel: the commitment published
before play against the salt and deck revealed after it. In reply to another message (an
older bot's, a forwarded proof) it reads the commitment, salt or deck order in it, finds that
round among the chat's duels (bot.duel.rounds) and checks what the message shows.
"""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from bot.common.handlers import asked, reply
from bot.duel.rounds import InPlay, Published, RoundCheck, find_round, rounds_of
from bot.fairness.verify import Malformed, Parts, claim, claim_from_args, proof_parts
from bot.i18n import Html, Translator
from rules.fairness import deck_text


def _published(tr: Translator, found: Published, parts: Parts) -> Html:
    """What the message shows, checked against the commitment published for its round. A
    message that shows only the commitment is answered with the round's salt and deck."""
    proof = found.proof
    if parts.salt is None or parts.deck is None:
        return tr.t("verify.round_revealed", round=proof.round, duel=found.duel_id,
                    commitment=proof.commitment, salt=proof.salt, deck=deck_text(proof.deck))
    try:
        shown = claim(proof.commitment, parts.salt, parts.deck)
    except Malformed as e:
        return e.refusal.text(tr)
    key = "verify.round_match" if shown.holds else "verify.round_mismatch"
    return tr.t(key, round=proof.round, duel=found.duel_id, commitment=proof.commitment)


def _label(tr: Translator, check: RoundCheck) -> Html:
    if check.tiebreak_bullet is not None:
        return tr.t("verify.label_tiebreak", bullet=check.tiebreak_bullet)
    return tr.t("verify.label_round", round=check.round)


def _duel_report(tr: Translator, duel_id: int, checks: list[RoundCheck]) -> Html:
    """Every deal of one duel: checked, or still in play."""
    lines = [tr.t("verify.duel_title", duel=duel_id)]
    for c in checks:
        key = ("verify.duel_in_play" if c.holds is None else
               "verify.duel_round_ok" if c.holds else "verify.duel_round_bad")
        lines.append(tr.t(key, label=_label(tr, c), commitment=c.commitment))
    if any(c.holds is not None for c in checks):
        lines.append(tr.t("verify.duel_by_hand"))
    return Html("\n".join(lines))


def _given(tr: Translator, args: list[str]) -> Html:
    """COMMITMENT SALT DECK checked as they are."""
    try:
        c = claim_from_args(args)
    except Malformed as e:
        return e.refusal.text(tr)
    return tr.t("verify.match" if c.holds else "verify.mismatch", commitment=c.commitment)


async def verify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    a = await asked(update, context)
    if a is None:
        return
    message, chat, svc, tr = a.message, a.chat, a.svc, a.tr
    args = list(context.args or [])
    if args:
        await reply(context, update, _given(tr, args))
        return
    replied = message.reply_to_message
    text = (replied.caption or replied.text or "") if replied is not None else ""
    if replied is not None:
        record = await svc.storage.duels.by_message(chat.id, replied.message_id)
        if record is not None:  # one of a duel's own messages
            await reply(context, update, _duel_report(tr, record.id, rounds_of(record, text)))
            return
    parts = proof_parts(text)
    if parts.salt is None and parts.commitment is None:
        await reply(context, update, tr.t("verify.usage"))
        return
    found = await find_round(svc.storage, chat.id, parts)
    if isinstance(found, Published):
        await reply(context, update, _published(tr, found, parts))
    elif isinstance(found, InPlay):
        await reply(context, update, tr.t("verify.in_play"))
    elif parts.commitment and parts.salt and parts.deck:  # all there: check it as given
        await reply(context, update, _given(tr, [parts.commitment, parts.salt, parts.deck]))
    else:
        await reply(context, update, tr.t("verify.not_found"))
