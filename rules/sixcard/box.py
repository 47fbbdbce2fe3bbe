"""Six-card poker: one box, as the game keeps it while it is played (RULES.md). Its cards and
decisions, what each decision costs and when the balance can pay it, how the table sees it,
and its settlement against the dealer. `SixCardGame` owns its boxes and moves the chips.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.cards import Card
from rules.hands import HandValue, evaluate
from rules.sixcard.actions import BadCardIndex, Buy, CannotAfford, Fold, IllegalMove, Play, Replace
from rules.sixcard.dealer import settle_played
from rules.sixcard.view import (
    BET,
    BUY_FEE,
    REPLACE_FEE,
    Accounting,
    BoxOutcome,
    BoxSettlement,
    BoxState,
    SixBoxView,
)

HAND = 5  # cards dealt to a box; a sixth can be bought


@dataclass(slots=True)
class Box:
    ante: int
    blind: bool
    cards: list[Card] = field(default_factory=list)
    state: BoxState = BoxState.HIDDEN
    discards: list[Card] = field(default_factory=list)
    bet: int = 0
    fees: int = 0
    dealer_game: bool | None = None
    settlement: BoxSettlement | None = None

    @property
    def bought(self) -> bool:
        return len(self.cards) > HAND

    @property
    def value(self) -> HandValue:
        return evaluate(self.cards)

    def buy(self, card: Card) -> int:
        """Take a sixth card; the fee it costs (the game pays it)."""
        fee = BUY_FEE * self.ante
        self.fees += fee
        self.cards.append(card)
        return fee

    def replace(self, index: int, drawn: Card) -> tuple[Card, int]:
        """Replace the card at `index` by `drawn`: the card dropped and the fee it costs."""
        fee = REPLACE_FEE * self.ante
        self.fees += fee
        dropped = self.cards[index]
        self.cards[index] = drawn
        self.discards.append(dropped)
        return dropped, fee

    def check_decision(self, action: Fold | Play | Buy | Replace, number: int,
                       balance: int) -> None:
        """Raise the SixCardError that deciding `action` on this box (box `number + 1`) with
        `balance` in hand would be, or return None. Whatever is bought must leave the BET
        payable."""
        fee = 0
        if isinstance(action, Buy):
            if self.bought:
                raise IllegalMove(f"box {number + 1} already bought its sixth card")
            fee = BUY_FEE * self.ante
        elif isinstance(action, Replace):
            if not self.bought:
                raise IllegalMove("buy a sixth card before replacing one")
            if self.discards:
                raise IllegalMove(f"box {number + 1} already replaced a card")
            if type(action.index) is not int or not 0 <= action.index < len(self.cards):
                raise BadCardIndex(f"there is no card #{action.index} among the six")
            fee = REPLACE_FEE * self.ante
        elif isinstance(action, Fold):
            return
        bet = BET * self.ante
        if balance - fee < bet:
            what = "the BET" if fee == 0 else f"a fee of {fee} and then the BET"
            raise CannotAfford(f"{what} of {bet} on box {number + 1} needs {fee + bet}, the "
                               f"balance holds {balance}")

    def view(self, number: int) -> SixBoxView:
        """The box as the player sees it: no card while it is still HIDDEN."""
        hidden = self.state is BoxState.HIDDEN
        return SixBoxView(
            box=number, ante=self.ante, blind=self.blind, state=self.state,
            cards=None if hidden else tuple(self.cards), value=None if hidden else self.value,
            bought=self.bought, replaced=bool(self.discards), discards=tuple(self.discards),
            bet=self.bet, fees=self.fees, dealer_game=self.dealer_game,
            settlement=self.settlement,
        )

    def settle(self, number: int, first: HandValue, final: HandValue) -> BoxSettlement:
        """Settle the box against the dealer's hand: `final` (after the dealer's replace) if it
        bought the dealer a game, `first` (the five turned over) otherwise. Kept and returned;
        the chips are the game's to pay."""
        bought_game = bool(self.dealer_game)
        dealer = final if bought_game else first
        if self.state is BoxState.FOLDED:
            outcome, returned, won = BoxOutcome.FOLDED, 0, 0
        else:
            outcome, returned, won = settle_played(self.ante, self.bet, self.value, dealer,
                                                   bought_game)
        money = Accounting(self.ante + self.bet, self.fees, returned, won)
        self.settlement = BoxSettlement(number, outcome, self.value, dealer, bought_game,
                                        self.ante, self.bet, money)
        return self.settlement
