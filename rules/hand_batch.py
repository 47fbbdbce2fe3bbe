"""Many hands at once, with numpy: `evaluate_batch` (N, 5) and `evaluate6_batch` (N, 6) card
indices -> (N,) uint16 strengths; `HandValue.from_strength` turns a strength into a value.
Importing this module imports numpy (`rules.hands` never does); it depends on `rules.hands`
and `rules.hand_tables`, never the other way round.

Design (no sort, no per-hand Python). Each rank r gets a key K[r] such that the sums of keys
over all rank multisets of one hand size are distinct (5 cards: `_KEYS5`, sums below 360,919;
6 cards: `rules.hand_tables.RANK_KEYS6`, sums below 2,159,609; found once by a greedy search and
checked when the tables are built). So the key sum of a hand names its rank multiset, in any
card order, and a table indexed by it gives the strength of the hand as if it had no flush.
(The suggested alternative, a 2,598,960-entry table indexed by the combinatorial number of the
sorted cards, needs a per-row sort and a random read in 5 MB; this needs neither.)

The sum is taken two cards at a time: a 4,096-entry table indexed by `a << 6 | b` holds the key
sum of a pair of cards, so a 5-card hand needs three small gathers (pair, pair, card) and two
adds, then one gather in the strength table. Rows go through in chunks of 16,384 so that the
temporaries stay in the CPU caches.

Flushes are rare (0.2% of 5-card hands, 2% of 6-card hands) and fixed afterwards on just those
rows. 5 cards: a row is a flush when every card has the first card's suit (XORs of uint16
columns); its ranks are distinct, so its key-sum entry is the high card or straight of the same
ranks, and a 7,462-entry map sends that to the flush or straight flush. 6 cards: the pair table
also carries the suit counts in nibbles above bit 32 (plus 0x3333 on the first pair, so bit 3 of
a nibble flags five or more of a suit); with six cards a flush beats anything else those cards
make, so those rows take `flush6[OR of the suited rank bits]` (8,192 entries).

Tables, built once, lazily, on the first call of each function (measured on the development
machine, 2 shared and noisy cores): 5 cards 0.75 MB (the 360,919-entry uint16 strength table,
a 16 KB pair table, a 15 KB flush map), built in 20-30 ms; 6 cards 4.4 MB, but the 2,159,609-
entry uint16 strength table is `rules.hands.TABLES.plain6` itself, shared read-only, so only two
32 KB uint64 pair tables and a 16 KB flush table are new (built in a few ms).

Throughput there: 5 cards 55-95 M hands/s from uint8 input, 45-65 M/s from int64 (five times
the bytes to read; range-checked and cast chunk by chunk), 6 cards 40-55 M/s, depending on the
load from other jobs. `python bench/hands.py` prints current figures. Rows must hold distinct
cards: that is not checked (a row with a repeated card gets a meaningless strength).
"""

from __future__ import annotations

from math import prod
from typing import Any

import numpy as np
import numpy.typing as npt

from rules import hand_tables
from rules.hands import TABLES, HandSizeError

__all__ = ["evaluate6_batch", "evaluate_batch"]

_KEYS5 = (0, 1, 5, 22, 94, 312, 992, 2422, 5624, 12522, 19998, 43258, 79415)
_KEYS6 = hand_tables.RANK_KEYS6
_CHUNK = 1 << 14  # rows per pass: the temporaries stay in the CPU caches
_SUIT_SHIFT = 32  # 6-card pair table: suit-count nibbles above the key sum


class _Tables5:
    def __init__(self) -> None:
        card_key = np.zeros(64, np.uint32)
        card_key[:52] = np.repeat(np.array(_KEYS5, np.uint32), 4)
        self.single = card_key
        self.pair = (card_key[:, None] + card_key[None, :]).reshape(-1)
        multisets: list[tuple[int, ...]] = []
        strengths: list[int] = []
        fix = np.arange(hand_tables.STRENGTH_COUNT, dtype=np.uint16)
        prime = hand_tables.PRIME.__getitem__
        for strength, (cat, _, ranks) in enumerate(hand_tables.value_patterns()):
            if cat in hand_tables.FLUSHES:  # the same ranks without the flush: high card, straight
                fix[TABLES.spread5[prod(map(prime, ranks))].strength] = strength
            else:
                multisets.append(ranks)
                strengths.append(strength)
        keys = np.array(_KEYS5, np.int64)[np.array(multisets, np.int64) - 2].sum(axis=1)
        if len(np.unique(keys)) != len(keys):
            raise AssertionError("5-card rank keys collide")
        self.plain = np.zeros(int(keys.max()) + 1, np.uint16)
        self.plain[keys] = strengths
        self.flush_fix = fix

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.single, self.pair, self.plain, self.flush_fix))


