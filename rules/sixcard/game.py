"""Six-card poker (RULES.md, seed 003): one player against the dealer, as a pure state machine.

    game = SixCardGame.new(antes=(10, 5), balance=1000)    # refused below 3 x each ANTE
    events = game.deal(shuffled_deck(rng), new_salt(rng))   # chance comes in as data
    while not game.is_over:
        events = game.apply(game.legal_actions()[0])

Boxes are 0, 1, 2 (box 1, 2, 3); with three boxes box 2 (the third) plays blind. The deck is
used in order: five cards for each box (box 1 first), then the dealer's five (the last one face
up), then every sixth card, replaced card and the dealer's replaced card as they are needed.
The player's balance is the bot's to store; the game is told it and moves chips against it
(`balance`), so it refuses whatever the balance could not pay. An illegal action raises a
`SixCardError` subclass naming why and leaves the state untouched. The JSON form is the game's
log (antes, starting balance, deck, salt, each action) and loading it replays the log.

What may be played (`legal_actions`, and `check`, which names why an action is not legal):
boxes are decided in turn (fold, play, buy a sixth card, then replace one card), each decision
only while the balance can still pay the box's BET after it; once the boxes are decided, a
dealer without a game may be bought one per playing box, if the balance pays its fee. A box's
own rules are `rules.sixcard.box`'s; the dealer's, `rules.sixcard.dealer`'s; the actions and
their codes, `rules.sixcard.actions`'.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from rules import fairness
from rules.cards import Card, parse_cards
from rules.fairness import DealProof
from rules.hands import HandValue, evaluate
from rules.saved import Saved
from rules.sixcard.actions import (
    BadAction,
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
from rules.sixcard.box import HAND, Box
from rules.sixcard.dealer import UNSEEN, choose_discard, qualifies
from rules.sixcard.view import (
    BET,
    GAME_FEE,
    Accounting,
    BoxState,
    DealerReplacement,
    SixCardView,
    SixPhase,
)

MIN_ANTE, MAX_ANTE, MAX_BOXES, BLIND_BOX = 1, 100, 3, 2


class SixCardGame(Saved):
    def __init__(self, antes: Sequence[int], balance: int) -> None:
        antes = tuple(antes)
        if not 1 <= len(antes) <= MAX_BOXES:
            raise BadSetup(f"play 1 to {MAX_BOXES} boxes, not {len(antes)}")
        for ante in antes:
            if type(ante) is not int or not MIN_ANTE <= ante <= MAX_ANTE:
                raise BadSetup(f"an ANTE is a whole number from {MIN_ANTE} to {MAX_ANTE}: "
                               f"{ante!r}")
        if type(balance) is not int or balance < 0:
            raise BadSetup(f"the balance is a whole number of chips, not {balance!r}")
        blind_bet = BET * antes[BLIND_BOX] if len(antes) > BLIND_BOX else 0
        if balance < self.cover(antes):
            raise CannotAfford(f"every box's ANTE and BET need {self.cover(antes)}, the "
                               f"balance holds {balance}")
        self.antes = antes
        self.start_balance = self.balance = balance
        self.blind_bet = blind_bet
        self.phase = SixPhase.DEAL
        self.boxes = [Box(a, i == BLIND_BOX) for i, a in enumerate(antes)]
        self.current: int | None = None
        self.offers: list[int] = []  # boxes still to answer the dealer-game offer
        self.deck: tuple[Card, ...] = ()
        self.salt: bytes | None = None
        self.commitment: str | None = None
        self.drawn = 0  # cards taken from the deck so far
        self.dealer: list[Card] = []
        self.dealer_first: tuple[Card, ...] | None = None  # turned over (None before)
        self.dealer_replacement: DealerReplacement | None = None
        self.money = Accounting()
        self.log: list[str] = []

    @classmethod
    def new(cls, antes: Sequence[int], balance: int) -> SixCardGame:
        return cls(antes, balance)

    @staticmethod
    def cover(antes: Sequence[int]) -> int:
        """What the balance must hold for a game to start: every box's ANTE and BET (3 x ANTE
        each), so no box is ever dealt a hand whose only legal move is FOLD."""
        return sum((1 + BET) * ante for ante in antes)

    @staticmethod
    def stake(antes: Sequence[int]) -> int:
        """What the deal takes from the balance: the antes, and box 3's BET (it plays blind)."""
        return sum(antes) + (BET * antes[BLIND_BOX] if len(antes) > BLIND_BOX else 0)

    # --- what the table knows -----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is SixPhase.OVER

    @property
    def dealer_revealed(self) -> bool:
        return self.dealer_first is not None

    @property
    def dealer_value(self) -> HandValue:
        """The dealer's hand (hidden information before the reveal: never show it then)."""
        return evaluate(self.dealer)

    # --- what may be played --------------------------------------------------------------

    def legal_actions(self) -> list[SixAction]:
        if self.phase is SixPhase.DEALER_GAME:
            return [a for a in (DealerGame(True), DealerGame(False)) if self.can_apply(a)]
        if self.phase is not SixPhase.DECIDING:
            return []
        moves: list[SixAction] = [Fold(), Play(), Buy(), *(Replace(i) for i in range(6))]
        return [a for a in moves if self.can_apply(a)]

    def check(self, action: SixAction) -> None:
        """Raise the SixCardError that `apply(action)` would raise, or return None."""
        if not isinstance(action, Fold | Play | Buy | Replace | DealerGame):
            raise BadAction(f"not a six-card poker action: {action!r}")
        if self.phase is SixPhase.OVER:
            raise GameFinished("the game is over")
        if self.phase is SixPhase.DEAL:
            raise WrongPhase("the cards are not dealt yet")
        assert self.current is not None
        box = self.boxes[self.current]
        if isinstance(action, DealerGame):
            if self.phase is not SixPhase.DEALER_GAME:
                raise WrongPhase("the dealer's game is not on offer: decide the box first")
            if action.buy and self.balance < GAME_FEE * box.ante:
                raise CannotAfford(f"the dealer's game costs {GAME_FEE * box.ante}, the "
                                   f"balance holds {self.balance}")
            return
        if self.phase is not SixPhase.DECIDING:
            raise WrongPhase("the boxes are decided: answer the dealer-game offer")
        box.check_decision(action, self.current, self.balance)

    def can_apply(self, action: SixAction) -> bool:
        try:
            self.check(action)
        except SixCardError:
            return False
        return True

    # --- chance --------------------------------------------------------------------------

    def deal(self, deck: Sequence[Card], salt: bytes | None = None) -> list[SixEvent]:
        """Take the antes (and the blind box's BET) and deal from a shuffled deck. With a
        salt, the commitment to the deck is public at once, the deck and salt at the end."""
        if self.phase is not SixPhase.DEAL:
            raise WrongPhase("the cards are already dealt")
        cards = fairness.check_deck(deck)
        if salt is not None and not salt:
            raise fairness.DeckError("a salt, when given, is not empty")
        self.log.append(f"deal {fairness.deck_text(cards)} {salt.hex() if salt else '-'}")
        self.deck, self.salt = cards, salt
        self.commitment = fairness.commitment(cards, salt) if salt else None
        for box in self.boxes:
            box.cards = list(self._draw(HAND))
        self.dealer = list(self._draw(HAND))
        self._pay(Accounting(staked=sum(self.antes) + self.blind_bet))
        blind = self.boxes[BLIND_BOX] if len(self.boxes) > BLIND_BOX else None
        if blind is not None:
            blind.bet = self.blind_bet
        events: list[SixEvent] = [Dealt(self.antes, self.blind_bet, self.dealer[-1],
                                        self.commitment, self.balance)]
        return events + self._open(0)

    def _draw(self, n: int) -> tuple[Card, ...]:
        cards = self.deck[self.drawn : self.drawn + n]
        self.drawn += n
        return cards

    def _pay(self, moved: Accounting) -> None:
        self.money = self.money.plus(moved)
        self.balance += moved.paid_out - moved.paid_in
        assert self.balance >= 0

    # --- actions -------------------------------------------------------------------------

    def apply(self, action: SixAction) -> list[SixEvent]:
        self.check(action)
        self.log.append(str(action))
        assert self.current is not None
        b, box = self.current, self.boxes[self.current]
        if isinstance(action, DealerGame):
            return self._answer(b, box, action.buy)
        if isinstance(action, Buy):
            fee = box.buy(*self._draw(1))
            self._pay(Accounting(fees=fee))
            return [Bought(b, box.cards[-1], box.value, fee, self.balance)]
        if isinstance(action, Replace):
            (drawn,) = self._draw(1)
            dropped, fee = box.replace(action.index, drawn)
            self._pay(Accounting(fees=fee))
            return [Replaced(b, action.index, dropped, drawn, box.value, fee, self.balance)]
        events: list[SixEvent]
        if isinstance(action, Play):
            box.bet = BET * box.ante
            self._pay(Accounting(staked=box.bet))
            box.state = BoxState.PLAYING
            events = [Played(b, box.bet, self.balance)]
        else:
            box.state = BoxState.FOLDED
            events = [Folded(b, box.ante + box.fees, self.balance)]
        if b + 1 < len(self.boxes) and b + 1 != BLIND_BOX:
            return events + self._open(b + 1)
        return events + self._reveal()

    def _open(self, b: int) -> list[SixEvent]:
        box = self.boxes[b]
        if box.blind:
            box.state = BoxState.PLAYING
        else:
            box.state, self.current, self.phase = BoxState.DECIDING, b, SixPhase.DECIDING
        return [BoxOpened(b, tuple(box.cards), box.value)]

    def _playing(self) -> list[int]:
        return [i for i, box in enumerate(self.boxes) if box.state is BoxState.PLAYING]

    def _reveal(self) -> list[SixEvent]:
        events: list[SixEvent] = []
        if len(self.boxes) > BLIND_BOX:
            events += self._open(BLIND_BOX)
        self.dealer_first = tuple(self.dealer)
        value = self.dealer_value
        events.append(DealerRevealed(self.dealer_first, value, qualifies(value)))
        playing = self._playing()
        if qualifies(value) or not playing:
            return events + self._settle()
        self.offers = playing
        self.phase, self.current = SixPhase.DEALER_GAME, playing[0]
        events.append(NoGameOffered(tuple(playing),
                                    tuple(GAME_FEE * self.boxes[i].ante for i in playing)))
        return events

    def _answer(self, b: int, box: Box, buy: bool) -> list[SixEvent]:
        fee = GAME_FEE * box.ante if buy else 0
        if fee:
            self._pay(Accounting(fees=fee))
            box.fees += fee
        box.dealer_game = buy
        events: list[SixEvent] = [DealerGameAnswered(b, buy, fee, self.balance)]
        self.offers.remove(b)
        if self.offers:
            self.current = self.offers[0]
            return events
        if any(self.boxes[i].dealer_game for i in self._playing()):
            index, outs = choose_discard(self.dealer)
            dropped, (drawn,) = self.dealer[index], self._draw(1)
            self.dealer[index] = drawn
            self.dealer_replacement = DealerReplacement(index, dropped, drawn, outs, UNSEEN)
            value = self.dealer_value
            events.append(DealerReplaced(self.dealer_replacement, tuple(self.dealer), value,
                                         qualifies(value)))
        return events + self._settle()

    def _settle(self) -> list[SixEvent]:
        assert self.dealer_first is not None
        first, final = evaluate(self.dealer_first), self.dealer_value
        events: list[SixEvent] = []
        for b, box in enumerate(self.boxes):
            settlement = box.settle(b, first, final)
            self._pay(Accounting(returned=settlement.money.returned, won=settlement.money.won))
            events.append(BoxSettled(settlement, self.balance))
        self.phase, self.current = SixPhase.OVER, None
        return [*events, GameOver(self.start_balance, self.balance, self.money)]

    # --- the public view -----------------------------------------------------------------

    def public_view(self) -> SixCardView:
        boxes = tuple(box.view(b) for b, box in enumerate(self.boxes)) if self.deck else ()
        shown = self.dealer_revealed
        proof = None
        if self.is_over and self.salt:
            proof = DealProof(1, self.commitment or "", self.salt.hex(), self.deck)
        return SixCardView(
            phase=self.phase, start_balance=self.start_balance, balance=self.balance,
            boxes=boxes, to_act=self.current, legal=tuple(str(a) for a in self.legal_actions()),
            dealer_up=self.dealer_first[-1] if self.dealer_first else
            (self.dealer[-1] if self.dealer else None),
            dealer_backs=0 if shown or not self.dealer else HAND - 1,
            dealer_cards=tuple(self.dealer) if shown else None,
            dealer_value=self.dealer_value if shown else None,
            dealer_qualifies=qualifies(self.dealer_value) if shown else None,
            dealer_first_cards=self.dealer_first, dealer_replacement=self.dealer_replacement,
            commitment=self.commitment, proof=proof, money=self.money,
        )

    # --- persistence: the log, replayed --------------------------------------------------

    def to_json(self) -> str:
        return json.dumps({"v": 1, "antes": list(self.antes), "balance": self.start_balance,
                           "log": self.log}, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> SixCardGame:
        data: dict[str, Any] = json.loads(text)
        game = cls([int(a) for a in data["antes"]], int(data["balance"]))
        for entry in data["log"]:
            if entry.startswith("deal "):
                _, deck, salt = entry.split(" ")
                game.deal(parse_cards(deck), None if salt == "-" else bytes.fromhex(salt))
            else:
                game.apply(parse_action(entry))
        return game

    def __repr__(self) -> str:
        return (f"<SixCardGame antes={self.antes} phase={self.phase.value} box={self.current} "
                f"balance={self.balance}>")
