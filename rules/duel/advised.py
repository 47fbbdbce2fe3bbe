"""A practice duel's advice as the bot shows it: `HandOdds`, the odds of a hand still in play.

How they are computed is `rules.duel.advice`'s; this module is the value alone, so the bot's
process can read what a search sent back (pickled by class name) without loading the judge
(numpy: `rules.duel.searches`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class HandOdds:
    position: int
    pair_or_better: float
    bonus: float  # a full house or better: the bonus table's big payouts
    wins: float  # against a hand drawn at random from the other remaining ones