class _Tables6:
    def __init__(self) -> None:
        card = np.arange(64)
        card_key = np.zeros(64, np.uint64)
        card_key[:52] = np.array(_KEYS6, np.uint64)[card[:52] >> 2]
        card_key[:52] += np.uint64(1) << (_SUIT_SHIFT + 4 * (card[:52] & 3)).astype(np.uint64)
        self.pair = (card_key[:, None] + card_key[None, :]).reshape(-1)
        self.first_pair = self.pair + np.uint64(0x3333 << _SUIT_SHIFT)
        self.flush_mask = np.uint64(0x8888 << _SUIT_SHIFT)
        # the single-call table, indexed by the same rank-key sums, shared (not copied)
        self.plain = np.frombuffer(TABLES.plain6, dtype=np.uint16)
        self.plain.flags.writeable = False
        self.flush = np.zeros(1 << 13, np.uint16)
        for mask, value in TABLES.flush6.items():
            self.flush[mask] = value.strength

    @property
    def nbytes(self) -> int:
        return sum(a.nbytes for a in (self.pair, self.first_pair, self.plain, self.flush))


_tables5: _Tables5 | None = None
_tables6: _Tables6 | None = None


def tables5() -> _Tables5:
    global _tables5
    if _tables5 is None:
        _tables5 = _Tables5()
    return _tables5


def tables6() -> _Tables6:
    global _tables6
    if _tables6 is None:
        _tables6 = _Tables6()
    return _tables6


def _card_rows(cards: npt.ArrayLike, width: int) -> npt.NDArray[np.unsignedinteger[Any]]:
    """The rows as an unsigned integer array (a view when possible: a negative index becomes
    a huge one), so that one `max()` per chunk checks the range."""
    x = np.asarray(cards)
    if x.ndim != 2 or x.shape[1] != width:
        raise HandSizeError(
            f"expected an (N, {width}) array of card indices, got shape {x.shape}"
        )
    if x.dtype.kind not in "iu":
        raise TypeError(f"card indices must be integers, got {x.dtype}")
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))
    return x.view(f"u{x.dtype.itemsize}")


def _check_range(rows: npt.NDArray[np.unsignedinteger[Any]]) -> None:
    if rows.max() > 51:
        raise ValueError("card indices are 0..51")


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of many 5-card hands at once: an (N, 5) integer array of `Card.index` values
    (0..51, any order within a row, distinct within a row: not checked) -> (N,) uint16.
    uint8 input is the fastest."""
    x = _card_rows(cards, 5)
    t = tables5()
    n = len(x)
    out = np.empty(n, np.uint16)
    for start in range(0, n, _CHUNK):
        rows = x[start : start + _CHUNK]
        _check_range(rows)
        cols = np.array(rows.T, dtype=np.uint16, order="C")
        a, b, c, d, e = cols
        s = t.pair.take((a << 6) | b, mode="clip")
        s += t.pair.take((c << 6) | d, mode="clip")
        s += t.single.take(e, mode="clip")
        o = t.plain.take(s, mode="clip")
        f = (a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)
        flush = np.flatnonzero((f & 3) == 0)
        if len(flush):
            o[flush] = t.flush_fix.take(o[flush])
        out[start : start + len(o)] = o
    return out


def evaluate6_batch(cards: npt.ArrayLike) -> npt.NDArray[np.uint16]:
    """Strengths of many best-five-of-6 hands at once: (N, 6) card indices -> (N,) uint16."""
    x = _card_rows(cards, 6)
    t = tables6()
    n = len(x)
    out = np.empty(n, np.uint16)
    for start in range(0, n, _CHUNK):
        rows = x[start : start + _CHUNK]
        _check_range(rows)
        cols = np.array(rows.T, dtype=np.uint16, order="C")
        a, b, c, d, e, f = cols
        s = t.first_pair.take((a << 6) | b, mode="clip")
        s += t.pair.take((c << 6) | d, mode="clip")
        s += t.pair.take((e << 6) | f, mode="clip")
        o = t.plain.take(s.astype(np.uint32), mode="clip")
        flush = np.flatnonzero(s & t.flush_mask)
        if len(flush):
            sub = cols[:, flush].T
            suits = sub & 3
            suit = np.sort(suits, axis=1)[:, 2:3]  # five or six of the six share it
            bits = np.where(suits == suit, np.left_shift(1, sub >> 2, dtype=np.uint16), 0)
            o[flush] = t.flush.take(bits.sum(axis=1))
        out[start : start + len(o)] = o
    return out
