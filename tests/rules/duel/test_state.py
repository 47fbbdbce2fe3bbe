"""The duel: every bullet outcome, every bonus, the stack rules and the tiebreak, as worked
examples on crafted decks."""

from __future__ import annotations

import pytest

from rules.cards import CARDS, Card, parse_cards
from rules.duel import (
    Bet,
    BetPlaced,
    DuelFinished,
    DuelOver,
    DuelState,
    HandsRevealed,
    HandState,
    IllegalBet,
    IllegalHand,
    NotYourTurn,
    Outcome,
    Phase,
    RoundOver,
    Surrender,
    TiebreakAnswer,
    TiebreakOffered,
    WrongPhase,
    parse_action,
)
from rules.hands import Category
from tests.rules.duel.helpers import SALT, bets

LOSER = "2s 3s 4c 6c 8s"  # high card, 8-6-4-3-2: loses to anything below


def deck_at(placed: dict[int, str]) -> tuple[Card, ...]:
    """A deck with the given hands at the given positions; the rest filled from unused cards."""
    used = {c for h in placed.values() for c in parse_cards(h)}
    spare = iter(c for c in CARDS if c not in used)
    head: list[Card] = []
    for pos in range(6):
        head += parse_cards(placed[pos]) if pos in placed else [next(spare) for _ in range(5)]
    return (*head, *spare)


def duel(stack: int = 50, **placed: str) -> DuelState:
    """A dealt duel, player 0 dealing (so player 1 acts first)."""
    state = DuelState.new(stack, first_dealer=0)
    state.deal(deck_at({int(k[1:]): v for k, v in placed.items()}), SALT)
    return state


def test_a_deal_shows_six_face_up_cards_and_nothing_else() -> None:
    state = duel(h0="As Kd 7h 2c 3d")
    view = state.public_view()
    assert view.phase is Phase.BULLET and view.round == 1 and view.bullet == 1
    assert view.to_act == (1,) and view.dealer == 0
    assert [h.state for h in view.hands] == [HandState.AVAILABLE] * 6
    assert view.hands[0].face_up == Card.parse("As")
    assert all(h.cards is None and h.value is None for h in view.hands)
    assert view.cards_out == () and view.commitment is not None and view.proofs == ()


def test_both_pass_returns_the_chips() -> None:
    state = duel()
    bets(state, (0, 1), (1, 1))
    result = state.results[-1]
    assert result.outcome is Outcome.BOTH_PASS and result.winner is None
    assert state.stacks == [50, 50] and result.deltas == (0, 0)


@pytest.mark.parametrize("opp_chips, dealer_chips, winner", [(1, 2, 0), (2, 1, 1)])
def test_the_player_who_plays_against_a_pass_wins_one_whatever_the_cards(
    opp_chips: int, dealer_chips: int, winner: int
) -> None:
    # The player who plays holds the worse hand: it does not matter.
    strong, weak = "Ac Ad Ah As Kd", LOSER
    state = duel(h0=weak if winner == 1 else strong, h1=weak if winner == 0 else strong)
    bets(state, (0, opp_chips), (1, dealer_chips))
    result = state.results[-1]
    assert result.outcome is Outcome.UNCONTESTED and result.winner == winner
    assert state.stacks[winner] == 51 and state.stacks[1 - winner] == 49


def test_play_against_play_is_a_showdown_for_four_chips() -> None:
    state = duel(h0="Kc Kd 5h 7s 9c", h1=LOSER)
    bets(state, (0, 2), (1, 2))
    result = state.results[-1]
    assert result.outcome is Outcome.SHOWDOWN and result.winner == 1
    assert result.values[1].category is Category.ONE_PAIR
    assert state.stacks == [48, 52] and result.bonus == 0


def test_equal_hands_split_the_pot_and_suits_do_not_count() -> None:
    state = duel(h0="Ac Kc Qd Jd 9h", h1="Ad Kd Qc Jc 9s")
    bets(state, (0, 2), (1, 2))
    assert state.results[-1].outcome is Outcome.SPLIT and state.stacks == [50, 50]


