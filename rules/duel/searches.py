"""The duel's searches as the bot asks for them: a finished duel's `review`, a practice
`hint`, the remaining hands' `hand_odds` and the AI's move (`choose`). Each is the function
of the same name in its own module, imported on its first call.

Those modules need numpy (`rules.duel.odds`, `judge`, `endgame`...), which the bot's process
does not: it runs every search in its process pool (`bot.offload`), where these functions
arrive pickled by name, and only there are the judge and numpy loaded. Importing this module
loads neither (10 MB and a BLAS thread kept out of the process that answers the taps). What
they return comes back pickled, by class name too: `HandOdds` (`rules.duel.advised`), `Review`
(`rules.duel.reviewed`) and the actions are in modules that load no search either.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rules.duel.advised import HandOdds

if TYPE_CHECKING:
    from rules.duel.actions import Action, Bet
    from rules.duel.levels import Level
    from rules.duel.odds import Rng
    from rules.duel.reviewed import Review
    from rules.duel.state import DuelState
    from rules.duel.view import PublicView

__all__ = ["HandOdds", "choose", "hand_odds", "hint", "review"]


def review(state: DuelState, rng: random.Random) -> Review:
    """`rules.duel.review.review`: the finished duel's review."""
    from rules.duel import review as module

    return module.review(state, rng)


def hint(view: PublicView, player: int, rng: random.Random) -> list[tuple[Bet, float]]:
    """`rules.duel.advice.hint`: the best moves of `player` now, with their chances."""
    from rules.duel import advice

    return advice.hint(view, player, rng)


def hand_odds(view: PublicView, rng: random.Random) -> list[HandOdds]:
    """`rules.duel.advice.hand_odds`: the remaining hands' odds."""
    from rules.duel import advice

    return advice.hand_odds(view, rng)


def choose(view: PublicView, player: int, level: Level, rng: Rng) -> Action:
    """`rules.duel.ai.choose`: the AI's move at `level`."""
    from rules.duel import ai

    return ai.choose(view, player, level, rng)
