"""The lookup tables behind `rules.hands`: the 7,462 hand values in order, and the tables that
find a hand's value from keys its cards carry. Pure builders; `rules.hands` calls them once at
import (nothing here knows `HandValue`: the builders take the values as a sequence indexed by
strength, and name categories by number, `Category`'s values).

How the keys work. Every `Card` carries `prime` (its rank's prime), `rank_bit`, `suit_nibble`
and `index`. Five cards are a flush iff their five suit nibbles are equal; then the OR of their
rank bits keys `flush5` (1,287 entries). Otherwise the product of their rank primes, unique per
rank multiset, keys `spread5` (1,287 hands of five different ranks) or `paired5` (4,888). A
repeated card is caught by the OR of `1 << card.index` (fewer bits than cards), a check only
paired hands need: five different ranks cannot hold a card twice. Six cards are summed instead
(`CARD6[card.index]`: rank key + suit nibble + card bit, one int per card, see `RANK_KEYS6`):
the sum's card-bit field has six bits iff no card repeats; its suit field plus 0x3333 has bit 3
of a nibble set iff that suit holds five or more cards; its key field names the rank multiset.
With six cards a flush beats anything else the same cards can make (five suited cards leave
room for at most a pair), so such a hand is `flush6[OR of the suited rank bits]` (5- or 6-bit
masks, 3,003 entries) and any other is `values[plain6[key sum]]` (a 2,159,609-entry uint16
array, 4.3 MB, holding the strength of the best five of the six for each of the 18,395 rank
multisets, each rank at most four times).

All tables are built from rank patterns only (the 7,462 values in order, each with its rank
multiset; the 6-card tables by taking, for each 5-card multiset and each rank that can be
added, the strongest), never by enumerating hands.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from math import prod
from typing import Generic, TypeVar

from rules.cards import CARDS

# The categories by number, weakest first, as `rules.hands.Category` numbers them.
(HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND,
 STRAIGHT_FLUSH, ROYAL_FLUSH) = range(10)
FLUSHES = (FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH)

STRENGTH_COUNT = 7462
"""The number of distinct hand values (strengths 0..7461)."""

Pattern = tuple[int, tuple[int, ...], tuple[int, ...]]
"""A value's category number, its deciding ranks and the rank multiset that makes it."""

PRIME = {int(c.rank): c.prime for c in CARDS}  # rank -> its prime
RANK_BIT = {int(c.rank): c.rank_bit for c in CARDS}  # rank -> its bit

# Six cards are summed, not multiplied: each card adds its rank's key, its suit nibble and its
# own bit, in three fields of one int. The rank keys have distinct sums over every 6-card rank
# multiset (each rank at most four times; sums below 2,159,609 < 2**22: found by a greedy
# search, checked by `build_tables`); the suit nibbles count each suit; the card bits carry into
# each other iff a card is repeated. One sum answers all three questions. (For five cards, the
# product of rank primes and the equal-nibbles test measured faster; `rules.hand_batch` reuses
# these keys.)
RANK_KEYS6 = (0, 1, 5, 22, 98, 422, 1734, 5760, 14270, 37951, 90838, 206930, 436437)
SUITS_AT = 22
CARDS_AT = SUITS_AT + 16
KEY6_MASK = (1 << SUITS_AT) - 1
CARD6 = tuple(
    RANK_KEYS6[c.rank - 2] + (c.suit_nibble << SUITS_AT) + (1 << (c.index + CARDS_AT))
    for c in CARDS
)
CARD_BIT = tuple(1 << i for i in range(52))  # card index -> its bit, to spot a repeated card