def test_played_hands_stay_face_up_and_leave_the_row() -> None:
    state = duel(h2="As Kd 7h 2c 3d")
    bets(state, (2, 1))
    view = state.public_view()
    assert view.hands[2].state is HandState.CHOSEN and view.hands[2].chips == 1
    assert view.hands[2].cards is None
    bets(state, (4, 2))
    view = state.public_view()
    assert view.hands[2].state is HandState.REVEALED
    assert view.hands[2].cards == parse_cards("As Kd 7h 2c 3d")
    assert set(view.cards_out) == set(view.hands[2].cards or ()) | set(view.hands[4].cards or ())
    with pytest.raises(IllegalHand, match="already played"):
        state.apply(Bet(2, 1), 1)


BONUS_HANDS = {
    Category.ROYAL_FLUSH: "Ah Kh Qh Jh Th",
    Category.STRAIGHT_FLUSH: "9h 8h 7h 6h 5h",
    Category.FOUR_OF_A_KIND: "9c 9d 9h 9s Kd",
    Category.FULL_HOUSE: "Kc Kd Ks 5c 5d",
    Category.FLUSH: "Ad Jd 8d 6d 3d",
    Category.STRAIGHT: "9c Td Jh Qs Kd",
    Category.THREE_OF_A_KIND: "7c 7d 7h As Kd",
    Category.TWO_PAIR: "Jc Jd 5h 5s Ac",
    Category.ONE_PAIR: "Qc Qd 9s 5h 3h",
    Category.HIGH_CARD: "Ac Kd 9h 7s 5c",
}


@pytest.mark.parametrize("category", list(Category))
def test_the_bonus_duel_pays_the_winners_category(category: Category) -> None:
    state = duel(200, h4=BONUS_HANDS[category], h5=LOSER)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1))
    assert state.bonus_duel
    assert {a.chips for a in state.legal_actions()} == {2}  # no passing
    bets(state, (4, 2), (5, 2))
    result = state.results[-1]
    assert result.values[1].category is category and result.winner == 1
    assert result.bonus == category.multiplier
    assert result.bonus_category is category
    assert result.deltas == (-(2 + category.multiplier), 2 + category.multiplier)
    assert state.stacks == [198 - category.multiplier, 202 + category.multiplier]


def test_a_bonus_bigger_than_the_losers_stack_takes_it_all_and_ends_the_duel() -> None:
    state = duel(10, h4=BONUS_HANDS[Category.ROYAL_FLUSH], h5=LOSER)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1))
    events = state.apply(Bet(4, 2), 1)  # the dealer's last hand is placed by the rules
    result = next(e.result for e in events if isinstance(e, HandsRevealed))
    assert result.bonus == 8 and state.stacks == [0, 20]
    assert state.is_over and state.winner == 1 and state.end_reason == "bust"
    assert isinstance(events[-1], DuelOver) and events[-1].stacks == (0, 20)
    assert any(isinstance(e, RoundOver) for e in events)  # the deck is published


def test_a_split_bonus_duel_pays_no_bonus() -> None:
    state = duel(h4="Ac Kc Qd Jd 9h", h5="Ad Kd Qc Jc 9s")
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2))
    result = state.results[-1]
    assert result.outcome is Outcome.SPLIT and result.bonus == 0 and state.stacks == [50, 50]


def test_one_chip_can_only_pass_and_plays_all_in_in_the_bonus_duel() -> None:
    state = duel(2, h4=BONUS_HANDS[Category.ONE_PAIR], h5=LOSER)
    bets(state, (0, 2), (1, 1))  # the opponent (1) wins one: stacks 1 / 3
    assert state.stacks == [1, 3]
    bets(state, (2, 1))
    assert {a.chips for a in state.legal_actions(0)} == {1}
    before = state.to_json()
    with pytest.raises(IllegalBet, match="more than the stack"):
        state.apply(Bet(3, 2), 0)
    assert state.to_json() == before
    bets(state, (3, 1))
    # Bonus duel: the dealer has 1 chip, the opponent's 2 are matched down to 1.
    assert state.legal_actions(1) == [Bet(4, 2), Bet(5, 2)]
    events = bets(state, (4, 2))  # the dealer's only move, all in, is placed at once
    assert BetPlaced(0, 5, 1, 3, forced=True) in events
    result = state.results[-1]
    assert result.stakes == (1, 1) and result.winner == 1 and result.bonus == 0
    assert state.stacks == [0, 4] and state.is_over and state.winner == 1


