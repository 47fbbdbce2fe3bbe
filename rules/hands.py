"""Hand values: evaluation of 5 cards and best five of 6, totally ordered.

API (stable; the internals are free to change for speed):

- `Category`: HIGH_CARD .. ROYAL_FLUSH, with `.multiplier` (RULES.md bonus/payout table) and
  `.name_en` / `.name_ru`.
- `HandValue`: frozen, hashable, totally ordered (higher is better; equal means a tie).
  `.category`, `.ranks` (the ranks that decide ties, in order), `.strength` (0..7461).
- `evaluate(cards)`: 5 or 6 cards -> HandValue (6 cards: the best five).
- `best_five(cards)`: the five cards that make the value.

This first version is a plain, obviously-correct evaluator; it is replaced by a table-driven
one with the same API.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import combinations

from rules.cards import Card


class HandSizeError(ValueError):
    """Evaluation needs 5 or 6 distinct cards."""


class Category(IntEnum):
    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def multiplier(self) -> int:
        """The duel's bonus and six-card poker's bet payout for this category."""
        return _MULTIPLIERS[self]

    @property
    def name_en(self) -> str:
        return _NAMES_EN[self]

    @property
    def name_ru(self) -> str:
        return _NAMES_RU[self]


_MULTIPLIERS = (0, 1, 2, 3, 4, 5, 7, 20, 50, 100)
_NAMES_EN = (
    "High card", "One pair", "Two pair", "Three of a kind", "Straight", "Flush",
    "Full house", "Four of a kind", "Straight flush", "Royal flush",
)
_NAMES_RU = (
    "Старшая карта", "Пара", "Две пары", "Сет", "Стрит", "Флеш",
    "Фулл-хаус", "Каре", "Стрит-флеш", "Роял-флеш",
)


@dataclass(frozen=True, slots=True)
class HandValue:
    category: Category
    ranks: tuple[int, ...]

    def _key(self) -> tuple[int, tuple[int, ...]]:
        cat = 8 if self.category is Category.ROYAL_FLUSH else int(self.category)
        return (cat, self.ranks)

    def __lt__(self, other: HandValue) -> bool:
        return self._key() < other._key()

    def __le__(self, other: HandValue) -> bool:
        return self._key() <= other._key()

    def __gt__(self, other: HandValue) -> bool:
        return self._key() > other._key()

    def __ge__(self, other: HandValue) -> bool:
        return self._key() >= other._key()


def _eval5(cards: Sequence[Card]) -> HandValue:
    ranks = sorted((int(c.rank) for c in cards), reverse=True)
    counts = Counter(ranks)
    flush = len({c.suit for c in cards}) == 1
    uniq = sorted(counts, reverse=True)
    straight_top = 0
    if len(uniq) == 5:
        if uniq[0] - uniq[4] == 4:
            straight_top = uniq[0]
        elif uniq == [14, 5, 4, 3, 2]:
            straight_top = 5
    if straight_top and flush:
        cat = Category.ROYAL_FLUSH if straight_top == 14 else Category.STRAIGHT_FLUSH
        return HandValue(cat, (straight_top,))
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if shape == (4, 1):
        return HandValue(Category.FOUR_OF_A_KIND, order)
    if shape == (3, 2):
        return HandValue(Category.FULL_HOUSE, order)
    if flush:
        return HandValue(Category.FLUSH, tuple(ranks))
    if straight_top:
        return HandValue(Category.STRAIGHT, (straight_top,))
    if shape == (3, 1, 1):
        return HandValue(Category.THREE_OF_A_KIND, order)
    if shape == (2, 2, 1):
        return HandValue(Category.TWO_PAIR, order)
    if shape == (2, 1, 1, 1):
        return HandValue(Category.ONE_PAIR, order)
    return HandValue(Category.HIGH_CARD, tuple(ranks))


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of 5 cards, or of the best five of 6."""
    if len(cards) not in (5, 6) or len(set(cards)) != len(cards):
        raise HandSizeError(f"a hand is 5 or 6 distinct cards, got {len(cards)}")
    if len(cards) == 5:
        return _eval5(cards)
    return max(_eval5(five) for five in combinations(cards, 5))


def best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards (of 5 or 6) that make the hand's value."""
    value = evaluate(cards)
    for five in combinations(cards, 5):
        if _eval5(five) == value:
            return tuple(five)
    raise AssertionError("unreachable")
