"""The six-card game's buttons: exactly the legal actions of the moment, each with its cost.

    Buy 6th card (−10)              a sixth card for the box being decided
    K♠ (−20)  7♦ (−20)  2♣ (−20)    replace: tap the card to drop (the player's own cards)
    Play (−20)   Fold               the BET, or give the box up
    Buy the dealer a game (−10)  No
    Settle: ante 1:1                 when the balance cannot pay the dealer's game

Callback data carries the game id, the version the buttons were drawn for and the action's
code (bot.telegram.callbacks), never a card.
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.i18n import Translator
from bot.sixcard import payloads
from bot.telegram import styles
from render.text import signed
from rules.sixcard import (
    BET,
    BUY_FEE,
    GAME_FEE,
    REPLACE_FEE,
    Replace,
    SixAction,
    SixCardView,
    SixPhase,
    parse_action,
)

CARDS_PER_ROW = 3


def _button(text: str, game_id: int, version: int, action: SixAction) -> InlineKeyboardButton:
    return styles.button(text, payloads.SixCardPress(game_id, version, action))


def game_keyboard(tr: Translator, game_id: int, version: int,
                  view: SixCardView) -> InlineKeyboardMarkup | None:
    """The buttons for the game's current moment; None when nothing is asked (over)."""
    if view.to_act is None or not view.legal:
        return None
    box = view.boxes[view.to_act]
    ante = box.ante
    actions = [parse_action(code) for code in view.legal]

    def button(key: str, code: str, **values: object) -> InlineKeyboardButton:
        return _button(tr.t(key, **values), game_id, version, parse_action(code))

    if view.phase is SixPhase.DEALER_GAME:
        offer = []
        if "g" in view.legal:
            offer.append(button("sixcard.button_game_yes", "g", fee=signed(-GAME_FEE * ante)))
        if "n" in view.legal:  # alone when the balance cannot pay the dealer's game
            offer.append(button("sixcard.button_game_no" if offer else
                                "sixcard.button_game_settle", "n"))
        return InlineKeyboardMarkup([offer])
    rows: list[list[InlineKeyboardButton]] = []
    if "b" in view.legal:
        rows.append([button("sixcard.button_buy", "b", fee=signed(-BUY_FEE * ante))])
    replaces = [a for a in actions if isinstance(a, Replace)]
    if replaces and box.cards is not None:
        fee = signed(-REPLACE_FEE * ante)
        row: list[InlineKeyboardButton] = []
        for action in replaces:
            row.append(button("sixcard.button_replace", str(action),
                              card=box.cards[action.index].display, fee=fee))
            if len(row) == CARDS_PER_ROW:
                rows.append(row)
                row = []
        if row:
            rows.append(row)
    last = []
    if "p" in view.legal:
        last.append(button("sixcard.button_play", "p", bet=signed(-BET * ante)))
    if "f" in view.legal:
        last.append(button("sixcard.button_fold", "f"))
    rows.append(last)
    return InlineKeyboardMarkup(rows)