@cache
def value_patterns() -> tuple[Pattern, ...]:
    """(category, deciding ranks, rank multiset) for every value, weakest first: the position
    of a pattern is its value's strength."""
    desc = tuple(range(14, 1, -1))
    wheel = (14, 5, 4, 3, 2)
    straights = [wheel] + [tuple(range(top, top - 5, -1)) for top in range(6, 15)]
    straight_set = set(straights)
    distinct = sorted(c for c in combinations(desc, 5) if c not in straight_set)

    def others(*used: int) -> tuple[int, ...]:
        return tuple(r for r in desc if r not in used)

    high: list[Pattern] = [(HIGH_CARD, c, c) for c in distinct]
    pair = sorted(
        (ONE_PAIR, (p, *k), (p, p, *k)) for p in desc for k in combinations(others(p), 3)
    )
    two_pair = sorted(
        (TWO_PAIR, (h, lo, k), (h, h, lo, lo, k))
        for h, lo in combinations(desc, 2) for k in others(h, lo)
    )
    trips = sorted(
        (THREE_OF_A_KIND, (t, *k), (t, t, t, *k))
        for t in desc for k in combinations(others(t), 2)
    )
    straight = [(STRAIGHT, (5 if s is wheel else s[0],), s) for s in straights]
    flush = [(FLUSH, c, c) for c in distinct]
    full = sorted((FULL_HOUSE, (t, p), (t, t, t, p, p)) for t in desc for p in others(t))
    quads = sorted((FOUR_OF_A_KIND, (q, k), (q, q, q, q, k)) for q in desc for k in others(q))
    straight_flush = [
        (ROYAL_FLUSH if top == 14 else STRAIGHT_FLUSH, (top,), s) for (_, (top,), s) in straight
    ]
    out = high + pair + two_pair + trips + straight + flush + full + quads + straight_flush
    assert len(out) == STRENGTH_COUNT
    return tuple(out)


V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class Tables(Generic[V]):
    """Five cards: keyed by the OR of rank bits (flushes) or the product of rank primes,
    "spread" for hands of five different ranks (no repeated card possible), "paired" for the
    others. Six cards: keyed by the OR of the suited rank bits (flushes), or the strength
    indexed by the sum of rank keys (`plain6`). Built once; never written to afterwards."""

    flush5: dict[int, V]
    spread5: dict[int, V]
    paired5: dict[int, V]
    flush6: dict[int, V]
    plain6: array[int]  # uint16 strengths


def build_tables(values: Sequence[V], patterns: Sequence[Pattern]) -> Tables[V]:
    """The tables, holding `values[strength]` (the interned hand values)."""
    prime = (0, 0, *(PRIME[r] for r in range(2, 15))).__getitem__  # rank -> its prime
    bit = (0, 0, *(RANK_BIT[r] for r in range(2, 15))).__getitem__  # rank -> its bit
    key6 = (0, 0, *RANK_KEYS6).__getitem__  # rank -> its key
    spread = (HIGH_CARD, STRAIGHT)
    flush5: dict[int, V] = {}
    spread5: dict[int, V] = {}
    paired5: dict[int, V] = {}
    flush5_strength: dict[int, int] = {}
    grow: list[tuple[int, int, tuple[int, ...]]] = []
    for strength, (cat, _, ranks) in enumerate(patterns):
        value = values[strength]
        if cat in FLUSHES:
            key = sum(map(bit, ranks))  # distinct ranks: the sum is the OR
            flush5[key] = value
            flush5_strength[key] = strength
            continue
        (spread5 if cat in spread else paired5)[prod(map(prime, ranks))] = value
        # the ranks that can be added to make six cards: any but a rank held four times
        addable = RANK_KEYS6 if cat != FOUR_OF_A_KIND else tuple(
            k for k in RANK_KEYS6 if k != key6(ranks[0])
        )
        grow.append((sum(map(key6, ranks)), strength, addable))
    # Six cards, no flush: the best of the 5-card multisets inside each 6-card multiset. Every
    # 6-card multiset is a 5-card one plus one rank; `grow` is weakest first, so in this
    # comprehension the last (strongest) five written for a key wins.
    best6 = {k5 + k: strength for k5, strength, addable in grow for k in addable}
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
        flush6[mask] = values[max(get5(mask ^ b) for b in bits)]
    return Tables(flush5, spread5, paired5, flush6, plain6)
