"""Six-Shooter Poker, the duel (RULES.md): the public names of the game.

- `state`: `DuelState`, the state machine (deal, what may be played, apply, public_view, JSON,
  the past: `at`, `actors_since`), with its limits (`MIN_STACK`...).
- `actions`: what a player does (`Bet`, `TiebreakAnswer`, `Surrender`), the events a duel emits
  and the `DuelError`s it raises.
- `view`: `PublicView`, what anyone at the table may see (all that `render/` and captions get).
- `stakes` (what may be bet), `row` (the six hands of a deal), `bullet` (settling a bullet)
  and `log` (the saved form) are the state machine's parts.
- `policy`: the move made for a player who ran out of time (import it as `rules.duel.policy`).
- `odds` (the remaining hands' category and pairwise odds, from the public view only) and `ai`
  (`choose(view, player, level, rng)`: an AI duelist, levels random, easy, normal, hard):
  import them as `rules.duel.odds` and `rules.duel.ai`; they need numpy, which importing
  `rules.duel` never loads. `searches` names the searches the bot runs in its process pool
  without loading them (the review, the hint, the odds, the AI's move); `reviewed` (a kept
  review), `advised` (the hands' odds) and `levels` (the AI's levels) are what the bot reads
  of them.
"""

from rules.duel.actions import (
    Action,
    AlreadyAnswered,
    BadAction,
    Bet,
    BetPlaced,
    Dealt,
    DuelError,
    DuelFinished,
    DuelOver,
    Event,
    HandsRevealed,
    IllegalBet,
    IllegalHand,
    NotYourTurn,
    RoundOver,
    Surrender,
    TiebreakAnswer,
    TiebreakAnswered,
    TiebreakOffered,
    WrongPhase,
    parse_action,
)
from rules.duel.row import HAND_SIZE, HANDS
from rules.duel.state import (
    BULLETS_PER_ROUND,
    DEFAULT_STACK,
    MAX_STACK,
    MIN_STACK,
    ROUNDS,
    DuelState,
    choose_first_dealer,
)
from rules.duel.view import (
    BulletResult,
    HandState,
    HandView,
    Outcome,
    Phase,
    PublicView,
    view_json,
)
from rules.fairness import DealProof

__all__ = [
    "BULLETS_PER_ROUND", "DEFAULT_STACK", "HANDS", "HAND_SIZE", "MAX_STACK", "MIN_STACK", "ROUNDS",
    "Action", "AlreadyAnswered", "BadAction", "Bet", "BetPlaced", "BulletResult", "DealProof",
    "Dealt", "DuelError",
    "DuelFinished", "DuelOver", "DuelState", "Event", "HandState", "HandView", "HandsRevealed",
    "IllegalBet", "IllegalHand", "NotYourTurn", "Outcome", "Phase", "PublicView", "RoundOver",
    "Surrender", "TiebreakAnswer", "TiebreakAnswered", "TiebreakOffered", "WrongPhase",
    "choose_first_dealer", "parse_action", "view_json",
]
