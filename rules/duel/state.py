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
loading it replays the log: a loaded duel is the same duel by construction (`rules.duel.log`).
The log also tells the past: `at(version)` is the duel after its first `version` actions, and
`actors_since(version)` who made each action after those.

What may be played (`legal_actions`, and `check`, which names why an action is not legal):
the opponent chooses first, then the dealer; a hand is chosen once per deal, and by one player
per bullet (`rules.duel.row`); the chips are `rules.duel.stakes`'; a tiebreak offer is answered
once by each player; either player may surrender until the end. How a bullet is settled is
`rules.duel.bullet`'s.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from rules import fairness
from rules.cards import Card, parse_cards
from rules.duel import row, stakes
from rules.duel.actions import (
    Action,
    AlreadyAnswered,
    Bet,
    BetPlaced,
    Dealt,
    DuelFinished,
    DuelOver,
    Event,
    HandsRevealed,
    NotYourTurn,
    RoundOver,
    Surrender,
    TiebreakAnswer,
    TiebreakAnswered,
    TiebreakOffered,
    WrongPhase,
    parse_action,
)
from rules.duel.bullet import settle
from rules.duel.log import DealEntry, DuelLog
from rules.duel.row import HANDS
from rules.duel.view import BulletResult, Phase, PublicView
from rules.fairness import DealProof
from rules.saved import Saved

MIN_STACK, MAX_STACK, DEFAULT_STACK = 10, 500, 50
BULLETS_PER_ROUND, ROUNDS = 3, 2  # then a tiebreak deal of one bullet, as long as both accept


def choose_first_dealer(rng: random.Random) -> int:
    """The lot for the first dealer."""
    return rng.randrange(2)


