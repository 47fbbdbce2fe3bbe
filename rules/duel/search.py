"""The expectimax over the rest of a deal, from the public view only: the `normal` AI's
one-bullet search (`rules.duel.ai`); the review and `hard` judge by `rules.duel.judge`.

`Search(view, me, odds_of(view, samples, rng), depth, leaf)` values each of `me`'s bets: both
players' later choices are a max/min over what is public then (the stacks after each bullet;
the hands' odds as known now, a subset of what will be known), chance is each bullet's outcome
(win, tie, loss and, in a bonus duel, the winner's category) with the probabilities of one
joint sample of the remaining hands' completions; stakes are capped as the rules cap them, a
bust ends the duel. `leaf_after(view, me, final)` makes a leaf from the worth of a finished
duel (`win_chances`: P(win)): after round 1, round 2 is the chance node `ROUND_NET`
(`deal_end`, which the rollouts of `hard` read too).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import numpy.typing as npt

from rules.duel import stakes
from rules.duel.actions import Bet
from rules.duel.odds import Rng, as_generator, categories_of, sample_strengths, table_of
from rules.duel.view import HandState, PublicView
from rules.hands import Category

__all__ = ["CHIP_WEIGHT", "ROUND_NET", "TIEBREAK_EDGE", "Odds", "Search", "deal_end",
           "leaf_after", "odds_of", "win_chances"]

CHIP_WEIGHT = 0.002  # a chip's worth, in units of a won duel (+1), in `hard`'s leaves
# A level finish goes to a tiebreak bullet, where the player who did not deal round 1 picks
# first among six hands: worth about +0.11 of a won duel to them, normal v normal (10,000
# seeded tiebreak deals: 55.3% won, 44.7% lost, 0.01% tied again).
TIEBREAK_EDGE = 0.1

# The net chips of a round for the round's opponent (the player who acts first), normal vs
# normal from two equal 50-chip stacks: {net: probability}. Measured once with
# `python bench/ai_arena.py --round-net 20000` (20,000 seeded rounds, mean +0.54).
ROUND_NET: dict[int, float] = {
    -26: 0.00005, -18: 0.00005, -13: 0.00020, -11: 0.00060, -10: 0.00055, -9: 0.00320, -8: 0.00705,
    -7: 0.05740, -6: 0.03205, -5: 0.00785, -4: 0.01675, -3: 0.14020, -2: 0.09625, -1: 0.07225,
    0: 0.01920, 1: 0.08630, 2: 0.10830, 3: 0.15800, 4: 0.02470, 5: 0.01125, 6: 0.04465,
    7: 0.09110, 8: 0.01360, 9: 0.00620, 10: 0.00095, 11: 0.00055, 13: 0.00040, 18: 0.00015,
    22: 0.00010, 26: 0.00010,
}

_MULTIPLIER = tuple(Category(c).multiplier for c in range(10))

Stacks = tuple[int, int]
Floats = npt.NDArray[np.float64]
Outcomes = list[tuple[float, int, int]]  # probability, winner (+1 first / -1 second / 0), bonus


# --- the odds of the deal, as the search reads them ----------------------------------------


@dataclass(frozen=True, slots=True)
class Odds:
    positions: tuple[int, ...]
    win: list[list[float]]  # win[i][j]: P(hand i beats hand j) (indices into positions)
    tie: list[list[float]]
    bonus: dict[tuple[int, int], Outcomes]  # i v j in a bonus duel: (p, winner side, bonus)


def odds_of(view: PublicView, samples: int, rng: Rng) -> Odds:
    table = table_of(view)
    s = sample_strengths(table, samples, as_generator(rng)).astype(np.int32)
    cats = categories_of(s)
    h = len(table.positions)
    gt = (s[:, :, None] > s[:, None, :]).mean(axis=0)
    eq = (s[:, :, None] == s[:, None, :]).mean(axis=0)
    bonus: dict[tuple[int, int], Outcomes] = {}
    n = float(len(s))
    for i, j in combinations(range(h), 2):
        wins_i = s[:, i] > s[:, j]
        wins_j = s[:, j] > s[:, i]
        ci = np.bincount(cats[wins_i, i], minlength=10)
        cj = np.bincount(cats[wins_j, j], minlength=10)
        tie = float(eq[i, j])
        out: Outcomes = [(float(ci[c]) / n, 1, _MULTIPLIER[c]) for c in range(10) if ci[c]]
        out += [(float(cj[c]) / n, -1, _MULTIPLIER[c]) for c in range(10) if cj[c]]
        if tie:
            out.append((tie, 0, 0))
        bonus[i, j] = out
        bonus[j, i] = [(p, -w, b) for p, w, b in out]
    return Odds(table.positions, gt.tolist(), eq.tolist(), bonus)


# --- the search ----------------------------------------------------------------------------


def _settle(stacks: Stacks, first: int, winner: int, stake_win: int, bonus: int) -> Stacks:
    """Stacks after `first`'s side (+1) or the other's (-1) won `stake_win` plus a bonus
    capped by what the loser has left; winner 0 changes nothing."""
    if winner == 0:
        return stacks
    w = first if winner > 0 else 1 - first
    s = [stacks[0], stacks[1]]
    gain = min(stake_win, s[1 - w])
    s[w] += gain
    s[1 - w] -= gain
    paid = min(bonus, s[1 - w])
    s[w] += paid
    s[1 - w] -= paid
    return s[0], s[1]


class Search:
    """Expectimax over the rest of the deal (`depth` bullets at most), values for `me`."""

    def __init__(self, view: PublicView, me: int, odds: Odds, depth: int,
                 leaf: Callable[[Stacks, bool], float]) -> None:
        self.view, self.me, self.odds, self.depth, self.leaf = view, me, odds, depth, leaf
        self.opp, self.dealer = view.opponent, view.dealer
        self.memo: dict[tuple[int, Stacks, int], float] = {}
        self.tiebreak = view.is_tiebreak

    def best(self, player: int, values: list[float]) -> float:
        return max(values) if player == self.me else min(values)

    def after(self, avail: int, stacks: Stacks, b: int, done: int) -> float:
        """The value once a bullet is settled: the bullets left, or a leaf."""
        if 0 in stacks:
            return self.leaf(stacks, True)
        round_over = self.tiebreak or b >= 3
        if round_over or done >= self.depth:
            return self.leaf(stacks, round_over)
        return self.node(avail, stacks, b + 1, done)

    def node(self, avail: int, stacks: Stacks, b: int, done: int) -> float:
        key = (avail, stacks, b)
        if key not in self.memo:
            hands = [i for i in range(len(self.odds.positions)) if avail >> i & 1]
            values = [self.opp_move(avail, stacks, b, done, i, c)
                      for i in hands for c in self.chips(self.opp, stacks, b)]
            self.memo[key] = self.best(self.opp, values)
        return self.memo[key]

    def bonus_duel(self, b: int) -> bool:
        return self.tiebreak or b == 3

    def chips(self, player: int, stacks: Stacks, b: int) -> list[int]:
        return stakes.allowed_chips(stacks[player], self.bonus_duel(b))

    def opp_move(self, avail: int, stacks: Stacks, b: int, done: int, i: int, c: int) -> float:
        """The value once the opponent put `c` on hand `i`: the dealer's best answer."""
        rest = avail & ~(1 << i)
        hands = [j for j in range(len(self.odds.positions)) if rest >> j & 1]
        values = [self.outcome(rest & ~(1 << j), stacks, b, done, i, c, j, d)
                  for j in hands for d in self.chips(self.dealer, stacks, b)]
        return self.best(self.dealer, values)

    def outcome(self, avail: int, stacks: Stacks, b: int, done: int, i: int, c: int, j: int,
                d: int) -> float:
        """The expected value of the opponent's `c` on hand i against the dealer's `d` on j."""
        opp, done = self.opp, done + 1
        if self.bonus_duel(b):
            stake = min(c, d)
            return sum(p * self.after(avail, _settle(stacks, opp, w, stake, bonus), b, done)
                       for p, w, bonus in self.odds.bonus[i, j])
        if c == d == 1:
            return self.after(avail, stacks, b, done)
        if c != d:
            return self.after(avail, _settle(stacks, opp, 1 if c > d else -1, 1, 0), b, done)
        win, tie = self.odds.win[i][j], self.odds.tie[i][j]
        value = win * self.after(avail, _settle(stacks, opp, 1, 2, 0), b, done)
        if tie:
            value += tie * self.after(avail, stacks, b, done)
        lose = 1.0 - win - tie
        if lose > 0:
            value += lose * self.after(avail, _settle(stacks, opp, -1, 2, 0), b, done)
        return value

    def decide(self, bets: list[Bet]) -> Bet:
        view, odds = self.view, self.odds
        stacks, b = view.stacks, view.bullet_in_round
        index = {pos: k for k, pos in enumerate(odds.positions)}
        avail = sum(1 << k for k in range(len(odds.positions)))
        scored: list[tuple[float, int, Bet]] = []
        chosen = [h for h in view.hands if h.state is HandState.CHOSEN]
        for n, bet in enumerate(bets):
            k = index[bet.position]
            if self.me == self.opp:
                value = self.opp_move(avail, stacks, b, 0, k, bet.chips)
            else:
                i, c = index[chosen[0].position], chosen[0].chips
                rest = avail & ~(1 << i) & ~(1 << k)
                value = self.outcome(rest, stacks, b, 0, i, c, k, bet.chips)
            scored.append((value, -n, bet))
        return max(scored, key=lambda t: (t[0], t[1]))[2]


