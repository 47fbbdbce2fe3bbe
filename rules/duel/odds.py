"""The odds of a duel's remaining hands, from the public view only.

Nobody at the table sees a hidden card, so both players know the same thing: the face-up card
of each of the six hands, every turned-over hand of this deal (`cards_out`), and hence the
*unseen* cards (the 52 minus all of those). Since every choice so far was made from that same
public information, the hidden cards are a uniformly random arrangement of the unseen ones:
each remaining hand's four hidden cards are a uniform 4-subset of them, and two hands' hidden
cards are two disjoint such subsets.

- `table_of(view)` -> `Table`: the public-only structure everything here reads (remaining
  hands, their known cards, the unseen cards). Swapping hidden cards cannot change it.
- `category_odds(table)`: each remaining hand's distribution over the ten categories, always
  exact (every completion enumerated: C(46, 4) = 163,185 of them at most, a few ms with
  `evaluate_batch`); error 0.
- `pair_odds(table, a, b, rng)`: P(hand a beats / ties / loses to hand b). Exact when cheap:
  every pair of completions compared when there are at most `EXACT_PAIRS` of them (reduced
  decks), else counted by inclusion-exclusion over shared cards when each hand has at most
  `EXACT_COMPLETIONS` completions (30 unseen cards or fewer: a bonus duel, 60-120 ms here);
  otherwise (the first two bullets of a deal, and tiebreak deals) sampled with the caller's
  random source, and the error says how far off it may be (`error`: the largest 95%
  half-width of the three estimates, binomial, with the rule of three for an estimate of 0 or
  1; `samples`). An exact answer has `exact=True`, `error=0.0`.
- `all_pair_odds(table, rng)`: every ordered pair at once, from one joint sample of all the
  remaining hands (or exact when cheap).
- `sample_strengths(table, n, rng)`: n joint completions of all remaining hands, disjoint, as an
  (n, hands) array of strengths (`rules.hand_batch`); the AI's raw material.

Pure: no clock, no global random state; sampling uses only the random source passed in (a
`random.Random` or a numpy `Generator`), so the same source gives the same answer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from math import comb, sqrt
from typing import Any

import numpy as np
import numpy.typing as npt

from rules.cards import CARDS, Card
from rules.duel.view import HandState, PublicView
from rules.hand_batch import evaluate_batch
from rules.hands import ALL_VALUES, Category

__all__ = [
    "DEFAULT_SAMPLES", "EXACT_COMPLETIONS", "EXACT_PAIRS", "CategoryOdds", "PairOdds", "Table",
    "all_pair_odds", "as_generator", "categories_of", "category_odds", "pair_odds",
    "sample_strengths", "table_of",
]

EXACT_PAIRS = 4_000_000  # pairs of completions compared one by one at most
EXACT_COMPLETIONS = 30_000  # completions of a hand counted by inclusion-exclusion at most
DEFAULT_SAMPLES = 20_000  # joint completions drawn when sampling
Z95 = 1.959964

Rng = random.Random | np.random.Generator
IntArray = npt.NDArray[np.int64]

_CATEGORY_OF = np.array([int(v.category) for v in ALL_VALUES], np.uint8)  # by strength


def categories_of(strengths: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """The category numbers (0 high card .. 9 royal flush) of an array of strengths."""
    return _CATEGORY_OF[np.asarray(strengths, dtype=np.int64)]


def as_generator(rng: Rng) -> np.random.Generator:
    """A numpy Generator drawn from the caller's source (a `random.Random` advances by one
    128-bit draw; a Generator is used as is)."""
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(rng.getrandbits(128))


@dataclass(frozen=True, slots=True)
class Table:
    """What the odds depend on, all of it public: the remaining hands (their positions and
    known cards: the face-up card in play), and the unseen cards their other cards come from.
    A hand needs `5 - len(known)` more cards."""

    positions: tuple[int, ...]
    known: tuple[tuple[Card, ...], ...]
    unseen: tuple[Card, ...]

    def __post_init__(self) -> None:
        if len(self.positions) != len(self.known):
            raise ValueError("one tuple of known cards per remaining hand")
        cards = [c for k in self.known for c in k] + list(self.unseen)
        if len(set(cards)) != len(cards):
            raise ValueError("a card is both known and unseen, or known twice")
        if any(not 1 <= len(k) <= 5 for k in self.known):
            raise ValueError("a hand has 1 to 5 known cards")
        if sum(self.missing(i) for i in range(len(self.known))) > len(self.unseen):
            raise ValueError("not enough unseen cards to complete every hand")

    def missing(self, i: int) -> int:
        """The hidden cards of the i-th remaining hand (0 when all five are known)."""
        return 5 - len(self.known[i])

    def index(self, position: int) -> int:
        return self.positions.index(position)


def table_of(view: PublicView) -> Table:
    """The public table of the deal in play: every hand not turned over yet (available, or
    chosen this bullet) with its face-up card; unseen = 52 minus every face-up card, every
    turned-over hand and `cards_out`."""
    seen: set[Card] = set(view.cards_out)
    positions: list[int] = []
    known: list[tuple[Card, ...]] = []
    for h in view.hands:
        seen.add(h.face_up)
        if h.state is HandState.REVEALED:
            seen |= set(h.cards or ())
        else:
            positions.append(h.position)
            known.append((h.face_up,))
    unseen = tuple(c for c in CARDS if c not in seen)
    return Table(tuple(positions), tuple(known), unseen)


# --- exact counting ----------------------------------------------------------------------


@lru_cache(maxsize=64)
def _combos(n: int, k: int) -> IntArray:
    """Every k-subset of range(n), one per row (shape (C(n, k), k)), read-only."""
    if k == 0:
        out = np.zeros((1, 0), np.int64)
    else:
        flat = np.fromiter((i for c in combinations(range(n), k) for i in c), np.int64,
                           count=comb(n, k) * k)
        out = flat.reshape(-1, k)
    out.flags.writeable = False
    return out


def _unseen_index(table: Table) -> IntArray:
    return np.array([c.index for c in table.unseen], np.int64)


def _completions(table: Table, i: int) -> tuple[IntArray, npt.NDArray[np.uint16]]:
    """Every completion of hand i (rows of indices into `unseen`) and its strength."""
    k = table.missing(i)
    rows = _combos(len(table.unseen), k)
    cards = np.empty((len(rows), 5), np.int64)
    cards[:, : 5 - k] = [c.index for c in table.known[i]]
    cards[:, 5 - k :] = _unseen_index(table)[rows]
    return rows, evaluate_batch(cards.astype(np.uint8))


@dataclass(frozen=True, slots=True)
class CategoryOdds:
    position: int
    probabilities: tuple[float, ...]  # indexed by Category (0 high card .. 9 royal flush)
    completions: int  # how many completions were counted
    error: float = 0.0  # always exact

    def p(self, category: Category) -> float:
        return self.probabilities[int(category)]

    def at_least(self, category: Category) -> float:
        """P(this category or better)."""
        return float(sum(self.probabilities[int(category):]))


def category_odds(table: Table) -> tuple[CategoryOdds, ...]:
    """Each remaining hand's category distribution over all its completions (exact)."""
    out: list[CategoryOdds] = []
    for i, pos in enumerate(table.positions):
        _, strengths = _completions(table, i)
        counts = np.bincount(_CATEGORY_OF[strengths], minlength=10)
        total = int(counts.sum())
        out.append(CategoryOdds(pos, tuple(float(c) / total for c in counts), total))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class PairOdds:
    """P(first hand beats / ties / loses to the second), both completed from the unseen
    cards without overlap. `error` is the largest 95% half-width (0 when exact)."""

    first: int  # positions
    second: int
    win: float
    tie: float
    lose: float
    exact: bool
    samples: int  # pairs of completions counted (exact) or joint completions drawn
    error: float

    def swapped(self) -> PairOdds:
        return PairOdds(self.second, self.first, self.lose, self.tie, self.win, self.exact,
                        self.samples, self.error)


