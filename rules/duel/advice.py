"""What a practice duel tells its player, from the public view only: the hint (the best moves
now, judged as `hard` plays: `rules.duel.judge` through the review's `move_values`) and the
odds of the hands still in play (`rules.duel.odds`).

Both are searches of up to a second, so the bot runs them out of its process
(`bot.common.offload`): they are plain functions of picklable arguments (a view, a seat, a
seeded `random.Random`), returning plain values.
"""

from __future__ import annotations

import random

from rules.duel.actions import Bet
from rules.duel.advised import HandOdds
from rules.duel.judge import best_moves
from rules.duel.odds import all_pair_odds, category_odds, table_of
from rules.duel.review import move_values
from rules.duel.view import PublicView
from rules.hands import Category

__all__ = ["SHOWN", "HandOdds", "hand_odds", "hint"]

SHOWN = 3  # the moves a hint lists


def hint(view: PublicView, player: int, rng: random.Random,
         shown: int = SHOWN) -> list[tuple[Bet, float]]:
    """The best `shown` bets of `player` now with their chance to win the duel (0..1), best
    first; empty when `player` has no choice to make (not their turn, or a single bet)."""
    values = move_values(view, player, rng)
    if len(values) < 2:
        return []
    bets = list(values)
    chances = [min(1.0, max(0.0, values[b])) for b in bets]  # the chip tie-break aside
    return best_moves(bets, chances, shown)


def hand_odds(view: PublicView, rng: random.Random) -> list[HandOdds]:
    """The remaining hands' odds (`rules.duel.odds`: exact, or sampled to within about a
    percent)."""
    table = table_of(view)
    cats = category_odds(table)
    pairs = all_pair_odds(table, rng)
    out = []
    for c in cats:
        wins = [pairs[c.position, o.position].win for o in cats if o.position != c.position]
        out.append(HandOdds(c.position, c.at_least(Category.ONE_PAIR),
                            c.at_least(Category.FULL_HOUSE),
                            sum(wins) / len(wins) if wins else 0.0))
    return out
