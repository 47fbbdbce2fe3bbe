"""What a player may do now in a duel: the legal actions, and the check that names why an
action is not one. Read-only functions of a `DuelState` (its methods `legal_actions`, `check`
and `can_apply` are these); nothing here changes a state.

The rules they apply (RULES.md): the opponent chooses first, then the dealer; a hand is chosen
once per deal, and by one player per bullet; a bet is 1 chip (pass) or 2 (play), never more
than the stack; a bonus duel has no pass: 2 chips, or all-in with a single chip; a tiebreak
offer is answered once by each player; either player may surrender until the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.duel import row
from rules.duel.actions import (
    Action,
    AlreadyAnswered,
    Bet,
    DuelFinished,
    IllegalBet,
    NotYourTurn,
    Surrender,
    TiebreakAnswer,
    WrongPhase,
)
from rules.duel.view import Phase

if TYPE_CHECKING:
    from rules.duel.state import DuelState


def allowed_chips(stack: int, bonus_duel: bool) -> list[int]:
    """The chips a player holding `stack` may put on a hand."""
    if bonus_duel:
        return [min(2, stack)]
    return [1, 2] if stack >= 2 else [1]


def legal_actions(state: DuelState, player: int | None = None) -> list[Action]:
    """The moves of `player` (default: the current player), surrender aside."""
    if player is None:
        player = state.current_player
    if player is None or player not in state.players_to_act:
        return []
    if state.phase is Phase.TIEBREAK_OFFER:
        return [TiebreakAnswer(True), TiebreakAnswer(False)]
    chips = allowed_chips(state.stacks[player], state.bonus_duel)
    return [Bet(pos, c) for pos in row.free_positions(state.revealed, state.choices)
            for c in chips]


def check(state: DuelState, action: Action, player: int) -> None:
    """Raise the DuelError that `state.apply(action, player)` would raise, or return None."""
    if player not in (0, 1):
        raise NotYourTurn(f"there is no player {player!r} in this duel")
    if state.is_over:
        raise DuelFinished("the duel is over")
    if isinstance(action, Surrender):
        return
    if state.phase is Phase.DEAL:
        raise WrongPhase("the cards are not dealt yet")
    if isinstance(action, TiebreakAnswer):
        if state.phase is not Phase.TIEBREAK_OFFER:
            raise WrongPhase("no tiebreak is on offer")
        if state.answers[player] is not None:
            raise AlreadyAnswered("you have already answered the tiebreak offer")
        return
    if not isinstance(action, Bet):
        raise WrongPhase(f"not a duel action: {action!r}")
    if state.phase is not Phase.BULLET:
        raise WrongPhase("no bullet is in play: answer the tiebreak offer")
    if player not in state.players_to_act:
        who = "the opponent" if player == state.dealer else "the dealer"
        raise NotYourTurn(f"it is {who}'s turn")
    row.check_hand(action.position, state.revealed, state.choices)
    _check_chips(action.chips, state.stacks[player], state.bonus_duel)


def _check_chips(chips: int, stack: int, bonus_duel: bool) -> None:
    if bonus_duel:
        if chips != min(2, stack):
            if chips == 1 and stack >= 2:
                raise IllegalBet("no passing in a bonus duel: both players put 2 chips")
            raise IllegalBet(f"in a bonus duel the stake is {min(2, stack)}")
        return
    if chips not in (1, 2):
        raise IllegalBet("a bet is 1 chip (pass) or 2 chips (play)")
    if chips > stack:
        raise IllegalBet(f"a bet of {chips} is more than the stack of {stack}")
