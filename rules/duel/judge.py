"""The one judge of a bet, for `hard`'s play, the post-duel review and the practice hint.

`judge(view, player, bets, rng, samples)` -> each bet's worth to `player`, in P(`player` wins
the duel), the same samples for every bet:
- **the endgame** (`rules.duel.endgame`), from bullet 2 of round 2 on, where the rest of the
  duel is at most two bullets: searched whole, both players choosing best for their chance to
  win the duel (a level finish, a draw, counts half), on `ENDGAME_SAMPLES` joint completions
  of the remaining hands (about 0.1 s);
- **rollouts** (`rules.duel.rollout`) before that, on `samples` joint completions: the rest of
  the deal played out, `player`'s later choices the best on what is public then, the other
  player's a mixture of typical players; the end of the deal is P(`player` wins the duel)
  (after round 1, round 2 is the chance node `ROUND_NET`; a level finish
  ``0.5 +/- TIEBREAK_EDGE / 2``), plus `CHIP_WEIGHT` a chip as the tie-break (0.2 points of
  P(win) a chip).
Stacks add up to twice the start, so the worths of the two players add up to 1.

`hard` plays the best of these (`rules.duel.ai`); the review calls a move's loss its distance
to the best (`rules.duel.review`), and values a finished deal by `end_worth`; the hint shows
the best three (`best_moves`). Pure: from the public view and the random source only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.duel.actions import Bet
from rules.duel.endgame import Endgame, in_endgame, worth_of
from rules.duel.odds import Rng
from rules.duel.rollout import Floats, Rollout, utility
from rules.duel.view import PublicView

__all__ = ["ENDGAME_SAMPLES", "JUDGE_SAMPLES", "best_index", "best_moves", "end_worth",
           "judge"]

JUDGE_SAMPLES = 12000  # joint completions behind each judgement by rollouts
ENDGAME_SAMPLES = 200_000  # joint completions behind each judgement of the endgame


def judge(view: PublicView, player: int, bets: Sequence[Bet], rng: Rng, *,
          samples: int = JUDGE_SAMPLES, endgame_samples: int = ENDGAME_SAMPLES,
          endgame: bool = True) -> list[float]:
    """The worth to `player` of each of `bets` (legal bets of `player` now), in P(win); by
    rollouts only when `endgame` is False (what the position before the endgame expected)."""
    if endgame and in_endgame(view):
        return Endgame(view, player, endgame_samples, rng, worth_of(view, player)).values(bets)
    return Rollout(view, player, samples, rng).values(bets)


def end_worth(view: PublicView, player: int) -> Floats:
    """What the end of the deal in play is worth to `player` by their stack then, as the
    judge of `view` counts it."""
    return worth_of(view, player) if in_endgame(view) else utility(view, player)


def best_index(values: Sequence[float]) -> int:
    """The index of the best value, the first of equal ones."""
    return max(range(len(values)), key=lambda k: (values[k], -k))


def best_moves(bets: Sequence[Bet], values: Sequence[float], n: int) -> list[tuple[Bet, float]]:
    """The `n` best bets with their values, best first (equal values: the earlier bet)."""
    order = sorted(range(len(bets)), key=lambda k: (-values[k], k))
    return [(bets[k], values[k]) for k in order[:n]]
