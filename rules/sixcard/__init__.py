"""Six-card poker against the dealer (RULES.md): the public names of the game.

- `game`: `SixCardGame`, the state machine (deal, what may be played, apply, public_view,
  JSON), with its limits (`MIN_ANTE`...).
- `actions`: what the player does (`Fold`, `Play`, `Buy`, `Replace`, `DealerGame`), the events
  a game emits and the `SixCardError`s it raises.
- `view`: `SixCardView`, what the player may see, and the prices of the game (`BET`, fees).
- `box` (one box's rules) and `dealer` (qualifying, the dealer's replace, paying a box) are
  the state machine's parts.
"""

from rules.sixcard.actions import (
    BadAction,
    BadCardIndex,
    BadSetup,
    Bought,
    BoxOpened,
    BoxSettled,
    Buy,
    CannotAfford,
    DealerGame,
    DealerGameAnswered,
    DealerReplaced,
    DealerRevealed,
    Dealt,
    Fold,
    Folded,
    GameFinished,
    GameOver,
    IllegalMove,
    NoGameOffered,
    Play,
    Played,
    Replace,
    Replaced,
    SixAction,
    SixCardError,
    SixEvent,
    WrongPhase,
    parse_action,
)
from rules.sixcard.box import HAND
from rules.sixcard.dealer import qualifies
from rules.sixcard.game import BLIND_BOX, MAX_ANTE, MAX_BOXES, MIN_ANTE, SixCardGame
from rules.sixcard.view import (
    BET,
    BUY_FEE,
    GAME_FEE,
    REPLACE_FEE,
    Accounting,
    BoxOutcome,
    BoxRunning,
    BoxSettlement,
    BoxState,
    DealerReplacement,
    SixBoxView,
    SixCardView,
    SixPhase,
    view_json,
)

__all__ = [
    "BET", "BLIND_BOX", "BUY_FEE", "GAME_FEE", "HAND", "MAX_ANTE", "MAX_BOXES", "MIN_ANTE",
    "REPLACE_FEE", "Accounting", "BadAction", "BadCardIndex", "BadSetup", "Bought", "BoxOpened",
    "BoxOutcome", "BoxRunning", "BoxSettled", "BoxSettlement", "BoxState", "Buy", "CannotAfford",
    "DealerGame",
    "DealerGameAnswered", "DealerReplaced", "DealerReplacement", "DealerRevealed", "Dealt",
    "Fold", "Folded", "GameFinished", "GameOver", "IllegalMove", "NoGameOffered", "Play",
    "Played", "Replace", "Replaced", "SixAction", "SixBoxView", "SixCardError", "SixCardGame",
    "SixCardView",
    "SixEvent", "SixPhase", "WrongPhase", "parse_action", "qualifies", "view_json",
]