def exact_pairs(table: Table, a: int, b: int) -> int:
    """The number of pairs of completions an exact count of hands a, b (indices) compares."""
    n = len(table.unseen)
    return comb(n, table.missing(a)) * comb(n, table.missing(b))


def _exact_pair(table: Table, a: int, b: int) -> PairOdds:
    rows_a, s_a = _completions(table, a)
    rows_b, s_b = _completions(table, b)
    bits = np.left_shift(np.int64(1), np.arange(len(table.unseen), dtype=np.int64))
    mask_a = bits[rows_a].sum(axis=1)
    mask_b = bits[rows_b].sum(axis=1)
    win = tie = total = 0
    step = max(1, EXACT_PAIRS // max(1, len(rows_b)))
    for start in range(0, len(rows_a), step):
        ma, sa = mask_a[start : start + step, None], s_a[start : start + step, None]
        ok = (ma & mask_b[None, :]) == 0
        total += int(ok.sum())
        win += int((ok & (sa > s_b[None, :])).sum())
        tie += int((ok & (sa == s_b[None, :])).sum())
    lose = total - win - tie
    return PairOdds(table.positions[a], table.positions[b], win / total, tie / total,
                    lose / total, True, total, 0.0)


@lru_cache(maxsize=64)
def _subset_ids(n: int, k: int, t: int) -> IntArray:
    """For each row of `_combos(n, k)`, the combinatorial number (an id among the t-subsets
    of range(n)) of each of its C(k, t) t-subsets: shape (C(n, k), C(k, t)), read-only."""
    rows = _combos(n, k)
    sub = rows[:, _combos(k, t)]  # (rows, C(k, t), t), ascending along the last axis
    binom = np.array([[comb(c, i) for i in range(t + 1)] for c in range(n)], np.int64)
    ids = np.zeros(sub.shape[:2], np.int64)
    for i in range(t):
        ids += binom[sub[:, :, i], i + 1]
    ids.flags.writeable = False
    return ids


def _counted_pair(table: Table, a: int, b: int) -> PairOdds:
    """Exact odds by inclusion-exclusion over the cards two completions share:
    #{disjoint x, y: s(x) > s(y)} = sum over card sets S of (-1)^|S| #{x, y both holding S:
    s(x) > s(y)}; for each size of S the pairs are counted group by group (by S) on sorted
    (id of S, strength) keys, so no pair of completions is ever formed."""
    n, ka, kb = len(table.unseen), table.missing(a), table.missing(b)
    _, s_a = _completions(table, a)
    _, s_b = _completions(table, b)
    width = 1 << 13  # above every strength
    win = tie = 0
    for t in range(min(ka, kb) + 1):
        key_a = (_subset_ids(n, ka, t) * width + s_a[:, None]).ravel()
        key_a.sort()
        ids_b = _subset_ids(n, kb, t)
        key_b = (ids_b * width + s_b[:, None]).ravel()
        above = np.searchsorted(key_a, (ids_b.ravel() + 1) * width, "left")
        upto = np.searchsorted(key_a, key_b, "right")
        below = np.searchsorted(key_a, key_b, "left")
        sign = -1 if t % 2 else 1
        win += sign * int((above - upto).sum())
        tie += sign * int((upto - below).sum())
    total = comb(n, ka) * comb(n - ka, kb)
    return PairOdds(table.positions[a], table.positions[b], win / total, tie / total,
                    (total - win - tie) / total, True, total, 0.0)


def _exact(table: Table, a: int, b: int) -> PairOdds | None:
    """The exact odds of hands a, b (indices) if they are cheap to count, else None."""
    if exact_pairs(table, a, b) <= EXACT_PAIRS:
        return _exact_pair(table, a, b)
    n = len(table.unseen)
    if max(comb(n, table.missing(a)), comb(n, table.missing(b))) <= EXACT_COMPLETIONS:
        return _counted_pair(table, a, b)
    return None


def _half_width(p: float, n: int) -> float:
    if p <= 0.0 or p >= 1.0:
        return 3.0 / n  # the rule of three: a 95% bound for an event never (always) seen
    return Z95 * sqrt(p * (1.0 - p) / n)


def _sampled_pair(strengths: npt.NDArray[Any], table: Table, a: int, b: int) -> PairOdds:
    n = len(strengths)
    sa, sb = strengths[:, a], strengths[:, b]
    win = float(np.count_nonzero(sa > sb)) / n
    tie = float(np.count_nonzero(sa == sb)) / n
    lose = float(np.count_nonzero(sa < sb)) / n
    error = max(_half_width(p, n) for p in (win, tie, lose))
    return PairOdds(table.positions[a], table.positions[b], win, tie, lose, False, n, error)


def sample_strengths(table: Table, n: int, rng: Rng) -> npt.NDArray[np.uint16]:
    """n joint completions of every remaining hand (hidden cards drawn from the unseen ones
    without overlap, uniformly): an (n, hands) array of strengths, column i for hand i."""
    gen = as_generator(rng)
    u = len(table.unseen)
    need = [table.missing(i) for i in range(len(table.positions))]
    total = sum(need)
    unseen = _unseen_index(table)
    if total:
        order = gen.random((n, u), dtype=np.float32).argsort(axis=1)[:, :total]
        drawn = unseen[order]
    else:
        drawn = np.zeros((n, 0), np.int64)
    out = np.empty((n, len(need)), np.uint16)
    at = 0
    for i, k in enumerate(need):
        cards = np.empty((n, 5), np.uint8)
        cards[:, : 5 - k] = [c.index for c in table.known[i]]
        cards[:, 5 - k :] = drawn[:, at : at + k]
        at += k
        out[:, i] = evaluate_batch(cards)
    return out


def pair_odds(table: Table, first: int, second: int, rng: Rng | None = None,
              samples: int = DEFAULT_SAMPLES) -> PairOdds:
    """P(the hand at position `first` beats / ties / loses to the one at `second`). Exact
    when cheap (see `EXACT_PAIRS`), else sampled from `rng` (required then)."""
    a, b = table.index(first), table.index(second)
    if a == b:
        raise ValueError("two different hands")
    exact = _exact(table, a, b)
    if exact is not None:
        return exact
    if rng is None:
        raise ValueError("these odds are sampled: pass a random source")
    return _sampled_pair(sample_strengths(table, samples, rng), table, a, b)


def all_pair_odds(table: Table, rng: Rng | None = None,
                  samples: int = DEFAULT_SAMPLES) -> dict[tuple[int, int], PairOdds]:
    """The odds of every ordered pair of remaining hands, keyed by their positions: exact
    pairs counted, the others from one joint sample of `samples` completions."""
    hands = range(len(table.positions))
    out: dict[tuple[int, int], PairOdds] = {}
    strengths: npt.NDArray[np.uint16] | None = None
    for a, b in combinations(hands, 2):
        exact = _exact(table, a, b)
        if exact is not None:
            odds = exact
        else:
            if rng is None:
                raise ValueError("these odds are sampled: pass a random source")
            if strengths is None:
                strengths = sample_strengths(table, samples, rng)
            odds = _sampled_pair(strengths, table, a, b)
        out[odds.first, odds.second] = odds
        out[odds.second, odds.first] = odds.swapped()
    return out
