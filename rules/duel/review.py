"""The review of a finished duel, from its public log only: who played well, who was lucky.

    result = review(state, random.Random(seed))     # a Review; pure, deterministic per seed
    result.players[0].accuracy, .luck, .worst        # figures of player 0

**A move's value** is its worth to the player who makes it as `rules.duel.judge` gives it,
the one judge `hard` plays by: P(win the duel) on one joint sample of the remaining hands'
completions, from bullet 2 of round 2 on by the endgame searched whole (a level finish half),
before that by rollouts of the rest of the deal (round 2 as the `ROUND_NET` chance node after
round 1; a level finish ``0.5 +/- TIEBREAK_EDGE / 2``; a chip's `CHIP_WEIGHT` as the
tie-break); the two players' values add up to 1. So `hard`'s own moves
score as best up to sampling noise (the review's sample is not the one it decided on), and
the review's better move is the move `hard` would make. `move_values(view, player, rng)`
gives every legal bet's value from the public view the player had
(`state.at(v).public_view()`), never the deck: the review cannot read a hidden card.
The same sample serves all the moves of a decision, so their differences carry little noise.

**A decision** is a bet of one of the two players with more than one legal bet (a forced bet,
a tiebreak answer, a surrender or a timeout are not decisions). Its *loss* is
``best - chosen >= 0`` (``best`` the largest value; a best move loses exactly 0).

**Accuracy** (0..100) maps the player's mean loss over their decisions:
``accuracy = 100 * exp(-ACCURACY_K * mean_loss)`` with ``ACCURACY_K = 16``, chosen on seeded
duels (`bench/review.py`) so that a uniformly random player (mean loss ~0.043 P(win) a decision)
scores about 50 and `easy` (~0.009) about 86 (measured on the expectimax judge before this
one; `python bench/review.py --calibrate K` prints today's figures). No decision: accuracy 100.

**Luck** (P(win) points, -1..1): the sum over the duel's bullets that were turned over of
``after - before`` from the player's side, where ``before`` is the value of the bet that
completed the bullet (the expectation over the cards still hidden, both bets known) and
``after`` is the value once the hands are turned over: the next position's value (the best
move of the player to act, from this player's side) inside a deal, or the judge's own deal
end (`rules.duel.judge.end_worth`) at the new stacks when the bullet ended the deal (a
won/lost duel, a tiebreak, or round 2 as the `ROUND_NET` chance node, so a new deal's
face-up cards are not counted as luck). Both ends of a bullet are valued by one judge: the
bullet that leads into the endgame (round 2's first) takes its ``after`` from the rollouts
too, so the endgame's other scale (no chip tie-break, a level finish half) is not counted as
luck. The two players' lucks are opposite.
Clamped to -1..1 (sampling noise aside, it stays there).

**The worst mistake** is the decision with the largest loss (the earliest of equal ones), or
None when no decision lost anything.

Reviews kept before the judge changed (JSON `"v":1`) stay as they were: they were right by
the judge of their day, and recomputing them would change figures players have seen. New
ones are `"v":2`.

Cost: about one judgement (`REVIEW_SAMPLES` joint samples, or the endgame's
`ENDGAME_SAMPLES`) per bet of the log, each position evaluated once (a decision's next
position is also the previous bullet's "after"), plus round 2's second bullet by rollouts.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from rules.duel.actions import Bet
from rules.duel.ai import SAMPLES, legal_moves
from rules.duel.endgame import in_endgame
from rules.duel.judge import end_worth, judge
from rules.duel.odds import Rng
from rules.duel.reviewed import Mistake, PlayerReview, Review
from rules.duel.state import DuelState
from rules.duel.view import Phase, PublicView

__all__ = [
    "ACCURACY_K", "REVIEW_SAMPLES", "Mistake", "PlayerReview", "Review", "accuracy_of",
    "move_values", "position_rng", "review",
]

ACCURACY_K = 16.0
REVIEW_SAMPLES = SAMPLES["hard"]  # joint completions behind each position's values


# --- values ------------------------------------------------------------------------------


def move_values(view: PublicView, player: int, rng: Rng, *, samples: int = REVIEW_SAMPLES,
                endgame: bool = True) -> dict[Bet, float]:
    """The worth to `player` of each of their legal bets (`rules.duel.judge`; by rollouts
    only when `endgame` is False), from `view` (public only). Empty when `player` has no bet
    to make now."""
    bets = [a for a in legal_moves(view, player) if isinstance(a, Bet)]
    if view.phase is not Phase.BULLET or not bets:
        return {}
    values = judge(view, player, bets, rng, samples=samples, endgame=endgame)
    return dict(zip(bets, values, strict=True))


def accuracy_of(mean_loss: float) -> float:
    """The accuracy (0..100) of a mean loss in P(win): 100 * exp(-ACCURACY_K * mean_loss)."""
    return 100.0 * math.exp(-ACCURACY_K * max(0.0, mean_loss))


# --- the review --------------------------------------------------------------------------


@dataclass(slots=True)
class _Tally:
    decisions: int = 0
    loss: float = 0.0
    luck: float = 0.0
    worst: Mistake | None = None

    def done(self) -> PlayerReview:
        mean = self.loss / self.decisions if self.decisions else 0.0
        return PlayerReview(self.decisions, accuracy_of(mean), max(-1.0, min(1.0, self.luck)),
                            self.worst)


def position_rng(base: int, version: int, player: int) -> random.Random:
    """The random source of `player`'s values at `version` in a review whose `rng` gave
    `base = rng.getrandbits(64)` first: each position is evaluated with its own seed, so its
    values do not depend on what else the review evaluated."""
    return random.Random(base ^ ((version * 2 + player) * 0x9E3779B97F4A7C15 % 2**64))


def review(state: DuelState, rng: random.Random, *, samples: int = REVIEW_SAMPLES) -> Review:
    """The review of `state`'s duel (usually over), from its public log only; deterministic
    given `rng` (one draw of it, `position_rng`, seeds every position)."""
    base = rng.getrandbits(64)
    views = [state.at(v).public_view() for v in range(state.version + 1)]
    cache: dict[tuple[int, int, bool], dict[Bet, float]] = {}

    def values(v: int, player: int, endgame: bool = True) -> dict[Bet, float]:
        endgame = endgame and in_endgame(views[v])  # else the same rollouts either way
        if (v, player, endgame) not in cache:
            cache[v, player, endgame] = move_values(
                views[v], player, position_rng(base, v, player), samples=samples,
                endgame=endgame)
        return cache[v, player, endgame]

    tally = (_Tally(), _Tally())
    for v in range(state.version):
        player, action = state.move_at(v)
        before, after = views[v], views[v + 1]
        if not isinstance(action, Bet) or before.phase is not Phase.BULLET:
            continue
        vals = values(v, player)
        mine = vals.get(action)
        if mine is None:  # not a legal bet as the view sees it: cannot happen in a valid log
            continue
        if len(vals) > 1:
            best = max(vals, key=lambda b: vals[b])  # the first of equal ones
            loss = max(0.0, vals[best] - mine)
            t = tally[player]
            t.decisions += 1
            t.loss += loss
            if loss > 0 and (t.worst is None or loss > t.worst.loss):
                t.worst = Mistake(before.bullet, action, best, loss)
        if len(after.results) > len(before.results):  # this bet turned the hands over
            gain = _after_value(after, before, player, values, v + 1) - mine
            tally[player].luck += gain
            tally[1 - player].luck -= gain
    return Review((tally[0].done(), tally[1].done()))


def _after_value(after: PublicView, before: PublicView, player: int,
                 values: Callable[[int, int, bool], dict[Bet, float]], v: int) -> float:
    """P(`player` wins) once the bullet completed from `before` is turned over (`after`),
    by the judge that valued `before`."""
    stacks = after.results[-1].stacks_after
    round_over = before.is_tiebreak or before.bullet_in_round >= 3 or 0 in stacks
    if round_over or after.phase is not Phase.BULLET or after.round != before.round:
        return float(end_worth(before, player)[stacks[player]])
    actor = after.to_act[0]
    best = max(values(v, actor, in_endgame(before)).values())
    return best if actor == player else 1.0 - best
