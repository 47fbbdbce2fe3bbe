"""The duel's policy at a timeout: what is played for a player who ran out of time.

Chosen only from `legal_actions` and the public view:
- a bullet: pass with 1 chip on the hand with the lowest face-up card; in a bonus duel (no
  passing) the stake on the hand with the higher face-up card; ties go to the leftmost hand;
- the second timeout in a row of the same player in a bullet (`FORFEIT_AFTER`): they forfeit
  (Surrender "timeout": the other player wins);
- a tiebreak offer left unanswered: declining (the duel ends a draw).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.duel.actions import Action, Bet, Surrender, TiebreakAnswer
from rules.duel.state import DuelState
from rules.duel.view import Phase

FORFEIT_AFTER = 2  # timeouts in a row that lose the duel


class Kind(StrEnum):
    PASS = "pass"  # the safe bet of a bullet
    BONUS = "bonus"  # the stake of a bonus duel
    FORFEIT = "forfeit"
    DECLINE = "decline"  # the tiebreak offer


@dataclass(frozen=True, slots=True)
class TimeoutMove:
    player: int  # the player the move is made for
    action: Action
    kind: Kind
    late: tuple[int, ...]  # every player who let the time run out (two for an offer)


def safe_bet(state: DuelState, player: int) -> Bet | None:
    """The safe bet of `player` in the bullet in play, or None if they have none."""
    bets = [a for a in state.legal_actions(player) if isinstance(a, Bet)]
    if not bets:
        return None
    view = state.public_view()

    def rank(bet: Bet) -> int:
        return int(view.hands[bet.position].face_up.rank)

    if view.bonus_duel:
        return max(bets, key=lambda b: (rank(b), -b.position))
    fewest = min(b.chips for b in bets)
    return min((b for b in bets if b.chips == fewest), key=lambda b: (rank(b), b.position))


def timeout_move(state: DuelState, timeouts: tuple[int, int]) -> TimeoutMove | None:
    """The move the clock makes now; `timeouts` are each player's timeouts in a row so far.
    None when nobody is to act (a deal is due, or the duel is over)."""
    late = state.players_to_act
    if not late:
        return None
    player = late[0]
    if state.phase is Phase.TIEBREAK_OFFER:
        return TimeoutMove(player, TiebreakAnswer(False), Kind.DECLINE, late)
    if timeouts[player] + 1 >= FORFEIT_AFTER:
        return TimeoutMove(player, Surrender("timeout"), Kind.FORFEIT, late)
    bet = safe_bet(state, player)
    if bet is None:
        return None
    kind = Kind.BONUS if state.public_view().bonus_duel else Kind.PASS
    return TimeoutMove(player, bet, kind, late)
