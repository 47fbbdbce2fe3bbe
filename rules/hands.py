"""Hand values: evaluation of 5 cards and best five of 6, totally ordered.

API (stable; the internals are free to change for speed):

- `Category`: HIGH_CARD .. ROYAL_FLUSH, with `.multiplier` (RULES.md bonus/payout table) and
  `.name_en` / `.name_ru`.
- `HandValue`: frozen, hashable, totally ordered (higher is better; equal means a tie).
  `.category`, `.ranks` (the ranks that decide ties, in order), `.strength` (0..7461, one per
  distinct value: 7,462 in all; the royal flush is the top straight flush, 7461).
  `HandValue.from_strength(n)`, `HandValue(category, ranks)` and `describe()`.
  The 7,462 values are built once at import and interned: evaluation returns the cached
  instance, so `a == b` is `a is b` and nothing is allocated per call. `ALL_VALUES` lists them
  from the weakest (7-5-4-3-2 high card) to the royal flush.
- `evaluate(cards)`: 5 or 6 distinct cards -> HandValue (6 cards: the best five).
- `best_five(cards)`: the five cards that make the value.
- `evaluate_batch(array)` / `evaluate6_batch(array)`: numpy, (N, 5) / (N, 6) card indices ->
  (N,) uint16 strengths (see `rules._handbatch`; numpy is imported only when these are used).

How it is fast. Every `Card` carries `prime` (its rank's prime), `rank_bit`, `suit_nibble` and
`index`. Five cards are a flush iff their five suit nibbles are equal; then the OR of their rank
bits keys `_FLUSH5` (1,287 entries). Otherwise the product of their rank primes, unique per
rank multiset, keys `_SPREAD5` (1,287 hands of five different ranks) or `_PAIRED5` (4,888). A
repeated card is caught by the OR of `1 << card.index` (fewer bits than cards), a check only
paired hands need: five different ranks cannot hold a card twice. Six cards are summed instead
(`_CARD6[card.index]`: rank key + suit nibble + card bit, one int per card, see `RANK_KEYS6`):
the sum's card-bit field has six bits iff no card repeats; its suit field plus 0x3333 has bit 3
of a nibble set iff that suit holds five or more cards; its key field names the rank multiset.
With six cards a flush beats anything else the same cards can make (five suited cards leave
room for at most a pair), so such a hand is `_FLUSH6[OR of the suited rank bits]` (5- or 6-bit
masks, 3,003 entries) and any other is `ALL_VALUES[_PLAIN6[key sum]]` (a 2,159,609-entry
uint16 array, 4.3 MB, holding the strength of the best five of the six for each of the 18,395
rank multisets, each rank at most four times).

All tables are built at import from rank patterns only (the 7,462 values in order, each with
its rank multiset; the 6-card tables by taking, for each 5-card multiset and each rank that can
be added, the strongest), never by enumerating hands. Measured on the development machine
(2 shared, noisy cores, Python 3.11): importing this module takes 55-105 ms, typically ~75
(numpy is not imported: that alone would be about 140 ms); the 7,462 HandValue objects and the
tables hold 8.9 MB (tracemalloc), 4.3 MB of it the 6-card array. There, single calls ran at
1.0-2.0 M/s for 5 cards (1.5-2.5x treys) and 1.0-1.5 M/s best-of-6 (5-7x treys), depending on
the load from other jobs. `python bench/hands.py` prints current figures side by side with
treys and phevaluator.
"""

from __future__ import annotations

import operator
from array import array
from collections.abc import Iterable, Sequence
from enum import IntEnum
from itertools import combinations
from math import prod
from typing import TYPE_CHECKING, Any, NoReturn, SupportsIndex

from rules.cards import CARDS, Card, Rank

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


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

STRENGTH_COUNT = 7462
"""The number of distinct hand values (strengths 0..7461)."""


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
        """English, e.g. "Full house, Kings full of Sevens", "One pair, Fives (Q 3 2)"."""
        cat, r = self.category, self.ranks
        if cat is Category.ROYAL_FLUSH:
            return "Royal flush"
        if cat in (Category.STRAIGHT_FLUSH, Category.STRAIGHT):
            return f"{cat.name_en}, {_NAME[r[0]]} high"
        if cat in (Category.FLUSH, Category.HIGH_CARD):
            return f"{cat.name_en}, {_NAME[r[0]]} high ({_labels(r[1:])})"
        if cat is Category.FULL_HOUSE:
            return f"Full house, {_PLURAL[r[0]]} full of {_PLURAL[r[1]]}"
        if cat is Category.TWO_PAIR:
            return f"Two pair, {_PLURAL[r[0]]} and {_PLURAL[r[1]]} ({_labels(r[2:])})"
        # four of a kind, three of a kind, one pair: the group, then the kickers
        return f"{cat.name_en}, {_PLURAL[r[0]]} ({_labels(r[1:])})"

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


