"""Six-card poker's dealer: the one card it replaces when the player buys it a game (the most
outs, then its lowest card), with the outs counted exactly over the 47 cards it cannot see."""

from __future__ import annotations

import pytest

from rules.cards import CARDS, Card, parse_cards
from rules.hands import Category, evaluate
from rules.sixcard.dealer import choose_discard, replacement_outs

DEALER_NONE = "Ac Jd 8h 5s 3c"  # no game; drops the 3 (no draw: every card has 12 outs)


@pytest.mark.parametrize("hand, dropped, outs", [
    # a four-flush drops its off-suit card, even when it is not the lowest: 12 + 9 flush outs
    ("Ks 9s 7s 4s Qh", "Qh", (12, 12, 12, 12, 21)),
    # an open-ended straight draw drops the card outside the draw: 12 + 4 tens + 4 fives
    ("9c 8d 7h 6s Kd", "Kd", (12, 12, 12, 12, 20)),
    # a wheel draw keeps the ace and drops the king: 12 + 4 deuces
    ("Ac Kd 5h 4s 3c", "Kd", (12, 16, 12, 12, 12)),
    # plain high card: every card has the same 12 outs, so the dealer keeps its higher cards
    (DEALER_NONE, "3c", (12, 12, 12, 12, 12)),
    # a gutshot (4 outs) beats a three-flush (no outs with one card)
    ("Jh 9h 8c 7d 2h", "2h", (12, 12, 12, 12, 16)),
])
def test_the_dealer_drops_the_card_with_the_most_outs_then_its_lowest(
    hand: str, dropped: str, outs: tuple[int, ...]
) -> None:
    cards = parse_cards(hand)
    index, counted = choose_discard(cards)
    assert cards[index] == Card.parse(dropped) and counted == outs


def test_the_outs_are_counted_exactly_over_the_47_unseen_cards() -> None:
    cards = parse_cards("Ks 9s 7s 4s Qh")
    unseen = [c for c in CARDS if c not in cards]
    assert len(unseen) == 47
    brute = tuple(
        sum(evaluate((*cards[:i], *cards[i + 1:], c)).category >= Category.ONE_PAIR
            for c in unseen)
        for i in range(5)
    )
    assert replacement_outs(cards) == brute


def test_a_dealer_with_a_pair_already_qualifies_and_its_replace_would_keep_the_pair() -> None:
    cards = parse_cards("8c 8d Ah 5s 3c")
    index, outs = choose_discard(cards)
    # dropping an eight leaves 11 outs (two eights, three of each other rank); the pair stays
    assert outs == (11, 11, 47, 47, 47) and cards[index] == Card.parse("3c")
