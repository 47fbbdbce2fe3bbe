"""Hand values: evaluation of 5 cards and best five of 6, totally ordered.

API (stable; the internals are free to change for speed):

- `Category`: HIGH_CARD .. ROYAL_FLUSH, with `.multiplier` (RULES.md bonus/payout table). Its
  names for people are the catalogs' (`hand.full_house`...), not the rules'.
- `HandValue`: frozen, hashable, totally ordered (higher is better; equal means a tie).
  `.category`, `.ranks` (the ranks that decide ties, in order), `.strength` (0..7461, one per
  distinct value: 7,462 in all; the royal flush is the top straight flush, 7461).
  `HandValue.from_strength(n)`, `HandValue(category, ranks)` and `describe()`.
  The 7,462 values are built once at import and interned: evaluation returns the cached
  instance, so `a == b` is `a is b` and nothing is allocated per call. `ALL_VALUES` lists them
  from the weakest (7-5-4-3-2 high card) to the royal flush.
- `evaluate(cards)`: 5 or 6 distinct cards -> HandValue (6 cards: the best five).
- `best_five(cards)`: the five cards that make the value.
- Many hands at once, with numpy: `rules.hand_batch` (this module never imports numpy).

How it is fast: every card carries precomputed keys, and one or two table lookups on a sum,
product or OR of them give the interned value; `rules.hand_tables` builds those tables (once,
here, at import) and explains the keys. Measured on the development machine (2 shared, noisy
cores, Python 3.11): importing this module takes 55-105 ms, typically ~75 (numpy is not
imported: that alone would be about 140 ms); the 7,462 HandValue objects and the tables hold
8.9 MB (tracemalloc), 4.3 MB of it the 6-card array. There, single calls ran at 1.0-2.0 M/s
for 5 cards (1.5-2.5x treys) and 1.0-1.5 M/s best-of-6 (5-7x treys), depending on the load
from other jobs. `python bench/hands.py` prints current figures side by side with treys and
phevaluator.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from enum import IntEnum
from typing import Any, NoReturn, SupportsIndex

from rules import hand_tables
from rules.cards import Card, Rank
from rules.hand_tables import CARD6, CARD_BIT, CARDS_AT, KEY6_MASK, STRENGTH_COUNT, SUITS_AT

__all__ = [
    "ALL_VALUES", "STRENGTH_COUNT", "Category", "HandSizeError", "HandValue", "best_five",
    "evaluate",
]


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


_MULTIPLIERS = (0, 1, 2, 3, 4, 5, 7, 20, 50, 100)


class HandValue:
    """The value of a hand: what decides who wins. Interned: one instance per strength.

    Compares, hashes and tests equal by `strength` alone (equal strength = a tie); `category`
    and `ranks` are derived from it (`ranks`: pair rank then kickers high to low, two pair
    high/low/kicker, full house triple/pair, flush and high card all five from the top,
    straights and straight flushes their top card, 5 for the wheel).
    """

    __slots__ = ("category", "ranks", "strength")

    category: Category
    ranks: tuple[int, ...]
    strength: int

    def __new__(cls, category: Category | int, ranks: Iterable[int]) -> HandValue:
        """The (interned) value for a category and its deciding ranks, e.g.
        `HandValue(Category.FULL_HOUSE, (13, 7))`. ValueError if no hand has that value."""
        key = (Category(category), tuple(int(r) for r in ranks))
        try:
            return _BY_KEY[key]
        except KeyError:
            raise ValueError(f"no hand has the value {key[0].name} {key[1]}") from None

    @classmethod
    def from_strength(cls, strength: SupportsIndex) -> HandValue:
        """The value whose `.strength` is `strength` (0..7461; any integer type, such as the
        numpy uint16 that the batch functions return)."""
        try:
            n = operator.index(strength)
        except TypeError:
            n = -1
        if not 0 <= n < STRENGTH_COUNT:
            raise ValueError(f"a strength is an integer in 0..{STRENGTH_COUNT - 1}: {strength!r}")
        return ALL_VALUES[n]

    def describe(self) -> str:
        """For developers (logs, tests; people read the catalogs' names), e.g. "Full house,
        Kings full of Sevens", "One pair, Fives (Q 3 2)": the category as its identifier."""
        cat, r = self.category, self.ranks
        name = cat.name.replace("_", " ").capitalize()
        if cat is Category.ROYAL_FLUSH:
            return "Royal flush"
        if cat in (Category.STRAIGHT_FLUSH, Category.STRAIGHT):
            return f"{name}, {_NAME[r[0]]} high"
        if cat in (Category.FLUSH, Category.HIGH_CARD):
            return f"{name}, {_NAME[r[0]]} high ({_labels(r[1:])})"
        if cat is Category.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} full of {_PLURAL[r[1]]}"
        if cat is Category.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]} ({_labels(r[2:])})"
        # four of a kind, three of a kind, one pair: the group, then the kickers
        return f"{name}, {_PLURAL[r[0]]} ({_labels(r[1:])})"

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"HandValue(Category.{self.category.name}, {self.ranks!r})"

    def __hash__(self) -> int:
        return self.strength

    def __eq__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength == other.strength
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        if isinstance(other, HandValue):
            return self.strength != other.strength
        return NotImplemented

    def __lt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength < other.strength
        return NotImplemented

    def __le__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength <= other.strength
        return NotImplemented

    def __gt__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength > other.strength
        return NotImplemented

    def __ge__(self, other: HandValue) -> bool:
        if isinstance(other, HandValue):
            return self.strength >= other.strength
        return NotImplemented

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"HandValue is immutable (cannot set {name!r})")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"HandValue is immutable (cannot delete {name!r})")

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        return (_from_strength, (self.strength,))

    def __copy__(self) -> HandValue:
        return self

    def __deepcopy__(self, memo: object) -> HandValue:
        return self