# --- the 7,462 values in order, each with the rank multiset that makes it ------------------

def _value_patterns() -> list[tuple[Category, tuple[int, ...], tuple[int, ...]]]:
    """(category, deciding ranks, rank multiset) for every value, weakest first."""
    desc = tuple(range(14, 1, -1))
    wheel = (14, 5, 4, 3, 2)
    straights = [wheel] + [tuple(range(top, top - 5, -1)) for top in range(6, 15)]
    straight_set = set(straights)
    distinct = sorted(c for c in combinations(desc, 5) if c not in straight_set)

    def others(*used: int) -> tuple[int, ...]:
        return tuple(r for r in desc if r not in used)

    high: list[tuple[Category, tuple[int, ...], tuple[int, ...]]] = [
        (Category.HIGH_CARD, c, c) for c in distinct
    ]
    pair = sorted(
        (Category.ONE_PAIR, (p, *k), (p, p, *k))
        for p in desc for k in combinations(others(p), 3)
    )
    two_pair = sorted(
        (Category.TWO_PAIR, (h, lo, k), (h, h, lo, lo, k))
        for h, lo in combinations(desc, 2) for k in others(h, lo)
    )
    trips = sorted(
        (Category.THREE_OF_A_KIND, (t, *k), (t, t, t, *k))
        for t in desc for k in combinations(others(t), 2)
    )
    straight = [(Category.STRAIGHT, (5 if s is wheel else s[0],), s) for s in straights]
    flush = [(Category.FLUSH, c, c) for c in distinct]
    full = sorted(
        (Category.FULL_HOUSE, (t, p), (t, t, t, p, p)) for t in desc for p in others(t)
    )
    quads = sorted(
        (Category.FOUR_OF_A_KIND, (q, k), (q, q, q, q, k)) for q in desc for k in others(q)
    )
    straight_flush = [
        (Category.ROYAL_FLUSH if top == 14 else Category.STRAIGHT_FLUSH, (top,), s)
        for (_, (top,), s) in straight
    ]
    out = high + pair + two_pair + trips + straight + flush + full + quads + straight_flush
    assert len(out) == STRENGTH_COUNT
    return out


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


_PRIME = {int(c.rank): c.prime for c in CARDS}
_RANK_BIT = {int(c.rank): c.rank_bit for c in CARDS}

_PATTERNS = _value_patterns()
ALL_VALUES: tuple[HandValue, ...] = tuple(
    _new_value(i, cat, ranks) for i, (cat, ranks, _) in enumerate(_PATTERNS)
)
"""The 7,462 values, weakest first: `ALL_VALUES[n].strength == n`."""
_BY_KEY: dict[tuple[Category, tuple[int, ...]], HandValue] = {
    (v.category, v.ranks): v for v in ALL_VALUES
}


_Table = dict[int, HandValue]

# Six cards are summed, not multiplied: each card adds its rank's key, its suit nibble and its
# own bit, in three fields of one int. The rank keys have distinct sums over every 6-card rank
# multiset (each rank at most four times; sums below 2,159,609 < 2**22: found by a greedy
# search, checked below); the suit nibbles count each suit; the card bits carry into each other
# iff a card is repeated. One sum answers all three questions. (For five cards, the product of
# rank primes and the equal-nibbles test measured faster; `rules._handbatch` reuses these keys.)
RANK_KEYS6 = (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437)
_SUITS_AT = 22
_CARDS_AT = _SUITS_AT + 16
_KEY6_MASK = (1 << _SUITS_AT) - 1
_CARD6 = tuple(
    RANK_KEYS6[c.rank - 2] + (c.suit_nibble << _SUITS_AT) + (1 << (c.index + _CARDS_AT))
    for c in CARDS
)


