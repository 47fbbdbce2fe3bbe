"""Hand values: every RULES.md ranking rule, all 2,598,960 five-card hands (through the batch
path, checked against single calls), agreement with treys (an independent published
evaluator) and hypothesis properties."""

from __future__ import annotations

import copy
import pickle
import random
from collections import Counter
from collections.abc import Sequence
from itertools import chain, combinations, permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import hand_tables
from rules.cards import CARDS, Card, Rank, Suit, parse_cards
from rules.hand_batch import evaluate_batch
from rules.hands import (
    ALL_VALUES,
    STRENGTH_COUNT,
    Category,
    HandSizeError,
    HandValue,
    best_five,
    evaluate,
)


def v(text: str) -> HandValue:
    return evaluate(parse_cards(text))


# --- a plain, obviously-correct reference (the project's first evaluator) -------------------

def reference_key(cards: Sequence[Card]) -> tuple[Category, tuple[int, ...]]:
    """(category, deciding ranks) of five cards, by counting: slow and simple."""
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({c.suit for c in cards}) == 1
    uniq = sorted(counts, reverse=True)
    top = 0
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            top = uniq[0]
        elif uniq == [14, 5, 4, 3, 2]:
            top = 5
    if top and flush:
        return (Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH, (top,))
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if shape == (4, 1):
        return (Category.FOUR_OF_A_KIND, order)
    if shape == (3, 2):
        return (Category.FULL_HOUSE, order)
    if flush:
        return (Category.FLUSH, tuple(ranks))
    if top:
        return (Category.STRAIGHT, (top,))
    if shape == (3, 1, 1):
        return (Category.THREE_OF_A_KIND, order)
    if shape == (2, 2, 1):
        return (Category.TWO_PAIR, order)
    if shape == (2, 1, 1, 1):
        return (Category.ONE_PAIR, order)
    return (Category.HIGH_CARD, tuple(ranks))


def reference_order(key: tuple[Category, tuple[int, ...]]) -> tuple[int, tuple[int, ...]]:
    cat, ranks = key
    return (8 if cat is Category.ROYAL_FLUSH else int(cat), ranks)


# --- (a) all 2,598,960 five-card hands --------------------------------------------------------

N_HANDS = 2_598_960
EXPECTED_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.ONE_PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}


@pytest.fixture(scope="module")
def all_hands() -> np.ndarray:
    """Every 5-card hand as card indices, in `combinations(range(52), 5)` order."""
    flat = chain.from_iterable(combinations(range(52), 5))
    return np.fromiter(flat, np.uint8, count=N_HANDS * 5).reshape(N_HANDS, 5)


@pytest.fixture(scope="module")
def all_strengths(all_hands: np.ndarray) -> np.ndarray:
    return evaluate_batch(all_hands)


def test_every_hand_category_counts(all_strengths: np.ndarray) -> None:
    per_strength = np.bincount(all_strengths, minlength=STRENGTH_COUNT)
    assert len(per_strength) == STRENGTH_COUNT
    assert np.count_nonzero(per_strength) == 7_462  # every value occurs
    counts: Counter[Category] = Counter()
    for strength, n in enumerate(per_strength.tolist()):
        counts[HandValue.from_strength(strength).category] += n
    assert dict(counts) == EXPECTED_COUNTS
    assert sum(counts.values()) == N_HANDS
    assert EXPECTED_COUNTS[Category.STRAIGHT_FLUSH] + EXPECTED_COUNTS[Category.ROYAL_FLUSH] == 40


def test_every_hand_single_call_agrees_with_batch(all_strengths: np.ndarray) -> None:
    single = np.fromiter(
        (evaluate(hand).strength for hand in combinations(CARDS, 5)), np.uint16, count=N_HANDS
    )
    assert np.array_equal(single, all_strengths)


def test_batch_ignores_card_order_within_rows(all_hands: np.ndarray,
                                              all_strengths: np.ndarray) -> None:
    rng = np.random.default_rng(7)
    rows = rng.choice(N_HANDS, 200_000, replace=False)
    shuffled = rng.permuted(all_hands[rows], axis=1)
    assert np.array_equal(evaluate_batch(shuffled), all_strengths[rows])