def test_the_all_in_player_can_still_win_the_bonus() -> None:
    state = duel(2, h4=LOSER, h5=BONUS_HANDS[Category.TWO_PAIR])
    bets(state, (0, 2), (1, 1), (2, 1), (3, 1), (4, 2), (5, 1))
    result = state.results[-1]
    assert result.winner == 0 and result.stakes == (1, 1)
    assert result.bonus == 2 and state.stacks == [4, 0] and state.is_over


def test_illegal_actions_raise_and_change_nothing() -> None:
    state = duel()
    before = state.to_json()
    cases = [
        (Bet(0, 1), 0, NotYourTurn),  # the dealer acts second
        (Bet(6, 1), 1, IllegalHand),
        (Bet(-1, 1), 1, IllegalHand),
        (Bet(0, 3), 1, IllegalBet),
        (Bet(0, 0), 1, IllegalBet),
        (TiebreakAnswer(True), 1, WrongPhase),
        (Bet(0, 1), 2, NotYourTurn),
    ]
    for action, player, error in cases:
        with pytest.raises(error):
            state.apply(action, player)
        assert not state.can_apply(action, player)
        assert state.to_json() == before
    state.apply(Bet(0, 1), 1)
    with pytest.raises(IllegalHand, match="already taken"):
        state.apply(Bet(0, 1), 0)
    with pytest.raises(NotYourTurn):
        state.apply(Bet(1, 1), 1)
    bets(state, (1, 1), (2, 1), (3, 1))
    with pytest.raises(IllegalBet, match="no passing"):
        state.apply(Bet(4, 1), 1)


def test_nothing_after_the_end() -> None:
    state = duel()
    state.apply(Surrender(), 1)
    assert state.is_over and state.winner == 0 and state.end_reason == "surrender"
    assert state.legal_actions() == [] and state.players_to_act == ()
    before = state.to_json()
    for action in (Bet(0, 1), Surrender(), TiebreakAnswer(True)):
        with pytest.raises(DuelFinished):
            state.apply(action, 1)
    assert state.to_json() == before


def test_two_rounds_switch_the_dealer_and_need_a_fresh_deal() -> None:
    state = duel()
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1))
    events = state.apply(Bet(4, 2), 1)
    assert any(isinstance(e, RoundOver) for e in events)
    assert state.needs_deal and state.players_to_act == () and state.current_player is None
    with pytest.raises(WrongPhase):
        state.apply(Bet(0, 1), 1)
    assert state.public_view().proofs[0].salt == SALT.hex()
    state.deal(deck_at({}), SALT)
    assert state.round == 2 and state.dealer == 1 and state.players_to_act == (0,)
    assert state.bullet == 4 and state.bullet_in_round == 1 and not state.bonus_duel


def _level_round(state: DuelState) -> list[object]:
    """Deal and play a round that leaves the stacks level (passes, then a split bonus duel)."""
    state.deal(deck_at({4: "Ac Kc Qd Jd 9h", 5: "Ad Kd Qc Jc 9s"}), SALT)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1))
    first = state.players_to_act[0]
    return list(state.apply(Bet(4, 2), first))  # the dealer's hand 5 is placed for it


def test_level_stacks_after_six_bullets_offer_a_tiebreak_both_must_accept() -> None:
    state = DuelState.new(50, first_dealer=1)
    _level_round(state)
    events = _level_round(state)
    assert isinstance(events[-1], TiebreakOffered)
    assert state.phase is Phase.TIEBREAK_OFFER and state.players_to_act == (0, 1)
    assert state.legal_actions(0) == [TiebreakAnswer(True), TiebreakAnswer(False)]
    state.apply(TiebreakAnswer(True), 0)
    with pytest.raises(NotYourTurn):
        state.apply(TiebreakAnswer(False), 0)
    assert state.players_to_act == (1,)
    state.apply(TiebreakAnswer(True), 1)
    assert state.needs_deal
    state.deal(deck_at({0: BONUS_HANDS[Category.FULL_HOUSE], 3: LOSER}), SALT)
    # The 7th bullet: dealt by round 1's dealer, six hands, a bonus duel.
    assert state.dealer == 1 and state.bullet == 7 and state.bonus_duel
    assert len(state.legal_actions()) == 6
    bets(state, (0, 2), (3, 2))
    assert state.is_over and state.winner == 0 and state.end_reason == "tiebreak"
    assert state.stacks == [59, 41]  # 2 + a full house's 7


