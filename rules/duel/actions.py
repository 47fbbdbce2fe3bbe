"""Actions a duelist can take, the events a duel emits, and the errors it raises.

Actions are frozen values with a short code that parses and prints round-trip
(`parse_action("b32") == Bet(3, 2)`, `str(Bet(3, 2)) == "b32"`); callback data carries the code.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.cards import Card
from rules.duel.view import BulletResult
from rules.fairness import DealProof

# --- errors: one class per kind of failure, all ValueErrors with a readable reason ----------


class DuelError(ValueError):
    """An action the duel cannot take now. The state is left untouched."""


class NotYourTurn(DuelError):
    pass


class AlreadyAnswered(NotYourTurn):
    """The player has answered this tiebreak offer already."""


class IllegalHand(DuelError):
    """A hand out of range, already turned over, or already chosen this bullet."""


class IllegalBet(DuelError):
    """A pass in a bonus duel, a bet the stack cannot cover, or chips other than 1 or 2."""


class WrongPhase(DuelError):
    """An action that does not belong to this moment (a bet during a tiebreak offer...)."""


class DuelFinished(DuelError):
    pass


class BadAction(DuelError):
    """A text that is not an action code."""


# --- actions ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Bet:
    """Put `chips` on the hand at `position` (0..5): 1 is PASS, 2 is PLAY."""

    position: int
    chips: int

    def __str__(self) -> str:
        return f"b{self.position}{self.chips}"


@dataclass(frozen=True, slots=True)
class TiebreakAnswer:
    accept: bool

    def __str__(self) -> str:
        return "ty" if self.accept else "tn"


@dataclass(frozen=True, slots=True)
class Surrender:
    """Forfeit the duel (or lose it on time); allowed to either player until the end."""

    reason: str = "surrender"

    def __str__(self) -> str:
        return "sr" if self.reason == "surrender" else "st"


Action = Bet | TiebreakAnswer | Surrender


def parse_action(code: str) -> Action:
    if len(code) == 3 and code[0] == "b" and code[1] in "012345" and code[2] in "12":
        return Bet(int(code[1]), int(code[2]))
    simple: dict[str, Action] = {
        "ty": TiebreakAnswer(True),
        "tn": TiebreakAnswer(False),
        "sr": Surrender("surrender"),
        "st": Surrender("timeout"),
    }
    if code in simple:
        return simple[code]
    raise BadAction(f"not an action code: {code[:16]!r}")


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Dealt:
    round: int
    dealer: int
    commitment: str
    face_up: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class BetPlaced:
    player: int
    position: int
    chips: int
    bullet: int
    forced: bool = False  # the player's only legal move, placed by the rules (no tap)


@dataclass(frozen=True, slots=True)
class HandsRevealed:
    result: BulletResult


@dataclass(frozen=True, slots=True)
class RoundOver:
    proof: DealProof
    stacks: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TiebreakOffered:
    stacks: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TiebreakAnswered:
    player: int
    accept: bool


@dataclass(frozen=True, slots=True)
class DuelOver:
    stacks: tuple[int, int]
    winner: int | None  # None: a draw
    reason: str  # "bullets", "bust", "surrender", "timeout", "declined"


Event = (
    Dealt | BetPlaced | HandsRevealed | RoundOver | TiebreakOffered | TiebreakAnswered | DuelOver
)