def win_chances(view: PublicView, me: int) -> Floats:
    """P(`me` wins) of the duel ended with `me` at m chips, for m = 0 .. both stacks: 1 ahead,
    0 behind, a level finish ``0.5 +/- TIEBREAK_EDGE / 2`` (the tiebreak's first pick goes to
    the player who did not deal round 1)."""
    total = sum(view.stacks)
    level = 0.5 + (TIEBREAK_EDGE if me != view.first_dealer else -TIEBREAK_EDGE) / 2
    mine = np.arange(total + 1)
    out: Floats = np.where(2 * mine > total, 1.0, np.where(2 * mine < total, 0.0, level))
    return out


def deal_end(view: PublicView, me: int, final: Floats) -> Floats:
    """What the end of this deal is worth to `me` at each of `me`'s stacks, from `final` (the
    worth of a finished duel): after round 1, round 2 is the chance node `ROUND_NET` for its
    opponent (the first dealer: round 2 is dealt by the other player); a bust (a stack of 0,
    or all of them) ends the duel; a later deal ends it too."""
    if view.round >= 2:
        return final
    total = len(final) - 1
    mine = np.arange(total + 1)
    theirs = total - mine
    sign = 1 if me == view.first_dealer else -1  # does `me` gain round 2's net?
    opp, other = (mine, theirs) if sign > 0 else (theirs, mine)
    after: Floats = np.zeros(total + 1)
    for net, p in ROUND_NET.items():
        moved = np.maximum(-opp, np.minimum(net, other))
        after += p * final[mine + sign * moved]
    after[0], after[total] = final[0], final[total]
    return after


def leaf_after(view: PublicView, me: int,
               final: Floats) -> Callable[[Stacks, bool], float]:
    """A search leaf for `me` from `final` (the worth of a finished duel by `me`'s stack):
    the deal's end once the round is over (`deal_end`), else `final`."""
    ended = deal_end(view, me, final)

    def leaf(stacks: Stacks, round_over: bool) -> float:
        return float((ended if round_over else final)[stacks[me]])

    return leaf