def test_values_are_ordered_as_the_reference_orders_them() -> None:
    """The 7,462 values sorted by the reference's (category, ranks) key are in strength order,
    and the reference agrees with evaluate() on a seeded sample of hands."""
    keys = [reference_order((h.category, h.ranks)) for h in ALL_VALUES]
    assert keys == sorted(keys) and len(set(keys)) == STRENGTH_COUNT
    assert [h.strength for h in ALL_VALUES] == list(range(STRENGTH_COUNT))
    rng = random.Random(11)
    for _ in range(20_000):
        hand = rng.sample(CARDS, 5)
        value = evaluate(hand)
        assert (value.category, value.ranks) == reference_key(hand)


# --- (b) every ranking rule of RULES.md, as worked examples -----------------------------------

def test_categories_rank_in_order_with_their_multipliers() -> None:
    ladder = [
        ("Ah Jd 9c 5s 3h", Category.HIGH_CARD, 0),
        ("9h 9d Ac 5s 3h", Category.ONE_PAIR, 1),
        ("9h 9d 5c 5s 3h", Category.TWO_PAIR, 2),
        ("9h 9d 9c 5s 3h", Category.THREE_OF_A_KIND, 3),
        ("9h 8d 7c 6s 5h", Category.STRAIGHT, 4),
        ("Kh Jh 9h 5h 3h", Category.FLUSH, 5),
        ("9h 9d 9c 5s 5h", Category.FULL_HOUSE, 7),
        ("9h 9d 9c 9s 3h", Category.FOUR_OF_A_KIND, 20),
        ("9h 8h 7h 6h 5h", Category.STRAIGHT_FLUSH, 50),
        ("Ah Kh Qh Jh Th", Category.ROYAL_FLUSH, 100),
    ]
    values = [v(text) for text, _, _ in ladder]
    assert [x.category for x in values] == [cat for _, cat, _ in ladder]
    assert [x.category.multiplier for x in values] == [m for _, _, m in ladder]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert [c.multiplier for c in Category] == [0, 1, 2, 3, 4, 5, 7, 20, 50, 100]


def test_the_tables_number_the_categories_as_category_does() -> None:
    assert [getattr(hand_tables, c.name) for c in Category] == list(range(10)) == list(Category)
    assert [cat for cat, _, _ in hand_tables.value_patterns()] == [v.category for v in ALL_VALUES]


def test_seed_examples() -> None:
    assert v("5s 5d 4c 3h 2s") > v("4s 4d Ac Kh Qs")
    assert v("5s 5d Qc 3h 2s") > v("5c 5h Jc Th 9s")
    assert v("As Ad 2c 2h 3s") > v("Ks Kd Qc Qh As")
    assert v("3s 3d 3c 2h 2s") > v("2c 2d 2h As Ad")


def test_wheel_is_the_lowest_straight_and_ace_high_the_highest() -> None:
    wheel = v("5s 4d 3c 2h Ah")
    assert wheel.category is Category.STRAIGHT and wheel.ranks == (5,)
    assert wheel < v("6s 5d 4c 3h 2h")
    assert wheel > v("As Ad Ac Kh Qh")  # any straight beats three of a kind
    broadway = v("As Kd Qc Jh Th")
    assert broadway.category is Category.STRAIGHT and broadway.ranks == (14,)
    straights = [x for x in ALL_VALUES if x.category is Category.STRAIGHT]
    assert (straights[0], straights[-1]) == (wheel, broadway)
    assert [x.ranks[0] for x in straights] == list(range(5, 15))


def test_no_wrap_around() -> None:
    for text in ("3s 2d Ac Kh Qh", "4s 3d 2c Ah Kh", "2s Ad Kc Qh Jh"):
        assert v(text).category is Category.HIGH_CARD
    assert v("3h 2h Ah Kh Qh").category is Category.FLUSH


