"""Six-card poker: the player's actions, the events a game emits, and the errors it raises.

Actions are frozen values with a short code that parses and prints round-trip
(`parse_action("r3") == Replace(3)`, `str(Replace(3)) == "r3"`); callback data carries the code.
Events carry only what the player may see at that moment.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.hands import HandValue
from rules.sixcard.view import Accounting, BoxSettlement, DealerReplacement

# --- errors: one class per kind of failure, all ValueErrors with a readable reason ----------


class SixCardError(ValueError):
    """Something the game cannot do now. The state is left untouched."""


class BadSetup(SixCardError):
    """Not 1 to 3 boxes, an ANTE outside 1..100, or a balance that is not a whole number."""


class CannotAfford(SixCardError):
    """The balance cannot pay it (the antes, a BET, or a fee that would leave the BET unpaid)."""


class WrongPhase(SixCardError):
    """An action that does not belong to this moment (a dealer-game answer while deciding)."""


class IllegalMove(SixCardError):
    """A second buy or replace on a box, or a replace before the sixth card is bought."""


class BadCardIndex(SixCardError):
    """A replace naming a position outside the box's six cards."""


class GameFinished(SixCardError):
    pass


class BadAction(SixCardError):
    """A text (or value) that is not an action."""


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Fold:
    def __str__(self) -> str:
        return "f"


@dataclass(frozen=True, slots=True)
class Play:
    def __str__(self) -> str:
        return "p"


@dataclass(frozen=True, slots=True)
class Buy:
    def __str__(self) -> str:
        return "b"


@dataclass(frozen=True, slots=True)
class Replace:
    index: int  # 0..5, the position in the box's six cards

    def __str__(self) -> str:
        return f"r{self.index}"


@dataclass(frozen=True, slots=True)
class DealerGame:
    buy: bool

    def __str__(self) -> str:
        return "g" if self.buy else "n"


SixAction = Fold | Play | Buy | Replace | DealerGame
_SIMPLE: dict[str, SixAction] = {
    "f": Fold(), "p": Play(), "b": Buy(), "g": DealerGame(True), "n": DealerGame(False),
}


def parse_action(code: str) -> SixAction:
    if code in _SIMPLE:
        return _SIMPLE[code]
    if len(code) == 2 and code[0] == "r" and code[1] in "012345":
        return Replace(int(code[1]))
    raise BadAction(f"not an action code: {code[:16]!r}")


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    antes: tuple[int, ...]
    blind_bet: int  # box 3's BET, placed with its ANTE (0 with fewer boxes)
    dealer_up: Card  # the dealer's last card, face up
    commitment: str | None  # sha256 of salt and deck (rules.fairness), when a salt was given
    balance: int  # after the antes and the blind bet


@dataclass(frozen=True, slots=True)
class BoxOpened:
    """A box's cards are shown to the player (its own cards)."""

    box: int
    cards: tuple[Card, ...]
    value: HandValue


@dataclass(frozen=True, slots=True)
class Bought:
    box: int
    card: Card  # the sixth card
    value: HandValue  # best five of the six
    fee: int
    balance: int


@dataclass(frozen=True, slots=True)
class Replaced:
    box: int
    index: int  # the position (0..5) of the replaced card; the new one takes it
    dropped: Card
    drawn: Card
    value: HandValue
    fee: int
    balance: int


@dataclass(frozen=True, slots=True)
class Played:
    box: int
    bet: int
    balance: int


@dataclass(frozen=True, slots=True)
class Folded:
    box: int
    lost: int  # the ANTE and any fees this box paid
    balance: int


@dataclass(frozen=True, slots=True)
class DealerRevealed:
    cards: tuple[Card, ...]
    value: HandValue
    qualifies: bool


@dataclass(frozen=True, slots=True)
class NoGameOffered:
    """The dealer does not qualify: for each of these boxes (in order) the player may buy
    the dealer a game for `fees[i]` (1 x that box's ANTE)."""

    boxes: tuple[int, ...]
    fees: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerGameAnswered:
    box: int
    bought: bool
    fee: int  # paid (0 when declined)
    balance: int


@dataclass(frozen=True, slots=True)
class DealerReplaced:
    replacement: DealerReplacement
    cards: tuple[Card, ...]  # the dealer's five after the replace
    value: HandValue
    qualifies: bool


@dataclass(frozen=True, slots=True)
class BoxSettled:
    settlement: BoxSettlement
    balance: int  # after this box is paid


@dataclass(frozen=True, slots=True)
class GameOver:
    start_balance: int
    balance: int
    totals: Accounting  # start_balance - paid_in + paid_out == balance

    @property
    def net(self) -> int:
        return self.totals.net


SixEvent = (
    Dealt | BoxOpened | Bought | Replaced | Played | Folded | DealerRevealed | NoGameOffered
    | DealerGameAnswered | DealerReplaced | BoxSettled | GameOver
)
