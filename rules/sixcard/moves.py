"""What the player may do now in six-card poker: the legal actions, and the check that names
why an action is not one. Read-only functions of a `SixCardGame` (its methods `legal_actions`,
`check` and `can_apply` are these); nothing here changes a game.

The rules they apply (RULES.md): boxes are decided in turn (fold, play, buy a sixth card,
then replace one card), each decision only while the balance can still pay the box's BET
after it; once the boxes are decided, a dealer without a game may be bought one per playing
box, if the balance pays its fee.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.sixcard.actions import (
    BadAction,
    Buy,
    CannotAfford,
    DealerGame,
    Fold,
    GameFinished,
    Play,
    Replace,
    SixAction,
    SixCardError,
    WrongPhase,
)
from rules.sixcard.view import GAME_FEE, SixPhase

if TYPE_CHECKING:
    from rules.sixcard.game import SixCardGame


def legal_actions(game: SixCardGame) -> list[SixAction]:
    if game.phase is SixPhase.DEALER_GAME:
        return [a for a in (DealerGame(True), DealerGame(False)) if can_apply(game, a)]
    if game.phase is not SixPhase.DECIDING:
        return []
    moves: list[SixAction] = [Fold(), Play(), Buy(), *(Replace(i) for i in range(6))]
    return [a for a in moves if can_apply(game, a)]


def check(game: SixCardGame, action: SixAction) -> None:
    """Raise the SixCardError that `game.apply(action)` would raise, or return None."""
    if not isinstance(action, Fold | Play | Buy | Replace | DealerGame):
        raise BadAction(f"not a six-card poker action: {action!r}")
    if game.phase is SixPhase.OVER:
        raise GameFinished("the game is over")
    if game.phase is SixPhase.DEAL:
        raise WrongPhase("the cards are not dealt yet")
    assert game.current is not None
    box = game.boxes[game.current]
    if isinstance(action, DealerGame):
        if game.phase is not SixPhase.DEALER_GAME:
            raise WrongPhase("the dealer's game is not on offer: decide the box first")
        if action.buy and game.balance < GAME_FEE * box.ante:
            raise CannotAfford(f"the dealer's game costs {GAME_FEE * box.ante}, the "
                               f"balance holds {game.balance}")
        return
    if game.phase is not SixPhase.DECIDING:
        raise WrongPhase("the boxes are decided: answer the dealer-game offer")
    box.check_decision(action, game.current, game.balance)


def can_apply(game: SixCardGame, action: SixAction) -> bool:
    try:
        check(game, action)
    except SixCardError:
        return False
    return True