def _build_tables() -> tuple[_Table, _Table, _Table, _Table, array[int]]:
    prime = (0, 0, *(_PRIME[r] for r in range(2, 15))).__getitem__  # rank -> its prime
    bit = (0, 0, *(_RANK_BIT[r] for r in range(2, 15))).__getitem__  # rank -> its bit
    key6 = (0, 0, *RANK_KEYS6).__getitem__  # rank -> its key
    flushes = (Category.FLUSH, Category.STRAIGHT_FLUSH, Category.ROYAL_FLUSH)
    spread = (Category.HIGH_CARD, Category.STRAIGHT)
    flush5: _Table = {}
    spread5: _Table = {}
    paired5: _Table = {}
    flush5_strength: dict[int, int] = {}
    grow: list[tuple[int, HandValue, tuple[int, ...]]] = []
    for value, (cat, _, ranks) in zip(ALL_VALUES, _PATTERNS, strict=True):
        if cat in flushes:
            key = sum(map(bit, ranks))  # distinct ranks: the sum is the OR
            flush5[key] = value
            flush5_strength[key] = value.strength
            continue
        (spread5 if cat in spread else paired5)[prod(map(prime, ranks))] = value
        # the ranks that can be added to make six cards: any but a rank held four times
        addable = RANK_KEYS6 if cat is not Category.FOUR_OF_A_KIND else tuple(
            k for k in RANK_KEYS6 if k != key6(ranks[0])
        )
        grow.append((sum(map(key6, ranks)), value, addable))
    # Six cards, no flush: the best of the 5-card multisets inside each 6-card multiset. Every
    # 6-card multiset is a 5-card one plus one rank; `grow` is weakest first, so in this
    # comprehension the last (strongest) five written for a key wins.
    best6 = {k5 + k: value.strength for k5, value, addable in grow for k in addable}
    if len(best6) != 18_395:  # the number of 6-card rank multisets: the key sums are distinct
        raise AssertionError("6-card rank keys collide")
    # A flat uint16 array indexed by the key sum measured ~20% faster than a dict of 18,395
    # int keys (one memory read instead of three), and numpy can share it as is.
    plain6 = array("H", bytes(2 * (max(best6) + 1)))
    for key, strength in best6.items():
        plain6[key] = strength
    # Six cards, flush: 5 suited cards (the 5-card table) or 6 (the best of its six fives).
    flush6 = dict(flush5)
    get5 = flush5_strength.__getitem__
    for six in combinations(range(2, 15), 6):
        bits = tuple(map(bit, six))
        mask = sum(bits)
        flush6[mask] = ALL_VALUES[max(get5(mask ^ b) for b in bits)]
    return flush5, spread5, paired5, flush6, plain6


# Five cards: keyed by the OR of rank bits (flushes) or the product of rank primes, "spread" for
# hands of five different ranks (no repeated card possible), "paired" for the others. Six
# cards: keyed by the OR of the suited rank bits (flushes), or indexed by the sum of rank keys.
_FLUSH5, _SPREAD5, _PAIRED5, _FLUSH6, _PLAIN6 = _build_tables()
_CARD_BIT = tuple(1 << i for i in range(52))  # card index -> its bit, to spot a repeated card


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
            bit = _CARD_BIT
            if (bit[a.index] | bit[b.index] | bit[c.index] | bit[d.index]
                    | bit[e.index]).bit_count() == 5:
                return _PAIRED5[p]
    elif n == 6:
        a, b, c, d, e, f = cards
        key = _CARD6
        x = key[a.index] + key[b.index] + key[c.index] + key[d.index] + key[e.index] \
            + key[f.index]
        if (x >> _CARDS_AT).bit_count() == 6:  # no card bit carried: six different cards
            s = ((x >> _SUITS_AT) + 0x3333) & 0x8888
            if not s:
                return ALL_VALUES[_PLAIN6[x & _KEY6_MASK]]
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


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of many 5-card hands at once: an (N, 5) integer array of `Card.index` values
    (0..51, any order within a row, distinct within a row: not checked) -> (N,) uint16.
    uint8 input is the fastest. `HandValue.from_strength` turns a strength into a value."""
    import rules._handbatch as _handbatch  # numpy only when asked for

    return _handbatch.evaluate_batch(cards)


def evaluate6_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of many best-five-of-6 hands at once: (N, 6) card indices -> (N,) uint16."""
    import rules._handbatch as _handbatch  # numpy only when asked for

    return _handbatch.evaluate6_batch(cards)
