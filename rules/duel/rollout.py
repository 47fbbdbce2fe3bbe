"""Rollouts of the rest of a deal, for the `hard` AI (`rules.duel.ai`), from the public view.

`Rollout(view, me, samples, rng).values(bets)` draws `samples` joint completions of the
remaining hands (`rules.duel.odds.sample_strengths`: the hidden cards as the public view allows
them) and plays the rest of the deal out after each bet on every sample at once (numpy, one
array entry per sample). The sampled cards decide only the outcomes; every later choice is
made from what will be public then:
- `me`'s later choices take the best mean value over the samples that share the public state
  at that point (the hands left and the stacks, so a showdown's result is known; the cards of
  the hands turned over are not used: a subset of what will be public);
- the other player is a mixture (`OPPONENT_MIX`) of two models reading the face-up cards and
  today's odds only: `GreedyPolicy` (the `easy` rule) and `MyopicPolicy` (the `normal` rule:
  the bullet's expected chips on the rollout's own pairwise odds).
The same samples serve every bet (common random numbers). The end of the deal is worth
`utility(view, me)` of `me`'s stack: P(win the duel) (after round 1, round 2 is the chance
node `ROUND_NET`), plus `CHIP_WEIGHT` a chip as the tie-break.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from rules.duel.actions import Bet
from rules.duel.odds import Rng, as_generator, categories_of, sample_strengths, table_of
from rules.duel.search import CHIP_WEIGHT, deal_end, win_chances
from rules.duel.view import HandState, PublicView
from rules.hands import Category

__all__ = ["OPPONENT_MIX", "GreedyPolicy", "MyopicPolicy", "Rollout", "utility"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]

T = TypeVar("T")
OPPONENT_MIX = 0.5  # the weight of the greedy model of the other player (the rest: myopic)
_BONUS = np.array([Category(c).multiplier for c in range(10)], np.int64)


def utility(view: PublicView, me: int) -> Floats:
    """What the end of this deal is worth to `me`, indexed by `me`'s stack then (0 .. both
    stacks): P(`me` wins the duel) (`rules.duel.search.deal_end` of `win_chances`: round 2
    the chance node after round 1, a bust the duel's end), plus CHIP_WEIGHT a chip."""
    final = deal_end(view, me, win_chances(view, me))
    out: Floats = final + CHIP_WEIGHT * (np.arange(len(final)) - view.start_stack)
    return out


class GreedyPolicy:
    """The later choices inside a rollout, from public information only: face-up ranks, the
    hands left, whether a player can still play. The opponent plays its highest face-up
    card (passing when it has one chip); the dealer answers a pass with a play on the lowest
    face-up card, a play with a play on the highest; in a bonus duel the opponent takes the
    higher card up. Ties go to the leftmost hand."""

    def __init__(self, ranks: Sequence[int]) -> None:
        self.ranks = ranks

    def top(self, hands: Sequence[int]) -> int:
        return max(hands, key=lambda k: (self.ranks[k], -k))

    def low(self, hands: Sequence[int]) -> int:
        return min(hands, key=lambda k: (self.ranks[k], k))

    def opp(self, hands: Sequence[int], can_play: bool) -> tuple[int, int]:
        return self.top(hands), 2 if can_play else 1

    def dealer(self, hands: Sequence[int], i: int, c: int, can_play: bool) -> tuple[int, int]:
        rest = [k for k in hands if k != i]
        if c == 1 and can_play:
            return self.low(rest), 2
        return self.top(rest), 2 if can_play else 1

    def bonus_pick(self, hands: Sequence[int]) -> int:
        return self.top(hands)


class MyopicPolicy(GreedyPolicy):
    """The later choices of a player who maximises the bullet's expected chips on today's
    pairwise odds (the `normal` level's rule, on the rollout's own samples): the opponent
    assumes the dealer's best answer; a bonus duel counts the bonus table."""

    def __init__(self, ranks: Sequence[int], s: Ints, bonus_of: Ints) -> None:
        super().__init__(ranks)
        gt = (s[:, :, None] > s[:, None, :]).mean(axis=0)
        self.edge = (gt - gt.T).tolist()  # edge[i][j]: P(i beats j) - P(j beats i)
        win = np.sign(s[:, :, None] - s[:, None, :])
        paid = np.where(win > 0, 2 + bonus_of[:, :, None], 2 + bonus_of[:, None, :])
        self.bonus_ev = (win * paid).mean(axis=0).tolist()

    def showdown(self, i: int, j: int) -> float:
        return float(2.0 * self.edge[i][j])

    def opp(self, hands: Sequence[int], can_play: bool) -> tuple[int, int]:
        best: tuple[float, int, int] | None = None
        for i in hands:
            for c in ([1, 2] if can_play else [1]):
                if c == 1:
                    v = -1.0
                else:
                    v = min([1.0] + [self.showdown(i, j) for j in hands if j != i])
                if best is None or v > best[0]:
                    best = (v, i, c)
        assert best is not None
        return best[1], best[2]

    def dealer(self, hands: Sequence[int], i: int, c: int, can_play: bool) -> tuple[int, int]:
        rest = [k for k in hands if k != i]
        if c == 1 or not can_play:
            return rest[0], 2 if can_play else 1
        return max(((j, 2) for j in rest), key=lambda m: (self.showdown(m[0], i), -m[0])) \
            if max(self.showdown(j, i) for j in rest) > -1.0 else (rest[0], 1)

    def bonus_pick(self, hands: Sequence[int]) -> int:
        a, b = hands
        return a if self.bonus_ev[a][b] >= 0 else b


class Rollout:
    """The rest of the deal on `samples` joint completions, for each legal bet of `me`."""

    def __init__(self, view: PublicView, me: int, samples: int, rng: Rng) -> None:
        table = table_of(view)
        self.view, self.me, self.n = view, me, samples
        self.positions = table.positions
        self.s = sample_strengths(table, samples, as_generator(rng)).astype(np.int64)
        self.bonus_of = _BONUS[categories_of(self.s)]
        self.total = sum(view.stacks)
        self.util = utility(view, me)
        self.opp, self.dealer = view.opponent, view.dealer
        ranks = [int(view.hands[p].face_up.rank) for p in self.positions]
        self.models = ((OPPONENT_MIX, GreedyPolicy(ranks)),
                       (1.0 - OPPONENT_MIX, MyopicPolicy(ranks, self.s, self.bonus_of)))

    def is_bonus(self, b: int) -> bool:
        return self.view.is_tiebreak or b == 3

    def stacks(self, mine: Ints, player: int) -> Ints:
        return mine if player == self.me else self.total - mine

    def settle(self, mine: Ints, rows: Ints, i: int, c: int, j: int, d: int,
               bonus: bool) -> Ints:
        """`me`'s stack after the opponent's c chips on hand i against the dealer's d on j
        (in a bonus duel the stakes come from the stacks, as the rules cap them)."""
        sign = 1 if self.me == self.opp else -1  # the opponent's gain is `me`'s times sign
        if not bonus:
            if c == d == 1:
                return mine
            if c != d:
                return mine + sign * (1 if c > d else -1)
            out: Ints = mine + sign * 2 * np.sign(self.s[rows, i] - self.s[rows, j])
            return out
        o, dl = self.stacks(mine, self.opp), self.stacks(mine, self.dealer)
        stake = np.minimum(np.minimum(2, o), np.minimum(2, dl))
        win = np.sign(self.s[rows, i] - self.s[rows, j])
        loser = np.where(win > 0, dl, o) - stake
        extra = np.where(win > 0, self.bonus_of[rows, i], self.bonus_of[rows, j])
        result: Ints = mine + sign * win * (stake + np.minimum(extra, loser))
        return result

    def after(self, hands: Sequence[int], mine: Ints, rows: Ints, b: int) -> Floats:
        """The value of every sample once bullet b is settled: the deal's end, a bust, or
        the next bullet for each public state (the stacks) separately."""
        values: Floats = self.util[mine]
        if self.is_bonus(b):
            return values
        values = values.copy()
        alive = (mine > 0) & (mine < self.total)
        for stack in np.unique(mine[alive]):
            group = mine == stack
            values[group] = self.bullet(hands, mine[group], rows[group], b + 1)
        return values

    def choice(self, player: int, options: Sequence[Callable[[], Floats]],
               moves: Sequence[T], predict: Callable[[GreedyPolicy], T]) -> Floats:
        """`player`'s choice among `moves` (each option the values for `me` after it):
        `me` takes the best mean; the other player is the mixture of the models."""
        if player == self.me:
            return max((f() for f in options), key=lambda v: float(v.mean()))
        weights: dict[int, float] = {}
        for w, model in self.models:
            k = moves.index(predict(model))
            weights[k] = weights.get(k, 0.0) + w
        out: Floats = sum((w * options[k]() for k, w in weights.items()), np.zeros(1))
        return out

    def bullet(self, hands: Sequence[int], mine: Ints, rows: Ints, b: int) -> Floats:
        """Bullet b from its start, on samples sharing one public state (one stack)."""
        o_can = int(self.stacks(mine[:1], self.opp)[0]) >= 2
        d_can = int(self.stacks(mine[:1], self.dealer)[0]) >= 2
        if self.is_bonus(b):
            picks = list(hands)
            bonus = [partial(self.play, hands, mine, rows, b, i, 2, _other(hands, i), 2)
                     for i in picks]
            return self.choice(self.opp, bonus, picks, lambda m: m.bonus_pick(hands))
        moves = [(i, c) for i in hands for c in ((1, 2) if o_can else (1,))]
        options = [partial(self.reply, hands, mine, rows, b, i, c, d_can) for i, c in moves]
        return self.choice(self.opp, options, moves, lambda m: m.opp(hands, o_can))

    def reply(self, hands: Sequence[int], mine: Ints, rows: Ints, b: int, i: int, c: int,
              d_can: bool) -> Floats:
        """The dealer's answer to the opponent's c chips on hand i."""
        moves = [(j, d) for j in hands if j != i for d in ((1, 2) if d_can else (1,))]
        options = [partial(self.play, hands, mine, rows, b, i, c, j, d) for j, d in moves]
        return self.choice(self.dealer, options, moves, lambda m: m.dealer(hands, i, c, d_can))

    def play(self, hands: Sequence[int], mine: Ints, rows: Ints, b: int, i: int, c: int,
             j: int, d: int) -> Floats:
        rest = [k for k in hands if k not in (i, j)]
        return self.after(rest, self.settle(mine, rows, i, c, j, d, self.is_bonus(b)), rows, b)

    def values(self, bets: Sequence[Bet]) -> list[float]:
        """The mean worth to `me` of each of `me`'s legal bets now."""
        return [float(v.mean()) for v in self.value_arrays(bets)]

    def value_arrays(self, bets: Sequence[Bet]) -> list[Floats]:
        """The worth to `me` of each of `me`'s legal bets now, sample by sample (so a caller
        can say how far off a mean may be)."""
        view = self.view
        index = {pos: k for k, pos in enumerate(self.positions)}
        hands = list(range(len(self.positions)))
        mine = np.full(self.n, view.stacks[self.me], np.int64)
        rows = np.arange(self.n)
        b = view.bullet_in_round
        chosen = [h for h in view.hands if h.state is HandState.CHOSEN]
        out = []
        for bet in bets:
            k = index[bet.position]
            if chosen:  # `me` is the dealer, answering
                i, c = index[chosen[0].position], chosen[0].chips
                v = self.play(hands, mine, rows, b, i, c, k, bet.chips)
            elif self.is_bonus(b):
                v = self.play(hands, mine, rows, b, k, 2, _other(hands, k), 2)
            else:
                v = self.reply(hands, mine, rows, b, k, bet.chips, view.stacks[self.dealer] >= 2)
            out.append(np.broadcast_to(v, (self.n,)).astype(np.float64))
        return out


def _other(hands: Sequence[int], i: int) -> int:
    return next(k for k in hands if k != i)
