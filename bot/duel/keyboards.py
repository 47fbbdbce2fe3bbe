"""The duel's inline keyboards (its bets, the tiebreak offer, the result's buttons, a
challenge's buttons), built from the legal actions and the callback codec."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import CopyTextButton, InlineKeyboardButton, InlineKeyboardMarkup

from bot.duel import payloads
from bot.i18n import Translator
from bot.storage import ChallengeRecord
from bot.telegram import styles
from rules.duel import Action, Bet, DealProof, PublicView, TiebreakAnswer
from rules.fairness import deck_text

COPY_TEXT_MAX = 256  # Telegram's limit for a copy_text button's text


def _duel_button(text: str, duel_id: int, version: int, action: Action) -> InlineKeyboardButton:
    return styles.button(text, payloads.DuelPress(duel_id, version, action))


def bet_word(tr: Translator, bet: Bet, bonus_duel: bool) -> str:
    """A bet as its button says it: `Pass 1`, `Play 2`, or in a bonus duel `Stake 2`."""
    if bonus_duel:
        return tr.t("button.stake", chips=bet.chips)
    return tr.t("button.pass" if bet.chips == 1 else "button.play", chips=bet.chips)


def duel_bets(tr: Translator, duel_id: int, version: int, view: PublicView,
              actions: Sequence[Action], odds: bool = False) -> InlineKeyboardMarkup:
    """One row per hand the player may choose: `#3 A♠ · Pass 1` and `Play 2` (in a bonus
    duel only the stake, `#3 A♠ · Stake 2`, the picture's word). Face-up cards only: the row
    shows what the table shows. `odds`: a practice duel's Odds and Hint buttons below (side by
    side)."""
    rows: list[list[InlineKeyboardButton]] = []
    by_hand: dict[int, list[Bet]] = {}
    for action in actions:
        if isinstance(action, Bet):
            by_hand.setdefault(action.position, []).append(action)
    for position in sorted(by_hand):
        face = view.hands[position].face_up.display
        row = []
        for i, bet in enumerate(sorted(by_hand[position], key=lambda b: b.chips)):
            word = bet_word(tr, bet, view.bonus_duel)
            label = tr.t("button.hand", hand=position + 1, card=face, bet=word) if i == 0 \
                else word
            row.append(_duel_button(label, duel_id, version, bet))
        rows.append(row)
    if odds:
        rows.append([
            styles.button(tr.t("button.odds"), payloads.OddsPress(duel_id)),
            styles.button(tr.t("button.hint"), payloads.HintPress(duel_id))])
    return InlineKeyboardMarkup(rows)


def tiebreak_offer(tr: Translator, duel_id: int, version: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[
        _duel_button(tr.t("button.tiebreak_yes"), duel_id, version, TiebreakAnswer(True)),
        _duel_button(tr.t("button.tiebreak_no"), duel_id, version, TiebreakAnswer(False)),
    ]])


def proof_command(proof: DealProof) -> str:
    """A finished deal's proof as the command that checks it (what its copy button copies):
    `/verify COMMITMENT SALT DECK`, 210 characters."""
    return f"/verify {proof.commitment} {proof.salt} {deck_text(proof.deck)}"


def result(tr: Translator, duel_id: int, view: PublicView) -> InlineKeyboardMarkup:
    """Rematch, Standings and Review; then one button per finished deal that copies its proof
    (long hex does not belong in prose: tap, paste, send)."""
    def press(key: str, op: payloads.ResultOp) -> InlineKeyboardButton:
        return styles.button(tr.t(key), payloads.ResultPress(duel_id, op))

    rows = [[press("button.rematch", payloads.ResultOp.REMATCH),
             press("button.standings", payloads.ResultOp.STANDINGS),
             press("button.review", payloads.ResultOp.REVIEW)]]
    copies = []
    for proof in view.proofs:
        text = proof_command(proof)
        if len(text) > COPY_TEXT_MAX:  # cannot happen with 16-byte salts
            continue
        label = (tr.t("button.copy_tiebreak", bullet=view.max_bullets + proof.round - view.rounds)
                 if view.is_tiebreak_round(proof.round) else
                 tr.t("button.copy_round", round=proof.round))
        copies.append(InlineKeyboardButton(label, copy_text=CopyTextButton(text)))
    for start in range(0, len(copies), 3):
        rows.append(copies[start:start + 3])
    return InlineKeyboardMarkup(rows)


def challenge(tr: Translator, c: ChallengeRecord) -> InlineKeyboardMarkup:
    """Accept (and Decline, for a challenge to someone) and the challenger's Withdraw."""
    def button(key: str, op: payloads.ChallengeOp) -> InlineKeyboardButton:
        return styles.button(tr.t(key), payloads.ChallengePress(c.id, c.version, op))

    row = [button("button.accept", payloads.ChallengeOp.ACCEPT)]
    if c.target_id is not None or c.target_username:
        row.append(button("button.decline", payloads.ChallengeOp.DECLINE))
    row.append(button("button.withdraw", payloads.ChallengeOp.WITHDRAW))
    return InlineKeyboardMarkup([row])