def _from_strength(strength: int) -> HandValue:
    """Module-level, for pickle."""
    return ALL_VALUES[strength]


_NAME = {int(r): r.name.capitalize() for r in Rank}
_PLURAL = {r: ("Sixes" if r == 6 else n + "s") for r, n in _NAME.items()}


def _labels(ranks: Sequence[int]) -> str:
    return " ".join(Rank(r).label for r in ranks)


# The slots' own setters (HandValue.__setattr__ refuses all writes).
_set_strength = vars(HandValue)["strength"].__set__
_set_category = vars(HandValue)["category"].__set__
_set_ranks = vars(HandValue)["ranks"].__set__


def _new_value(strength: int, category: Category, ranks: tuple[int, ...]) -> HandValue:
    value: HandValue = object.__new__(HandValue)
    _set_strength(value, strength)
    _set_category(value, category)
    _set_ranks(value, ranks)
    return value


# --- the 7,462 values in order, and the tables that find them ------------------------------

PATTERNS = hand_tables.value_patterns()
"""(category number, deciding ranks, rank multiset) of every value, weakest first."""
ALL_VALUES: tuple[HandValue, ...] = tuple(
    _new_value(i, Category(cat), ranks) for i, (cat, ranks, _) in enumerate(PATTERNS)
)
"""The 7,462 values, weakest first: `ALL_VALUES[n].strength == n`."""
_BY_KEY: dict[tuple[Category, tuple[int, ...]], HandValue] = {
    (v.category, v.ranks): v for v in ALL_VALUES
}

TABLES = hand_tables.build_tables(ALL_VALUES, PATTERNS)
"""The lookup tables (shared read-only with `rules.hand_batch`)."""
_FLUSH5, _SPREAD5, _PAIRED5 = TABLES.flush5, TABLES.spread5, TABLES.paired5
_FLUSH6, _PLAIN6 = TABLES.flush6, TABLES.plain6


# --- evaluation ----------------------------------------------------------------------------

def _bad_hand(cards: Sequence[Card]) -> NoReturn:
    n = len(cards)
    if n in (5, 6):
        raise HandSizeError(f"a hand is 5 or 6 distinct cards, got a repeated card: {cards!r}")
    raise HandSizeError(f"a hand is 5 or 6 distinct cards, got {n}")


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The value of 5 cards, or of the best five of 6. HandSizeError otherwise."""
    n = len(cards)
    if n == 5:
        a, b, c, d, e = cards
        if a.suit_nibble == b.suit_nibble == c.suit_nibble == d.suit_nibble == e.suit_nibble:
            # a repeated card leaves fewer than five rank bits: not in the table
            v = _FLUSH5.get(a.rank_bit | b.rank_bit | c.rank_bit | d.rank_bit | e.rank_bit)
            if v is not None:
                return v
        else:
            p = a.prime * b.prime * c.prime * d.prime * e.prime
            v = _SPREAD5.get(p)
            if v is not None:  # five different ranks: no card can be repeated
                return v
            bit = CARD_BIT
            if (bit[a.index] | bit[b.index] | bit[c.index] | bit[d.index]
                    | bit[e.index]).bit_count() == 5:
                return _PAIRED5[p]
    elif n == 6:
        a, b, c, d, e, f = cards
        key = CARD6
        x = key[a.index] + key[b.index] + key[c.index] + key[d.index] + key[e.index] \
            + key[f.index]
        if (x >> CARDS_AT).bit_count() == 6:  # no card bit carried: six different cards
            s = ((x >> SUITS_AT) + 0x3333) & 0x8888
            if not s:
                return ALL_VALUES[_PLAIN6[x & KEY6_MASK]]
            # five or six of one suit (bit 3 of its nibble): a flush, better than anything
            # else six such cards can make
            s >>= 3  # that suit's nibble
            ranks = 0
            for card in cards:
                if card.suit_nibble == s:
                    ranks |= card.rank_bit
            return _FLUSH6[ranks]
    _bad_hand(cards)


def best_five(cards: Sequence[Card]) -> tuple[Card, ...]:
    """The five cards (of 5 or 6) that make the hand's value, in the given order. Of 6, the
    first match dropping the last card, then the one before, and so on."""
    value = evaluate(cards)
    if len(cards) == 5:
        return tuple(cards)
    for drop in range(5, -1, -1):
        five = tuple(cards[:drop]) + tuple(cards[drop + 1 :])
        if evaluate(five) is value:
            return five
    raise AssertionError("unreachable")
