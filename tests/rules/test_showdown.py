"""What decided between two hand values (`rules.showdown`): the category, a main rank, a
kicker, or nothing (a split), with the ranks that name each hand."""

from __future__ import annotations

import random

import pytest

from rules.cards import CARDS, parse_cards
from rules.hands import ALL_VALUES, Category, HandValue, evaluate
from rules.showdown import Decider, decided_by, main_ranks


def v(text: str) -> HandValue:
    return evaluate(parse_cards(text))


CASES = [
    # (better, worse, what decided)
    ("Qs Qd 7c 4h 2s", "2c 2d Ac Kh Js", Decider.RANK),  # pair of queens v pair of twos
    ("2c 2d 7c 4h 3s", "Ac Kd Qc Jh 9s", Decider.CATEGORY),  # a pair beats ace high
    ("Qs Qd 9c 4h 2s", "Qc Qh 8c 7h 6s", Decider.KICKER),  # the same pair, a higher kicker
    ("Qs Qd 9c 5h 2s", "Qc Qh 9d 4h 3s", Decider.KICKER),  # the second kicker decides
    ("Qs Qd 9c 5h 2s", "Qc Qh 9d 5d 2d", Decider.EQUAL),  # the same ranks: a split
    ("Kh Kd 5c 5s 2h", "Kc Ks 4c 4s Ah", Decider.RANK),  # two pair: the low pair decides
    ("Kh Kd 5c 5s 3h", "Kc Ks 5d 5h 2h", Decider.KICKER),  # two pair: the kicker decides
    ("Ah Kd Qc Jh 9s", "Ac Ks Qd Jc 8s", Decider.KICKER),  # high card: ace high both
    ("Ah Kd Qc Jh 9s", "Kc Qs Jd 9c 8s", Decider.RANK),  # ace high beats king high
    ("6h 5d 4c 3h 2s", "5c 4s 3d 2c Ah", Decider.RANK),  # six-high beats the wheel
    ("5c 4s 3d 2c Ah", "5h 4d 3c 2h Ad", Decider.EQUAL),  # two wheels: a split
    ("5c 4s 3d 2c Ah", "Kc Ks Kd 2d Ad", Decider.CATEGORY),  # the wheel beats three kings
    ("Ah Jh 9h 4h 3h", "Ad Jd 9d 4d 2d", Decider.KICKER),  # a flush: the same top card
    ("Ah Jh 9h 4h 2h", "Kd Qd Jd 9d 7d", Decider.RANK),  # ace-high flush beats king-high
    ("Kh Kd Kc 5s 5h", "Kh Kd Kc 4s 4h", Decider.RANK),  # full house: the pair decides
    ("7h 7d 7c 7s Ah", "7h 7d 7c 7s Kh", Decider.KICKER),  # four of a kind's kicker
    ("5h 4h 3h 2h Ah", "Kc Kd Ks Kh 2c", Decider.CATEGORY),  # the steel wheel beats quads
    ("Ah Kh Qh Jh Th", "As Ks Qs Js Ts", Decider.EQUAL),  # two royal flushes
    ("9h 8h 7h 6h 5h", "8c 7c 6c 5c 4c", Decider.RANK),  # straight flushes by the top card
]


@pytest.mark.parametrize(("better", "worse", "decider"), CASES)
def test_what_decided(better: str, worse: str, decider: Decider) -> None:
    a, b = v(better), v(worse)
    assert a > b if decider is not Decider.EQUAL else a == b
    assert decided_by(a, b) is decider and decided_by(b, a) is decider


@pytest.mark.parametrize(("hand", "category", "main"), [
    ("Qs Qd 7c 4h 2s", Category.ONE_PAIR, (12,)),
    ("Kh Kd 5c 5s 2h", Category.TWO_PAIR, (13, 5)),
    ("Kh Kd Kc 5s 5h", Category.FULL_HOUSE, (13, 5)),
    ("5c 4s 3d 2c Ah", Category.STRAIGHT, (5,)),  # the wheel's top card is the five
    ("Ah Kd Qc Jh Ts", Category.STRAIGHT, (14,)),
    ("Ah Jh 9h 4h 2h", Category.FLUSH, (14,)),
    ("Ah Kd Qc Jh 9s", Category.HIGH_CARD, (14,)),
    ("7h 7d 7c Ks 2h", Category.THREE_OF_A_KIND, (7,)),
    ("7h 7d 7c 7s Ah", Category.FOUR_OF_A_KIND, (7,)),
    ("5h 4h 3h 2h Ah", Category.STRAIGHT_FLUSH, (5,)),
    ("Ah Kh Qh Jh Th", Category.ROYAL_FLUSH, ()),
])
def test_main_ranks_name_the_hand(hand: str, category: Category,
                                  main: tuple[int, ...]) -> None:
    value = v(hand)
    assert value.category is category and main_ranks(value) == main
    assert value.ranks[:len(main)] == main  # the kickers follow them


def test_decided_by_agrees_with_the_order_of_values() -> None:
    """Across random pairs: EQUAL exactly when equal; otherwise the category when it differs,
    else the first rank that differs is a main rank (RANK) or a kicker (KICKER)."""
    rng = random.Random(5)
    for _ in range(3000):
        a, b = (evaluate(rng.sample(CARDS, 5)) for _ in range(2))
        d = decided_by(a, b)
        if a == b:
            assert d is Decider.EQUAL
        elif a.category is not b.category:
            assert d is Decider.CATEGORY
        else:
            first = next(i for i, (x, y) in enumerate(zip(a.ranks, b.ranks, strict=True))
                         if x != y)
            assert d is (Decider.RANK if first < len(main_ranks(a)) else Decider.KICKER)
    assert all(len(main_ranks(x)) <= len(x.ranks) for x in ALL_VALUES)
