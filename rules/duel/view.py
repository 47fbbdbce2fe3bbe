"""The public view of a duel: exactly what anyone at the table may see.

`DuelState.public_view()` builds it; `render/` draws it; `bot/` captions it. It never holds a
hidden card: a hand's five cards appear only once that hand is turned over, the deck order and
salt only once their deal is over. It also carries the duel's shape (`rounds`, `max_bullets`),
so whoever shows it asks the view whether a deal is a tiebreak instead of counting.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.cards import Card
from rules.fairness import DealProof
from rules.hands import Category, HandValue
from rules.jsonable import json_text


class Phase(StrEnum):
    DEAL = "deal"  # waiting for a shuffled deck (a chance node; never shown to players)
    BULLET = "bullet"  # a bullet in progress: opponent then dealer choose a hand and bet
    TIEBREAK_OFFER = "tiebreak_offer"  # stacks are level after the last bullet: play on?
    OVER = "over"


class HandState(StrEnum):
    AVAILABLE = "available"  # in the row, one card up, four backs
    CHOSEN = "chosen"  # chips on it this bullet, still face down
    REVEALED = "revealed"  # turned over in an earlier bullet of this deal


class Outcome(StrEnum):
    BOTH_PASS = "both_pass"  # 1 v 1: each takes the chip back
    UNCONTESTED = "uncontested"  # 1 v 2: the player who put 2 takes the 3 chips
    SHOWDOWN = "showdown"  # 2 v 2 (or a bonus duel): the better hand takes the pot
    SPLIT = "split"  # a showdown of equal hands: the pot is split, no bonus


@dataclass(frozen=True, slots=True)
class HandView:
    position: int  # 0..5, left to right
    face_up: Card
    state: HandState
    owner: int | None = None  # the player who put chips on it (None while available)
    chips: int = 0  # chips that player put on it
    cards: tuple[Card, ...] | None = None  # all five, only when REVEALED
    value: HandValue | None = None  # only when REVEALED
    won: bool = False  # it won its bullet (a showdown, or the uncontested play)


@dataclass(frozen=True, slots=True)
class BulletResult:
    """One finished bullet, as turned over at the table. Tuples are indexed by player (0, 1)."""

    number: int  # 1..6 in the duel, 7, 8, ... for tiebreak bullets
    round: int  # 1, 2; 3, 4, ... for tiebreaks
    bonus_duel: bool
    dealer: int
    positions: tuple[int, int]  # each player's hand position
    cards: tuple[tuple[Card, ...], tuple[Card, ...]]  # each player's five cards
    values: tuple[HandValue, HandValue]
    stakes: tuple[int, int]  # chips each put on the hand (after any all-in matching)
    outcome: Outcome
    winner: int | None  # None for BOTH_PASS and SPLIT
    bonus: int  # bonus actually paid by the loser (capped by the loser's stack)
    bonus_category: Category | None  # the winner's category when a bonus was due
    deltas: tuple[int, int]  # net chips won (+) or lost (-) by each player
    stacks_after: tuple[int, int]


@dataclass(frozen=True, slots=True)
class PublicView:
    start_stack: int
    stacks: tuple[int, int]
    first_dealer: int
    dealer: int  # this deal's dealer; the other player is the opponent and acts first
    phase: Phase
    round: int  # 1, 2; 3, 4, ... for tiebreak deals
    bullet: int  # the bullet in play (or the last one, when over): 1..6, then 7, 8, ...
    bullet_in_round: int  # 1..3 (a tiebreak deal has a single bullet: 1)
    bonus_duel: bool  # the bullet in play is a bonus duel (no pass, bonus paid)
    to_act: tuple[int, ...]  # players whose move it is (two during a tiebreak offer)
    hands: tuple[HandView, ...]  # the row of six for this deal (empty before the first deal)
    commitment: str | None  # this deal's commitment, published before play
    cards_out: tuple[Card, ...]  # turned-over cards of this deal, in the order they came out
    results: tuple[BulletResult, ...]  # every finished bullet of the duel, oldest first
    proofs: tuple[DealProof, ...]  # every finished deal's proof, oldest first
    tiebreak_answers: tuple[bool | None, bool | None]  # during an offer: each player's answer
    winner: int | None  # when over: the winner, or None for a draw
    rounds: int  # the regular rounds (2); every deal after them is a tiebreak
    max_bullets: int  # the bullets of the regular rounds (6); tiebreak bullets come after

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def is_tiebreak(self) -> bool:
        """The deal in play (or the last one, when over) is a tiebreak."""
        return self.is_tiebreak_round(self.round)

    def is_tiebreak_round(self, round_: int) -> bool:
        """Deal `round_` (1, 2, ...; e.g. a `BulletResult.round`) is a tiebreak."""
        return round_ > self.rounds

    @property
    def last_result(self) -> BulletResult | None:
        return self.results[-1] if self.results else None

    @property
    def opponent(self) -> int:
        return 1 - self.dealer

    @property
    def stack_history(self) -> tuple[tuple[int, int], ...]:
        """Both stacks at the start and after every finished bullet (for the result chart)."""
        start = (self.start_stack, self.start_stack)
        return (start, *(r.stacks_after for r in self.results))


def view_json(view: PublicView) -> str:
    return json_text(view)