def test_a_tied_tiebreak_is_offered_again_and_a_refusal_is_a_draw() -> None:
    state = DuelState.new(50, first_dealer=0)
    _level_round(state)
    _level_round(state)
    state.apply(TiebreakAnswer(True), 1)
    state.apply(TiebreakAnswer(True), 0)
    state.deal(deck_at({4: "Ac Kc Qd Jd 9h", 5: "Ad Kd Qc Jc 9s"}), SALT)
    bets(state, (4, 2), (5, 2))
    assert state.phase is Phase.TIEBREAK_OFFER and state.answers == [None, None]
    events = state.apply(TiebreakAnswer(False), 1)
    assert state.is_over and state.winner is None and state.end_reason == "declined"
    assert isinstance(events[-1], DuelOver) and events[-1].winner is None


def test_the_winner_after_six_bullets_has_more_chips() -> None:
    state = duel(h0="Kc Kd 5h 7s 9c", h1=LOSER)
    bets(state, (0, 2), (1, 2), (2, 1), (3, 1), (4, 2), (5, 2))
    state.deal(deck_at({}), SALT)
    first = state.players_to_act[0]
    for pos in range(4):
        state.apply(Bet(pos, 1), first if pos % 2 == 0 else 1 - first)
    events = state.apply(Bet(4, 2), first)
    assert state.is_over and isinstance(events[-1], DuelOver)
    assert state.winner == (0 if state.stacks[0] > state.stacks[1] else 1)
    assert sum(state.stacks) == 100 and len(state.proofs) == 2


def test_json_round_trip_mid_duel_is_the_same_duel() -> None:
    state = duel(h0="Kc Kd 5h 7s 9c")
    bets(state, (0, 2), (1, 2), (2, 1))
    again = DuelState.from_json(state.to_json())
    assert again == state and again.public_view() == state.public_view()
    assert again.legal_actions() == state.legal_actions()


def test_action_codes_round_trip() -> None:
    for action in (Bet(0, 1), Bet(5, 2), TiebreakAnswer(True), TiebreakAnswer(False),
                   Surrender(), Surrender("timeout")):
        assert parse_action(str(action)) == action
    with pytest.raises(ValueError):
        parse_action("b62")


def test_the_dealers_last_hand_in_a_bonus_duel_is_placed_without_a_tap() -> None:
    state = duel(h4=BONUS_HANDS[Category.FLUSH], h5=LOSER)
    bets(state, (0, 1), (1, 1), (2, 1), (3, 1))
    assert state.players_to_act == (1,) and state.bonus_duel
    events = state.apply(Bet(4, 2), 1)
    placed = [e for e in events if isinstance(e, BetPlaced)]
    assert placed == [BetPlaced(1, 4, 2, 3), BetPlaced(0, 5, 2, 3, forced=True)]
    assert state.results[-1].positions == (5, 4) and state.needs_deal
    assert state.version == 5  # the forced bet is no one's action


def test_a_tiebreak_dealer_still_chooses_among_five_hands() -> None:
    state = DuelState.new(50, first_dealer=0)
    _level_round(state)
    _level_round(state)
    state.apply(TiebreakAnswer(True), 0)
    state.apply(TiebreakAnswer(True), 1)
    state.deal(deck_at({}), SALT)
    events = state.apply(Bet(2, 2), state.opponent)
    assert not any(isinstance(e, BetPlaced) and e.forced for e in events)
    assert state.players_to_act == (state.dealer,) and len(state.legal_actions()) == 5
