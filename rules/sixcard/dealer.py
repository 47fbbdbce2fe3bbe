"""Six-card poker: the dealer's side, as pure functions: qualifying, the one replaced card
when the player buys the dealer a game, and paying a box.

The dealer's replacement (RULES.md: "the card whose replacement gives the best chance to
qualify; ties: it keeps its higher cards"). The dealer knows only its own five cards; the other
47 are unseen and, from its point of view, equally likely to come. For each of its five cards
it counts the *outs*: the unseen cards that, put in that card's place, make one pair or better.
It drops the card with the most outs; among equals it drops the lowest rank (keeping its
higher cards), and, should two equal ranks tie (only possible in a hand that already
qualifies), the lower suit in `Suit` order, so the choice is always one card. The chance of
qualifying is `outs / 47`. The card actually drawn is the next card of the real deck: the
choice never looks at it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.cards import CARDS, Card
from rules.hands import Category, HandValue, evaluate
from rules.sixcard.view import BoxOutcome

DEALER_CARDS = 5
UNSEEN = len(CARDS) - DEALER_CARDS  # the cards the dealer cannot see: 47


def qualifies(value: HandValue) -> bool:
    """The dealer has a game: one pair or better."""
    return value.category >= Category.ONE_PAIR


def replacement_outs(cards: Sequence[Card]) -> tuple[int, ...]:
    """For each of the dealer's five cards: how many of the 47 unseen cards, put in its place,
    make the dealer qualify."""
    if len(cards) != DEALER_CARDS or len(set(cards)) != DEALER_CARDS:
        raise ValueError("the dealer holds five distinct cards")
    held = set(cards)
    unseen = [c for c in CARDS if c not in held]
    outs: list[int] = []
    for i in range(DEALER_CARDS):
        kept = [*cards[:i], *cards[i + 1 :]]
        outs.append(sum(1 for c in unseen if qualifies(evaluate((*kept, c)))))
    return tuple(outs)


def choose_discard(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """The position of the card the dealer drops, and the outs of every position."""
    outs = replacement_outs(cards)
    index = max(range(DEALER_CARDS), key=lambda i: (outs[i], -cards[i].rank, -cards[i].suit))
    return index, outs


def settle_played(
    ante: int, bet: int, value: HandValue, dealer: HandValue, dealer_game_bought: bool
) -> tuple[BoxOutcome, int, int]:
    """A box that PLAYed: its outcome, the stakes returned and the winnings paid on top.

    `dealer` is the hand the box is settled against: the dealer's five after the replace for
    a box that bought the dealer a game, the five turned over for any other box.
    """
    stakes = ante + bet
    if not qualifies(dealer):
        if dealer_game_bought:
            return BoxOutcome.STAKES_RETURNED, stakes, 0
        return BoxOutcome.NO_GAME, stakes, ante
    if value < dealer:
        return BoxOutcome.LOST, 0, 0
    if value == dealer:
        return BoxOutcome.PUSH, stakes, 0
    return BoxOutcome.WON, stakes, ante + bet * value.category.multiplier