def test_straight_flushes_and_the_royal() -> None:
    steel_wheel = v("5h 4h 3h 2h Ah")
    assert steel_wheel.category is Category.STRAIGHT_FLUSH and steel_wheel.ranks == (5,)
    king_high = v("Kd Qd Jd Td 9d")
    royal = v("Ad Kd Qd Jd Td")
    assert steel_wheel < king_high < royal
    assert royal.category is Category.ROYAL_FLUSH and royal.strength == STRENGTH_COUNT - 1
    assert royal.ranks == (14,)
    assert steel_wheel > v("As Ad Ac Ah Kh")  # any straight flush beats four of a kind


def test_suits_never_break_ties() -> None:
    assert v("As Kd Qc Jh 9s") == v("Ah Ks Qd Jc 9h")
    assert v("Ah Jh 9h 5h 3h") == v("As Js 9s 5s 3s")
    assert v("Ts 9s 8s 7s 6s") == v("Tc 9c 8c 7c 6c")
    assert v("7s 7d Kc Kh 2s") == v("7c 7h Ks Kd 2d")
    assert hash(v("As Kd Qc Jh 9s")) == hash(v("Ah Ks Qd Jc 9h"))


def test_tie_breaks_within_categories() -> None:
    # one pair: the pair, then kickers high to low
    assert v("8s 8d Ac 4h 3s") > v("7s 7d Ac Kh Qs")
    assert v("8s 8d Ac 4h 3s") > v("8c 8h Kc Qh Js")
    assert v("8s 8d Ac Kh 3s") > v("8c 8h Ac Kd 2s")
    assert v("8s 8d Ac 4h 3s").ranks == (8, 14, 4, 3)
    # two pair: high pair, low pair, kicker
    assert v("Ks Kd 3c 3h 2s") > v("Qs Qd Jc Jh As")
    assert v("Ks Kd 4c 4h 2s") > v("Kc Kh 3c 3d As")
    assert v("Ks Kd Qc Qh As") > v("Kc Kh Qd Qs Js")
    assert v("Ks Kd Qc Qh As").ranks == (13, 12, 14)
    # three of a kind: the triple, then kickers
    assert v("7s 7d 7c 3h 2s") > v("6s 6d 6c Ah Ks")
    assert v("7s 7d 7c Ah 2s").ranks == (7, 14, 2)
    # full house: the triple, then the pair
    assert v("Ks Kd Kc 3h 3s") > v("Qs Qd Qc Ah As")
    assert v("Ks Kd Kc 4h 4s") > v("Kc Kh Ks 3h 3d")
    assert v("Ks Kd Kc 7h 7s").ranks == (13, 7)
    # four of a kind: the four, then the kicker
    assert v("9s 9d 9c 9h 2s") > v("8s 8d 8c 8h As")
    assert v("9s 9d 9c 9h 3s") > v("9s 9d 9c 9h 2c")
    # flush and high card: card by card from the top, down to the last
    assert v("Ah Jh 9h 5h 3h") > v("Ad Jd 9d 5d 2d")
    assert v("Ah Kh 4h 3h 2h") > v("Ad Qd Jd Td 8d")
    assert v("Ah Jd 9c 5s 3h") > v("Ad Jc 9h 5d 2s")
    assert v("Ah Jd 9c 5s 3h").ranks == (14, 11, 9, 5, 3)
    # straights by their top card
    assert v("9s 8d 7c 6h 5h") > v("8s 7d 6c 5h 4h")


def test_six_cards_play_their_best_five() -> None:
    quads = v("Qs Qd Qc Qh 8s 8d")
    assert quads.category is Category.FOUR_OF_A_KIND and quads.ranks == (12, 8)
    assert quads == v("Qs Qd Qc Qh 8h")
    assert v("7s 6d 5c 4h 3s 2d").ranks == (7,)  # the higher straight inside
    assert v("As 2d 3c 4h 5s 6d").ranks == (6,)
    assert v("Ks Kd Kc 2h 2s 2d") == v("Ks Kd Kc 2h 2s")  # kings full of twos
    assert v("Ks Kd Qc Qh 2s 2d") == v("Ks Kd Qc Qh 2s")  # two pair, best kicker
    assert v("Ks Kd Qc Qh Js 2d").ranks == (13, 12, 11)
    assert v("Ah Jh 9h 5h 3h 3d").category is Category.FLUSH  # a flush over the pair
    assert v("9h 8h 7h 6h 5d 4h").category is Category.FLUSH  # over the straight
    assert v("9h 8h 7h 6h 5h 4h").ranks == (9,)  # six suited: the best straight flush
    assert v("Ah Kh Qh Jh Th 9h").category is Category.ROYAL_FLUSH
    assert v("Ah Kh Qh Jh 9h 2h").ranks == (14, 13, 12, 11, 9)  # the top five of six
    assert v("Ah Kh Qh Jh 9h 2h") > v("Ad Kd Qd Jd 8d")


