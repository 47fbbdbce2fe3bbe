"""The six-card game's caption, from its public view and the catalogs. HTML, escaped.

Only what the view shows: the dealer's face-up card until the reveal, a box's cards once it is
opened. Chips are plain numbers; a net is signed (+150, −30, ±0: render.text.signed, as in the
picture).
"""

from __future__ import annotations

from bot.i18n import Html, Translator
from render.text import signed
from rules.cards import Card
from rules.hands import HandValue, evaluate
from rules.sixcard import (
    GAME_FEE,
    REPLACE_FEE,
    BoxOutcome,
    BoxState,
    SixBoxView,
    SixCardView,
    SixPhase,
    qualifies,
)


def cards_text(cards: tuple[Card, ...]) -> str:
    return " ".join(c.display for c in cards)


def category(tr: Translator, value: HandValue, *, mid: bool = False) -> Html:
    """The hand's name; `mid` for one inside a sentence (lower case, `hand_lc.*`)."""
    return tr.t(f"{'hand_lc' if mid else 'hand'}.{value.category.name.lower()}")


def _box_line(tr: Translator, box: SixBoxView, current: bool) -> Html:
    n = box.box + 1
    if box.settlement is not None:
        return Html("")  # settled boxes are the result lines
    if box.state is BoxState.HIDDEN:
        if box.blind:
            return tr.t("sixcard.box_blind", box=n, ante=box.ante, bet=box.bet)
        return tr.t("sixcard.box_hidden", box=n, ante=box.ante)
    assert box.value is not None
    hand = category(tr, box.value)
    if box.state is BoxState.FOLDED:
        return tr.t("sixcard.box_folded", box=n, ante=box.ante, lost=box.ante + box.fees)
    if box.state is BoxState.PLAYING:
        return tr.t("sixcard.box_playing", box=n, ante=box.ante, bet=box.bet, hand=hand)
    key = "sixcard.box_deciding" if current else "sixcard.box_playing"
    return tr.t(key, box=n, ante=box.ante, bet=box.bet, hand=hand)


def _dealer_lines(tr: Translator, view: SixCardView) -> list[Html]:
    if view.dealer_first_cards is None:
        if view.dealer_up is None:
            return []
        return [tr.t("sixcard.dealer_up", card=view.dealer_up.display)]
    first = view.dealer_first_cards
    first_value = evaluate(first)
    key = "sixcard.dealer_game" if qualifies(first_value) else "sixcard.dealer_no_game"
    lines = [tr.t(key, cards=cards_text(first), hand=category(tr, first_value))]
    r = view.dealer_replacement
    if r is not None and view.dealer_cards is not None and view.dealer_value is not None:
        key = ("sixcard.dealer_replaced_game" if view.dealer_qualifies else
               "sixcard.dealer_replaced_none")
        lines.append(tr.t(key, dropped=r.dropped.display, drawn=r.drawn.display,
                          outs=r.outs[r.index], unseen=r.unseen,
                          cards=cards_text(view.dealer_cards),
                          hand=category(tr, view.dealer_value)))
    return lines


def _settlement_lines(tr: Translator, view: SixCardView) -> list[Html]:
    """The balance before the game, each box's net (fees included) with the balance after it,
    then the game's result: the lines add up to it."""
    lines: list[Html] = [tr.t("sixcard.start_balance", balance=view.start_balance)]
    for run in view.running:
        s = view.boxes[run.box].settlement
        assert s is not None
        net = signed(run.net, change=True)
        money = (tr.t("sixcard.box_money_fees", fees=run.fees, net=net, balance=run.balance)
                 if run.fees else tr.t("sixcard.box_money", net=net, balance=run.balance))
        values: dict[str, object] = {"box": s.box + 1, "money": money,
                                     "hand": category(tr, s.value),
                                     "dealer": category(tr, s.dealer_value, mid=True)}
        if s.outcome is BoxOutcome.WON:
            values["paid"] = s.value.category.multiplier
        lines.append(tr.t(f"sixcard.settled_{s.outcome.value}", **values))
    lines.append(tr.t("sixcard.result", net=signed(view.net, change=True), balance=view.balance))
    return lines


def _prompt(tr: Translator, view: SixCardView) -> Html | None:
    if view.to_act is None:
        return None
    box = view.boxes[view.to_act]
    n = box.box + 1
    if view.phase is SixPhase.DEALER_GAME:
        fee = GAME_FEE * box.ante
        if "g" not in view.legal:
            return tr.t("sixcard.prompt_offer_unaffordable", box=n, fee=fee,
                        balance=view.balance)
        return tr.t("sixcard.prompt_offer", box=n, fee=fee)
    legal = set(view.legal)
    if legal == {"f"}:
        return tr.t("sixcard.prompt_fold_only", box=n)
    if any(code.startswith("r") for code in legal):
        return tr.t("sixcard.prompt_replace", box=n, fee=REPLACE_FEE * box.ante)
    return tr.t("sixcard.prompt_decide", box=n)


def caption(tr: Translator, view: SixCardView, name: Html) -> str:
    """The game's caption at this moment: the dealer, each box, then the move asked for, or
    once it is over each box's payout and the result."""
    lines: list[str] = [tr.t("sixcard.title", name=name)]
    lines += _dealer_lines(tr, view)
    for box in view.boxes:
        line = _box_line(tr, box, box.box == view.to_act and view.phase is SixPhase.DECIDING)
        if line:
            lines.append(line)
    if view.is_over:
        lines += _settlement_lines(tr, view)
        lines.append(tr.t("sixcard.again"))
        return "\n".join(lines)
    on_table = sum(b.ante + b.bet for b in view.boxes if b.state is not BoxState.FOLDED)
    lines.append(tr.t("sixcard.on_table", staked=on_table, fees=view.money.fees,
                      balance=view.balance))
    prompt = _prompt(tr, view)
    if prompt is not None:
        lines.append(prompt)
    return "\n".join(lines)