class DuelState(Saved):
    def __init__(self, start_stack: int = DEFAULT_STACK, first_dealer: int = 0, *,
                 forced_moves: bool = True) -> None:
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
        self.log = DuelLog(start_stack, first_dealer, forced_moves=forced_moves)

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
        return row.hand(self.deck, position)

    # --- what may be played --------------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """The moves of `player` (default: the current player), surrender aside."""
        if player is None:
            player = self.current_player
        if player is None or player not in self.players_to_act:
            return []
        if self.phase is Phase.TIEBREAK_OFFER:
            return [TiebreakAnswer(True), TiebreakAnswer(False)]
        chips = stakes.allowed_chips(self.stacks[player], self.bonus_duel)
        return [Bet(pos, c) for pos in row.free_positions(self.revealed, self.choices)
                for c in chips]

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
                raise AlreadyAnswered("you have already answered the tiebreak offer")
            return
        if not isinstance(action, Bet):
            raise WrongPhase(f"not a duel action: {action!r}")
        if self.phase is not Phase.BULLET:
            raise WrongPhase("no bullet is in play: answer the tiebreak offer")
        if player not in self.players_to_act:
            who = "the opponent" if player == self.dealer else "the dealer"
            raise NotYourTurn(f"it is {who}'s turn")
        row.check_hand(action.position, self.revealed, self.choices)
        stakes.check_chips(action.chips, self.stacks[player], self.bonus_duel)

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
        self.log = self.log.dealt(text, salt.hex())
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
        self.log = self.log.acted(player, str(action))
        if isinstance(action, Surrender):
            return self._finish(1 - player, action.reason)
        if isinstance(action, TiebreakAnswer):
            return self._answer(player, action.accept)
        assert isinstance(action, Bet)
        self.choices.append((player, action.position, action.chips))
        events: list[Event] = [BetPlaced(player, action.position, action.chips, self.bullet)]
        forced = self._forced_bet()
        if forced is not None:  # the dealer's only hand (a bonus duel): no tap for it
            self.choices.append((self.dealer, forced.position, forced.chips))
            events.append(BetPlaced(self.dealer, forced.position, forced.chips, self.bullet,
                                    forced=True))
        if len(self.choices) == 2:
            events += self._resolve()
        return events

    def _forced_bet(self) -> Bet | None:
        """The dealer's bet when it is the only legal one (one hand left, one stake), placed
        by the rules as RULES.md says ("the dealer gets the other"); never in a format-1 log,
        which recorded it as the dealer's own action."""
        if not self.log.forced_moves or len(self.choices) != 1:
            return None
        legal = self.legal_actions(self.dealer)
        only = legal[0] if len(legal) == 1 else None
        return only if isinstance(only, Bet) else None

    def _answer(self, player: int, accept: bool) -> list[Event]:
        self.answers[player] = accept
        events: list[Event] = [TiebreakAnswered(player, accept)]
        if not accept:
            return events + self._finish(None, "declined")
        if all(self.answers):
            self.phase = Phase.DEAL
        return events

    def _resolve(self) -> list[Event]:
        bets = {player: (pos, chips) for player, pos, chips in self.choices}
        positions = (bets[0][0], bets[1][0])
        result = settle(
            number=self.bullet, round_=self.round, dealer=self.dealer,
            bonus_duel=self.bonus_duel, positions=positions,
            cards=(self.hand(positions[0]), self.hand(positions[1])),
            chips=(bets[0][1], bets[1][1]), stacks=(self.stacks[0], self.stacks[1]),
        )
        self.stacks = list(result.stacks_after)
        self.results.append(result)
        for p in (0, 1):
            self.revealed[positions[p]] = (p, result.stakes[p], result.winner == p)
            self.reveal_order.append(positions[p])
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
        return PublicView(
            start_stack=self.start_stack, stacks=(self.stacks[0], self.stacks[1]),
            first_dealer=self.first_dealer, dealer=self.dealer, phase=self.phase,
            round=self.round, bullet=self.bullet, bullet_in_round=self.bullet_in_round,
            bonus_duel=self.bonus_duel and self.phase is Phase.BULLET,
            to_act=self.players_to_act, hands=row.view(self.deck, self.revealed, self.choices),
            commitment=self.commitment, cards_out=row.cards_out(self.deck, self.reveal_order),
            results=tuple(self.results), proofs=tuple(self.proofs),
            tiebreak_answers=(self.answers[0], self.answers[1]), winner=self.winner,
            rounds=ROUNDS, max_bullets=ROUNDS * BULLETS_PER_ROUND,
        )

    # --- persistence: the log, replayed --------------------------------------------------

    def to_json(self) -> str:
        return self.log.to_json()

    @classmethod
    def from_json(cls, text: str) -> DuelState:
        return cls.replay(DuelLog.from_json(text))

    @classmethod
    def replay(cls, log: DuelLog) -> DuelState:
        """The duel that `log` records, rebuilt by dealing and applying it again."""
        state = cls(log.start_stack, log.first_dealer, forced_moves=log.forced_moves)
        for entry in log.entries:
            if isinstance(entry, DealEntry):
                state.deal(parse_cards(entry.deck), bytes.fromhex(entry.salt))
            else:
                state.apply(parse_action(entry.code), entry.player)
        return state

    def copy(self) -> DuelState:
        """An independent copy, what `from_json(self.to_json())` gives without replaying the
        log: a move applied to it leaves this state as it is (the log and every value held
        are immutable; the lists and dicts of the table are copied)."""
        twin = object.__new__(type(self))
        twin.__dict__.update({k: v.copy() if isinstance(v, list | dict) else v
                              for k, v in self.__dict__.items()})
        return twin

    @property
    def version(self) -> int:
        """The number of actions applied so far (deals are not actions)."""
        return self.log.version

    def at(self, version: int) -> DuelState:
        """The duel as it was after its first `version` actions (0..self.version), with the
        deal that came right after the last of them, if one was due then. A new state."""
        return self.replay(self.log.upto(version))

    def actors_since(self, version: int) -> list[int]:
        """The player who made each action after the first `version` ones, in order."""
        return self.log.actors_since(version)

    def move_at(self, version: int) -> tuple[int, Action]:
        """The player and the action that took the duel from `version` to `version + 1`
        (0 <= version < self.version; ValueError otherwise)."""
        entry = self.log.act_at(version)
        return entry.player, parse_action(entry.code)

    def __repr__(self) -> str:
        return (f"<DuelState round={self.round} bullet={self.bullet} phase={self.phase.value} "
                f"stacks={tuple(self.stacks)}>")