def test_best_five_returns_five_given_cards_with_the_same_value() -> None:
    rng = random.Random(5)
    for n in (5, 6):
        for _ in range(2_000):
            cards = rng.sample(CARDS, n)
            five = best_five(cards)
            assert len(five) == 5 and set(five) <= set(cards)
            assert evaluate(five) == evaluate(cards)
    six = parse_cards("Qs Qd Qc Qh 8s 8d")
    assert best_five(six) == parse_cards("Qs Qd Qc Qh 8s")
    five = parse_cards("5s 5d 4c 3h 2s")
    assert best_five(five) == five


def test_bad_hands_are_refused() -> None:
    for text in ("As Kd Qc Jh", "As Kd Qc Jh Ts 9s 8s", ""):
        with pytest.raises(HandSizeError):
            evaluate(parse_cards(text))
    repeated = [
        "As As Kd Qc Jh",  # a repeated card in a pair
        "As Ks Qs Js As",  # ... among five of a suit
        "As Kd Qc Jh Ts Ts",
        "As Ks Qs Js Ts Ts",  # six of a suit with a repeat still has five ranks
        "As Ks Qs Js Ts As",
        "As Ks Qs Js 9d 9d",
        "2s 2s 2s 2s 2s",
    ]
    for text in repeated:
        with pytest.raises(HandSizeError):
            evaluate(parse_cards(text))
        with pytest.raises(HandSizeError):
            best_five(parse_cards(text))


# --- the value object ---------------------------------------------------------------------

def test_hand_value_object() -> None:
    x = v("Ks Kd Kc 7h 7s")
    assert x is v("Kh Kd Ks 7c 7d")  # interned
    assert HandValue(Category.FULL_HOUSE, (13, 7)) is x
    assert HandValue.from_strength(x.strength) is x
    assert HandValue.from_strength(np.uint16(x.strength)) is x  # as the batch paths return
    assert repr(x) == "HandValue(Category.FULL_HOUSE, (13, 7))"
    assert x.describe() == "Full house, Kings full of Sevens" == str(x)
    assert v("5s 5d Qc 3h 2s").describe() == "One pair, Fives (Q 3 2)"
    assert v("6s 6d 6c Th 2s").describe() == "Three of a kind, Sixes (10 2)"
    assert v("5s 4d 3c 2h Ah").describe() == "Straight, Five high"
    assert v("Ad Kd Qd Jd Td").describe() == "Royal flush"
    assert pickle.loads(pickle.dumps(x)) is x
    assert copy.copy(x) is x and copy.deepcopy(x) is x
    with pytest.raises(AttributeError):
        x.strength = 0  # type: ignore[misc]
    with pytest.raises(ValueError):
        HandValue(Category.STRAIGHT, (4,))
    with pytest.raises(ValueError):
        HandValue(Category.FULL_HOUSE, (7, 7))
    for bad in (-1, STRENGTH_COUNT, 1.0):
        with pytest.raises(ValueError):
            HandValue.from_strength(bad)  # type: ignore[arg-type]
    assert x != x.strength and x.__lt__(3) is NotImplemented  # type: ignore[operator]
    with pytest.raises(TypeError):
        _ = x < 3  # type: ignore[operator]


# --- (c) agreement with treys, an independent evaluator ---------------------------------------

