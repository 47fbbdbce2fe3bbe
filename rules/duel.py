"""Six-Shooter Poker, the duel (RULES.md), as a pure state machine.

    state = DuelState.new(start_stack=50, first_dealer=choose_first_dealer(rng))
    state.deal(shuffled_deck(rng), new_salt(rng))       # chance comes in as data
    while not state.is_over:
        if state.needs_deal:
            state.deal(shuffled_deck(rng), new_salt(rng))
        player = state.players_to_act[0]
        events = state.apply(state.legal_actions(player)[0], player)

Players are 0 and 1. The dealer of a deal acts second; the other player (the opponent) first.
An illegal action raises a `DuelError` subclass naming why and leaves the state untouched.
The JSON form is the duel's log (parameters, each deal's deck and salt, each action), and
loading it replays the log: a loaded duel is the same duel by construction.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from rules import fairness
from rules.actions import (
    Action,
    Bet,
    BetPlaced,
    Dealt,
    DuelFinished,
    DuelOver,
    Event,
    HandsRevealed,
    IllegalBet,
    IllegalHand,
    NotYourTurn,
    RoundOver,
    Surrender,
    TiebreakAnswer,
    TiebreakAnswered,
    TiebreakOffered,
    WrongPhase,
    parse_action,
)
from rules.cards import Card, parse_cards
from rules.hands import evaluate
from rules.view import BulletResult, DealProof, HandState, HandView, Outcome, Phase, PublicView

MIN_STACK, MAX_STACK, DEFAULT_STACK = 10, 500, 50
HANDS, HAND_SIZE, BULLETS_PER_ROUND, ROUNDS = 6, 5, 3, 2


def choose_first_dealer(rng: random.Random) -> int:
    """The lot for the first dealer."""
    return rng.randrange(2)


class DuelState:
    def __init__(self, start_stack: int = DEFAULT_STACK, first_dealer: int = 0) -> None:
        if not isinstance(start_stack, int) or start_stack < 1:
            raise ValueError("the starting stack must be a positive whole number of chips")
        if first_dealer not in (0, 1):
            raise ValueError("the first dealer is player 0 or player 1")
        self.start_stack = start_stack
        self.first_dealer = first_dealer
        self.stacks = [start_stack, start_stack]
        self.dealer = first_dealer
        self.phase = Phase.DEAL
        self.round = 0
        self.bullet = 0
        self.bullet_in_round = 0
        self.deck: tuple[Card, ...] = ()
        self.salt = b""
        self.commitment: str | None = None
        self.revealed: dict[int, tuple[int, int, bool]] = {}  # position -> owner, chips, won
        self.reveal_order: list[int] = []
        self.choices: list[tuple[int, int, int]] = []  # this bullet: player, position, chips
        self.results: list[BulletResult] = []
        self.proofs: list[DealProof] = []
        self.answers: list[bool | None] = [None, None]
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.log: list[list[Any]] = []

    @classmethod
    def new(cls, start_stack: int = DEFAULT_STACK, first_dealer: int = 0) -> DuelState:
        return cls(start_stack, first_dealer)

    # --- what the table knows -----------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def needs_deal(self) -> bool:
        return self.phase is Phase.DEAL

    @property
    def opponent(self) -> int:
        return 1 - self.dealer

    @property
    def is_tiebreak(self) -> bool:
        return self.round > ROUNDS

    @property
    def bonus_duel(self) -> bool:
        return self.is_tiebreak or self.bullet_in_round == BULLETS_PER_ROUND

    @property
    def players_to_act(self) -> tuple[int, ...]:
        if self.phase is Phase.BULLET:
            return (self.opponent,) if not self.choices else (self.dealer,)
        if self.phase is Phase.TIEBREAK_OFFER:
            return tuple(p for p in (0, 1) if self.answers[p] is None)
        return ()

    @property
    def current_player(self) -> int | None:
        """The single player to act, or None (a deal is due, an offer awaits both, or over)."""
        to_act = self.players_to_act
        return to_act[0] if len(to_act) == 1 else None

    @property
    def returns(self) -> tuple[int, int]:
        return (self.stacks[0] - self.start_stack, self.stacks[1] - self.start_stack)

    def hand(self, position: int) -> tuple[Card, ...]:
        """All five cards of a hand of this deal (hidden information: never show unrevealed)."""
        return self.deck[position * HAND_SIZE : (position + 1) * HAND_SIZE]

    def _free_positions(self) -> list[int]:
        chosen = {pos for _, pos, _ in self.choices}
        return [p for p in range(HANDS) if p not in self.revealed and p not in chosen]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The moves of `player` (default: the current player), surrender aside."""
        if player is None:
            player = self.current_player
        if player is None or player not in self.players_to_act:
            return []
        if self.phase is Phase.TIEBREAK_OFFER:
            return [TiebreakAnswer(True), TiebreakAnswer(False)]
        stack = self.stacks[player]
        if self.bonus_duel:
            bets = [min(2, stack)]
        else:
            bets = [1, 2] if stack >= 2 else [1]
        return [Bet(pos, chips) for pos in self._free_positions() for chips in bets]

    # --- checks (raise) and their can_ forms ---------------------------------------------

    def check(self, action: Action, player: int) -> None:
        """Raise the DuelError that `apply(action, player)` would raise, or return None."""
        if player not in (0, 1):
            raise NotYourTurn(f"there is no player {player!r} in this duel")
        if self.is_over:
            raise DuelFinished("the duel is over")
        if isinstance(action, Surrender):
            return
        if self.phase is Phase.DEAL:
            raise WrongPhase("the cards are not dealt yet")
        if isinstance(action, TiebreakAnswer):
            if self.phase is not Phase.TIEBREAK_OFFER:
                raise WrongPhase("no tiebreak is on offer")
            if self.answers[player] is not None:
                raise NotYourTurn("you have already answered the tiebreak offer")
            return
        if not isinstance(action, Bet):
            raise WrongPhase(f"not a duel action: {action!r}")
        if self.phase is not Phase.BULLET:
            raise WrongPhase("no bullet is in play: answer the tiebreak offer")
        if player not in self.players_to_act:
            who = "the opponent" if player == self.dealer else "the dealer"
            raise NotYourTurn(f"it is {who}'s turn")
        self._check_bet(action, player)

    def _check_bet(self, bet: Bet, player: int) -> None:
        if not isinstance(bet.position, int) or not 0 <= bet.position < HANDS:
            raise IllegalHand(f"there is no hand #{bet.position}")
        if bet.position in self.revealed:
            raise IllegalHand(f"hand #{bet.position + 1} was already played this round")
        if any(pos == bet.position for _, pos, _ in self.choices):
            raise IllegalHand(f"hand #{bet.position + 1} is already taken this bullet")
        stack = self.stacks[player]
        if self.bonus_duel:
            if bet.chips != min(2, stack):
                if bet.chips == 1 and stack >= 2:
                    raise IllegalBet("no passing in a bonus duel: both players put 2 chips")
                raise IllegalBet(f"in a bonus duel the stake is {min(2, stack)}")
            return
        if bet.chips not in (1, 2):
            raise IllegalBet("a bet is 1 chip (pass) or 2 chips (play)")
        if bet.chips > stack:
            raise IllegalBet(f"a bet of {bet.chips} is more than the stack of {stack}")

    def can_apply(self, action: Action, player: int) -> bool:
        try:
            self.check(action, player)
        except ValueError:
            return False
        return True

    # --- chance --------------------------------------------------------------------------

    def deal(self, deck: Sequence[Card], salt: bytes) -> list[Event]:
        """Deal six hands from a shuffled deck (the chance node). The commitment to this
        deck is public at once; the deck and salt only when the deal is over."""
        if self.phase is not Phase.DEAL:
            raise WrongPhase("no deal is due")
        cards = fairness.check_deck(deck)
        if not salt:
            raise fairness.DeckError("a deal needs a salt")
        text = fairness.deck_text(cards)
        self.log.append(["deal", text, salt.hex()])
        self.deck, self.salt = cards, salt
        self.commitment = fairness.commitment_of(text, salt)
        self.round += 1
        # Round 2 is dealt by the other player; tiebreaks by the player who dealt round 1.
        self.dealer = 1 - self.first_dealer if self.round == 2 else self.first_dealer
        self.revealed, self.reveal_order, self.choices = {}, [], []
        self.answers = [None, None]
        self.bullet_in_round = 1
        self.bullet += 1
        self.phase = Phase.BULLET
        face_up = tuple(self.hand(p)[0] for p in range(HANDS))
        return [Dealt(self.round, self.dealer, self.commitment, face_up)]

    # --- actions -------------------------------------------------------------------------

    def apply(self, action: Action, player: int) -> list[Event]:
        self.check(action, player)
        self.log.append(["act", player, str(action)])
        if isinstance(action, Surrender):
            return self._finish(1 - player, action.reason)
        if isinstance(action, TiebreakAnswer):
            return self._answer(player, action.accept)
        assert isinstance(action, Bet)
        self.choices.append((player, action.position, action.chips))
        events: list[Event] = [BetPlaced(player, action.position, action.chips, self.bullet)]
        if len(self.choices) == 2:
            events += self._resolve()
        return events

    def _answer(self, player: int, accept: bool) -> list[Event]:
        self.answers[player] = accept
        events: list[Event] = [TiebreakAnswered(player, accept)]
        if not accept:
            return events + self._finish(None, "declined")
        if all(self.answers):
            self.phase = Phase.DEAL
        return events

    def _resolve(self) -> list[Event]:
        (p_opp, pos_opp, c_opp), (p_dlr, pos_dlr, c_dlr) = self.choices
        pos = {p_opp: pos_opp, p_dlr: pos_dlr}
        cards = {p: self.hand(pos[p]) for p in (0, 1)}
        values = {p: evaluate(cards[p]) for p in (0, 1)}
        bonus, bonus_cat, winner = 0, None, None
        if self.bonus_duel:
            stake = min(c_opp, c_dlr)
            stakes = {0: stake, 1: stake}
        else:
            stakes = {p_opp: c_opp, p_dlr: c_dlr}
        if stakes[0] == 1 and stakes[1] == 1 and not self.bonus_duel:
            outcome, gain = Outcome.BOTH_PASS, 0
        elif stakes[0] != stakes[1]:
            outcome = Outcome.UNCONTESTED
            winner = 0 if stakes[0] > stakes[1] else 1
            gain = stakes[1 - winner]
        elif values[0] == values[1]:
            outcome, gain = Outcome.SPLIT, 0
        else:
            outcome = Outcome.SHOWDOWN
            winner = 0 if values[0] > values[1] else 1
            gain = stakes[1 - winner]
        if winner is not None:
            loser = 1 - winner
            self.stacks[winner] += gain
            self.stacks[loser] -= gain
            if self.bonus_duel and outcome is Outcome.SHOWDOWN:
                bonus_cat = values[winner].category
                bonus = min(bonus_cat.multiplier, self.stacks[loser])
                self.stacks[winner] += bonus
                self.stacks[loser] -= bonus
        deltas = (0, 0) if winner is None else (
            (gain + bonus, -(gain + bonus)) if winner == 0 else (-(gain + bonus), gain + bonus)
        )
        result = BulletResult(
            number=self.bullet, round=self.round, bonus_duel=self.bonus_duel,
            dealer=self.dealer, positions=(pos[0], pos[1]), cards=(cards[0], cards[1]),
            values=(values[0], values[1]), stakes=(stakes[0], stakes[1]), outcome=outcome,
            winner=winner, bonus=bonus, bonus_category=bonus_cat, deltas=deltas,
            stacks_after=(self.stacks[0], self.stacks[1]),
        )
        self.results.append(result)
        for p in (0, 1):
            self.revealed[pos[p]] = (p, stakes[p], winner == p)
            self.reveal_order.append(pos[p])
        self.choices = []
        events: list[Event] = [HandsRevealed(result)]
        if 0 in self.stacks:
            return events + self._finish(self.stacks.index(max(self.stacks)), "bust")
        if not self.is_tiebreak and self.bullet_in_round < BULLETS_PER_ROUND:
            self.bullet_in_round += 1
            self.bullet += 1
            return events
        events.append(RoundOver(self._close_deal(), (self.stacks[0], self.stacks[1])))
        if self.round < ROUNDS:
            self.phase = Phase.DEAL
        elif self.stacks[0] != self.stacks[1]:
            reason = "tiebreak" if self.is_tiebreak else "bullets"
            events += self._finish(0 if self.stacks[0] > self.stacks[1] else 1, reason)
        else:
            self.phase = Phase.TIEBREAK_OFFER
            self.answers = [None, None]
            events.append(TiebreakOffered((self.stacks[0], self.stacks[1])))
        return events

    def _close_deal(self) -> DealProof:
        proof = DealProof(self.round, self.commitment or "", self.salt.hex(), self.deck)
        if not self.proofs or self.proofs[-1].round != self.round:
            self.proofs.append(proof)
        return proof

    def _finish(self, winner: int | None, reason: str) -> list[Event]:
        events: list[Event] = []
        if self.phase is Phase.BULLET and (not self.proofs or self.proofs[-1].round != self.round):
            events.append(RoundOver(self._close_deal(), (self.stacks[0], self.stacks[1])))
        self.phase, self.winner, self.end_reason = Phase.OVER, winner, reason
        self.choices = []
        return [*events, DuelOver((self.stacks[0], self.stacks[1]), winner, reason)]

    # --- the public view -----------------------------------------------------------------

    def public_view(self) -> PublicView:
        hands: list[HandView] = []
        if self.deck:
            chosen = {pos: (pl, chips) for pl, pos, chips in self.choices}
            for p in range(HANDS):
                face_up = self.hand(p)[0]
                if p in self.revealed:
                    owner, chips, won = self.revealed[p]
                    cards = self.hand(p)
                    hands.append(HandView(p, face_up, HandState.REVEALED, owner, chips, cards,
                                          evaluate(cards), won))
                elif p in chosen:
                    hands.append(HandView(p, face_up, HandState.CHOSEN, *chosen[p]))
                else:
                    hands.append(HandView(p, face_up, HandState.AVAILABLE))
        cards_out = tuple(c for p in self.reveal_order for c in self.hand(p))
        return PublicView(
            start_stack=self.start_stack, stacks=(self.stacks[0], self.stacks[1]),
            first_dealer=self.first_dealer, dealer=self.dealer, phase=self.phase,
            round=self.round, bullet=self.bullet, bullet_in_round=self.bullet_in_round,
            bonus_duel=self.bonus_duel and self.phase is Phase.BULLET,
            to_act=self.players_to_act, hands=tuple(hands), commitment=self.commitment,
            cards_out=cards_out, results=tuple(self.results), proofs=tuple(self.proofs),
            tiebreak_answers=(self.answers[0], self.answers[1]), winner=self.winner,
        )

    # --- persistence: the log, replayed --------------------------------------------------

    def to_json(self) -> str:
        return json.dumps(
            {"v": 1, "start_stack": self.start_stack, "first_dealer": self.first_dealer,
             "log": self.log},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> DuelState:
        data = json.loads(text)
        state = cls(int(data["start_stack"]), int(data["first_dealer"]))
        for entry in data["log"]:
            if entry[0] == "deal":
                state.deal(parse_cards(entry[1]), bytes.fromhex(entry[2]))
            else:
                state.apply(parse_action(entry[2]), int(entry[1]))
        return state

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DuelState):
            return NotImplemented
        return self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (f"<DuelState round={self.round} bullet={self.bullet} phase={self.phase.value} "
                f"stacks={tuple(self.stacks)}>")
