"""Six-card poker: the values a game shows (settlements, the dealer's replace, the public view).

`SixCardGame.public_view()` builds a `SixCardView`: exactly what the player may see. It never
holds the dealer's four hole cards before the dealer's reveal, a box's cards before that box
is opened (box 2 after box 1's final decision, the blind box 3 at the dealer's reveal), or any
card still in the deck; the deck order (and its salt, when the game has a commitment) only
once the game is over. `view_json(view)` is the view as JSON text (`rules.jsonable.to_jsonable`
turns any of these values into plain JSON data).

Chips: every amount is an int. For a box, `staked` is its ANTE plus its BET, `fees` what it
paid the house (a sixth card 1 x ANTE, a replace 2 x ANTE, the dealer's game 1 x ANTE),
`returned` the stakes given back, `won` the winnings paid on top, and
`net = returned + won - staked - fees`. For the game, the same four totals over its boxes, and
`start_balance - staked - fees + returned + won == balance` at every moment. Once the game is
over, `SixCardView.running` is each box's net with the balance after it: every fee belongs to
a box, so they run from `start_balance` to `balance`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.cards import Card
from rules.fairness import DealProof
from rules.hands import Category, HandValue
from rules.jsonable import json_text

# The prices of the game, in ANTEs (RULES.md): a box's BET, buying a sixth card, replacing a
# card, buying the dealer a game. The rules charge them; the table shows them.
BUY_FEE, REPLACE_FEE, GAME_FEE, BET = 1, 2, 1, 2


class SixPhase(StrEnum):
    DEAL = "deal"  # antes are set; waiting for the shuffled deck (never shown to the player)
    DECIDING = "deciding"  # box `to_act` (1 or 2) is being decided: fold, play, buy, replace
    DEALER_GAME = "dealer_game"  # the dealer has no game: buy it one for box `to_act`?
    OVER = "over"


class BoxState(StrEnum):
    HIDDEN = "hidden"  # dealt, not shown yet (box 2 before box 1 is decided; the blind box)
    DECIDING = "deciding"  # shown, its decisions in progress
    PLAYING = "playing"  # ANTE and BET on it, waiting for the dealer (the blind box too)
    FOLDED = "folded"  # over: the ANTE (and any fees) lost


class BoxOutcome(StrEnum):
    FOLDED = "folded"  # ANTE and fees lost
    LOST = "lost"  # the dealer qualifies and is better: ANTE and BET lost
    PUSH = "push"  # the dealer qualifies, equal hands: ANTE and BET returned
    WON = "won"  # the dealer qualifies, the box is better: ANTE 1:1, BET by category
    NO_GAME = "no_game"  # the dealer does not qualify: ANTE 1:1, BET returned
    STAKES_RETURNED = "stakes_returned"  # bought the dealer a game, still none: stakes back


@dataclass(frozen=True, slots=True)
class Accounting:
    """Chips moved so far (a box's or the whole game's); all ints."""

    staked: int = 0  # ANTEs and BETs put on boxes
    fees: int = 0  # sixth cards, replaces and dealer games, paid to the house
    returned: int = 0  # stakes given back
    won: int = 0  # winnings paid on top of returned stakes

    @property
    def paid_in(self) -> int:
        """Everything the player put down: stakes and fees."""
        return self.staked + self.fees

    @property
    def paid_out(self) -> int:
        """Everything given back to the player: returned stakes and winnings."""
        return self.returned + self.won

    @property
    def net(self) -> int:
        return self.paid_out - self.paid_in

    def plus(self, other: Accounting) -> Accounting:
        return Accounting(self.staked + other.staked, self.fees + other.fees,
                          self.returned + other.returned, self.won + other.won)


@dataclass(frozen=True, slots=True)
class BoxSettlement:
    box: int  # 0, 1, 2 (box 1, 2, 3)
    outcome: BoxOutcome
    value: HandValue  # the box's hand (best five of six after a buy)
    dealer_value: HandValue  # the dealer's hand it was settled against (after any replace)
    bought_dealer_game: bool
    ante: int
    bet: int  # 0 when folded
    money: Accounting  # this box's staked, fees, returned, won

    @property
    def paid_category(self) -> Category | None:
        """The category the BET was paid by (WON only)."""
        return self.value.category if self.outcome is BoxOutcome.WON else None

    @property
    def net(self) -> int:
        return self.money.net


@dataclass(frozen=True, slots=True)
class DealerReplacement:
    """The dealer's one replaced card, when a game was bought for it."""

    index: int  # position of the dropped card in the dealer's five
    dropped: Card
    drawn: Card
    outs: tuple[int, ...]  # per position: unseen cards with which dropping it qualifies
    unseen: int  # the cards the dealer could not see (47): its chance is outs / unseen


# --- the public view -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SixBoxView:
    box: int  # 0, 1, 2 (box 1, 2, 3)
    ante: int
    blind: bool  # box 3: plays blind, no decisions
    state: BoxState
    cards: tuple[Card, ...] | None  # None while HIDDEN; 5 cards, or 6 after a buy
    value: HandValue | None  # None while HIDDEN
    bought: bool  # a sixth card was bought
    replaced: bool  # a card was replaced
    discards: tuple[Card, ...]  # the card replaced out, if any
    bet: int  # the BET on it (0 until played)
    fees: int  # paid for this box so far
    dealer_game: bool | None  # the answer to the dealer-game offer for this box
    settlement: BoxSettlement | None  # when the game is over


@dataclass(frozen=True, slots=True)
class SixCardView:
    phase: SixPhase
    start_balance: int
    balance: int  # what the player holds now (stakes on the table are not in it)
    boxes: tuple[SixBoxView, ...]  # empty before the deal
    to_act: int | None  # the box being decided, or offered the dealer's game
    legal: tuple[str, ...]  # the codes of the legal actions now
    dealer_up: Card | None  # the dealer's face-up card (None before the deal)
    dealer_backs: int  # the dealer's cards still face down: 4 before the reveal, then 0
    dealer_cards: tuple[Card, ...] | None  # after the reveal (after any replace: the new five)
    dealer_value: HandValue | None
    dealer_qualifies: bool | None
    dealer_first_cards: tuple[Card, ...] | None  # the five turned over, before any replace
    dealer_replacement: DealerReplacement | None
    commitment: str | None
    proof: DealProof | None  # when over and a salt was given: the deck and salt to verify
    money: Accounting  # the game's totals so far

    @property
    def is_over(self) -> bool:
        return self.phase is SixPhase.OVER

    @property
    def net(self) -> int:
        return self.money.net

    @property
    def running(self) -> tuple[BoxRunning, ...]:
        """Once the game is over: each box's net (its stakes, fees and payout) and the balance
        after it, from `start_balance` in box order; the last is `balance`. Empty before."""
        out: list[BoxRunning] = []
        balance = self.start_balance
        for box in self.boxes:
            if box.settlement is None:
                return ()
            balance += box.settlement.net
            out.append(BoxRunning(box.box, box.settlement.net, box.settlement.money.fees,
                                  balance))
        return tuple(out)


@dataclass(frozen=True, slots=True)
class BoxRunning:
    """One settled box in the running balance: `balance` is the one before the game plus the
    nets of this box and those before it."""

    box: int  # 0, 1, 2 (box 1, 2, 3)
    net: int  # returned + won - staked - fees, for this box alone
    fees: int  # paid for this box: a sixth card, a replace, the dealer's game
    balance: int  # after this box


def view_json(view: SixCardView) -> str:
    return json_text(view)