def test_ordering_agrees_with_treys() -> None:
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    as_treys = [treys.Card.new(str(c)) for c in CARDS]

    def sign(x: int) -> int:
        return (x > 0) - (x < 0)

    rng = random.Random(2024)
    for n in (5, 6):
        for _ in range(20_000):
            cards = rng.sample(range(52), 2 * n)
            first, second = cards[:n], cards[n:]
            ours = evaluate([CARDS[i] for i in first]).strength - evaluate(
                [CARDS[i] for i in second]).strength
            theirs = evaluator.evaluate([], [as_treys[i] for i in second]) - evaluator.evaluate(
                [], [as_treys[i] for i in first])  # treys: lower is better
            assert sign(ours) == sign(theirs), (first, second)


STRAIGHTS = (Category.STRAIGHT, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
FLUSHES = (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
SHAPES = {
    Category.FOUR_OF_A_KIND: (4, 1),
    Category.FULL_HOUSE: (3, 2),
    Category.THREE_OF_A_KIND: (3, 1, 1),
    Category.TWO_PAIR: (2, 2, 1),
    Category.ONE_PAIR: (2, 1, 1, 1),
}


def representative(value: HandValue) -> list[Card]:
    """Five cards with this value, built from its category and ranks alone."""
    if value.category in STRAIGHTS:
        top = value.ranks[0]
        ranks = [5, 4, 3, 2, 14] if top == 5 else list(range(top, top - 5, -1))
    else:
        shape = SHAPES.get(value.category, (1, 1, 1, 1, 1))
        ranks = [r for r, n in zip(value.ranks, shape, strict=True) for _ in range(n)]
    seen: Counter[int] = Counter()
    cards = []
    for i, r in enumerate(ranks):
        if value.category in FLUSHES:
            suit = 0
        elif len(set(ranks)) == 5:
            suit = 1 if i == 0 else 0  # different ranks: one card off suit
        else:
            suit = seen[r]  # a repeated rank takes another suit each time
        seen[r] += 1
        cards.append(Card(Rank(r), Suit(suit)))
    return cards


def test_strength_is_treys_class_reversed() -> None:
    """Stronger than comparing pairs: treys numbers the 7,462 classes from 1 (royal flush) to
    7462, so one hand of each of our values must score exactly 7462 - strength."""
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    for value in ALL_VALUES:
        cards = representative(value)
        assert evaluate(cards) is value
        score = evaluator.evaluate([], [treys.Card.new(str(c)) for c in cards])
        assert score == STRENGTH_COUNT - value.strength, (value, cards)


# --- (d) properties -------------------------------------------------------------------------

strengths = st.integers(0, STRENGTH_COUNT - 1)
five_or_six = st.integers(5, 6).flatmap(
    lambda n: st.lists(st.sampled_from(CARDS), min_size=n, max_size=n, unique=True)
)


@given(strengths, strengths)
def test_order_is_total_and_follows_strength(i: int, j: int) -> None:
    a, b = HandValue.from_strength(i), HandValue.from_strength(j)
    assert [a < b, a == b, a > b].count(True) == 1
    assert (a < b, a <= b, a == b, a != b, a >= b, a > b) == (
        i < j, i <= j, i == j, i != j, i >= j, i > j)
    assert (a == b) == (a is b) == (hash(a) == hash(b))


@given(strengths)
def test_from_strength_round_trip(i: int) -> None:
    value = HandValue.from_strength(i)
    assert value.strength == i
    assert HandValue(value.category, value.ranks) is value
    assert pickle.loads(pickle.dumps(value)) is value


@settings(max_examples=300)
@given(five_or_six, st.randoms(use_true_random=False))
def test_evaluate_ignores_card_order(cards: list[Card], rnd: random.Random) -> None:
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate(shuffled) is evaluate(cards) is evaluate(tuple(reversed(cards)))


@settings(max_examples=300)
@given(st.lists(st.sampled_from(CARDS), min_size=6, max_size=6, unique=True))
def test_six_cards_are_worth_their_best_five(cards: list[Card]) -> None:
    assert evaluate(cards) is max(evaluate(five) for five in combinations(cards, 5))


@settings(max_examples=100)
@given(st.lists(st.sampled_from(CARDS), min_size=5, max_size=5, unique=True))
def test_all_orders_of_five(cards: list[Card]) -> None:
    value = evaluate(cards)
    assert all(evaluate(p) is value for p in permutations(cards))
    assert evaluate_batch([[c.index for c in cards]]).tolist() == [value.strength]
