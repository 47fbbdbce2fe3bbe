"""The one judge of a bet, for `hard`'s play, the post-duel review and the practice hint.

`judge(view, player, bets, rng, samples)` -> each bet's worth to `player`: the mean, over
`samples` joint completions of the remaining hands (the same ones for every bet), of the rest
of the deal played out by rollouts (`rules.duel.rollout`): `player`'s later choices the best
on what is public then, the other player's a mixture of typical players; the end of the deal
is P(`player` wins the duel) (after round 1, round 2 is the chance node `ROUND_NET`; a draw
``0.5 +/- TIEBREAK_EDGE / 2``), plus `CHIP_WEIGHT` a chip as the tie-break (0.2 points of
P(win) a chip). Stacks add up to twice the start, so the worths of the two players add up to 1.

`hard` plays the best of these (`rules.duel.ai`); the review calls a move's loss its distance
to the best (`rules.duel.review`); the hint shows the best three (`best_moves`). Pure: from the
public view and the random source only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.duel.actions import Bet
from rules.duel.odds import Rng
from rules.duel.rollout import Rollout
from rules.duel.view import PublicView

__all__ = ["JUDGE_SAMPLES", "best_index", "best_moves", "judge"]

JUDGE_SAMPLES = 12000  # joint completions behind each judgement


def judge(view: PublicView, player: int, bets: Sequence[Bet], rng: Rng, *,
          samples: int = JUDGE_SAMPLES) -> list[float]:
    """The worth to `player` of each of `bets` (legal bets of `player` now), in P(win)."""
    return Rollout(view, player, samples, rng).values(bets)


def best_index(values: Sequence[float]) -> int:
    """The index of the best value, the first of equal ones."""
    return max(range(len(values)), key=lambda k: (values[k], -k))


def best_moves(bets: Sequence[Bet], values: Sequence[float], n: int) -> list[tuple[Bet, float]]:
    """The `n` best bets with their values, best first (equal values: the earlier bet)."""
    order = sorted(range(len(bets)), key=lambda k: (-values[k], k))
    return [(bets[k], values[k]) for k in order[:n]]
