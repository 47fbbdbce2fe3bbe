"""The AI duelist (rules.duel.ai): legal moves only, from the public view only (swapping two
hidden cards never changes a move), the same move from the same random source, and each
level doing what it says on crafted deals."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.cards import Card, shuffled_deck
from rules.duel import Action, Bet, DuelState, Phase, TiebreakAnswer, ai
from rules.fairness import new_salt
from tests.rules.duel.helpers import SALT, bets, deck_with

LEVELS = st.sampled_from(ai.LEVELS)


def _reach(seed: int, steps: int, stack: int = 50) -> tuple[DuelState, list[tuple[Card, ...]],
                                                             list[tuple[int, Action]]]:
    """A state reached by `steps` random legal moves; its decks and moves (to replay)."""
    rng = random.Random(seed)
    state = DuelState.new(stack, rng.randrange(2))
    decks: list[tuple[Card, ...]] = []
    played: list[tuple[int, Action]] = []
    while not state.is_over:
        if state.needs_deal:
            decks.append(shuffled_deck(rng))
            state.deal(decks[-1], new_salt(random.Random(len(decks))))
            continue
        if len(played) >= steps:
            break
        player = rng.choice(state.players_to_act)
        action = rng.choice(state.legal_actions(player))
        state.apply(action, player)
        played.append((player, action))
    return state, decks, played


def _replay(state: DuelState, decks: list[tuple[Card, ...]],
            played: list[tuple[int, Action]]) -> DuelState:
    new = DuelState.new(state.start_stack, state.first_dealer)
    moves = iter(played)
    for _ in range(10_000):
        if new.needs_deal:
            n = new.round
            new.deal(decks[n], new_salt(random.Random(n + 1)))
            continue
        step = next(moves, None)
        if step is None:
            break
        new.apply(step[1], step[0])
    return new


def _hidden(state: DuelState) -> list[int]:
    """Deck positions of the cards nobody sees in the deal in play."""
    shown = {5 * p for p in range(6)}
    shown |= {5 * p + k for p in state.revealed for k in range(5)}
    return [i for i in range(52) if i not in shown]


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 14), level=LEVELS,
       stack=st.sampled_from([2, 3, 5, 50]))
def test_every_level_makes_only_legal_moves(seed: int, steps: int, level: ai.Level,
                                            stack: int) -> None:
    state, _, _ = _reach(seed, steps, stack)
    for player in state.players_to_act:
        action = ai.choose(state.public_view(), player, level, random.Random(seed))
        assert action in state.legal_actions(player), (level, action)
        assert state.can_apply(action, player)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 14), level=LEVELS,
       swap=st.integers(0, 10**6))
def test_swapping_two_hidden_cards_never_changes_a_move(seed: int, steps: int,
                                                        level: ai.Level, swap: int) -> None:
    state, decks, played = _reach(seed, steps)
    if state.phase is not Phase.BULLET:
        return
    hidden = _hidden(state)
    pick = random.Random(swap)
    i, j = pick.sample(hidden, 2)
    deck = list(decks[state.round - 1])
    deck[i], deck[j] = deck[j], deck[i]
    other_decks = [*decks[: state.round - 1], tuple(deck), *decks[state.round :]]
    other = _replay(state, other_decks, played)
    # the same view but for the commitment (a hash of the deck: public, and no help)
    assert other.deck != state.deck
    assert replace(other.public_view(), commitment=None) == \
        replace(state.public_view(), commitment=None)
    for player in state.players_to_act:
        mine = ai.choose(state.public_view(), player, level, random.Random(seed))
        theirs = ai.choose(other.public_view(), player, level, random.Random(seed))
        assert mine == theirs


@pytest.mark.parametrize("level", ai.LEVELS)
def test_the_same_random_source_gives_the_same_move(level: ai.Level) -> None:
    for seed in range(8):
        state, _, _ = _reach(seed, seed % 5)
        view = state.public_view()
        for player in state.players_to_act:
            first = ai.choose(view, player, level, random.Random(seed))
            again = ai.choose(view, player, level, random.Random(seed))
            gen = ai.choose(view, player, level, np.random.default_rng(seed))
            gen_again = ai.choose(view, player, level, np.random.default_rng(seed))
            assert first == again and gen == gen_again
        assert state.public_view() == view  # choosing changed nothing


# Hands: #0 Ace up, #1 King up, #2 a Deuce up, #3..#5 middling.
DECK = deck_with("As Kd 7h 2c 3d", "Kh Qs 9c 4d 5d", "2s 3s 4s 5s 6s", "9h 9d 9s Tc Td",
                 "8c Jd 8s 3c 7c", "6c Qd Qh 6h 6d")


def _dealt(first_dealer: int = 0) -> DuelState:
    state = DuelState.new(50, first_dealer)
    state.deal(DECK, SALT)
    return state


def test_easy_plays_the_highest_face_up_card_and_punishes_a_pass() -> None:
    state = _dealt()
    opp = state.opponent
    assert ai.choose(state.public_view(), opp, "easy", random.Random(0)) == Bet(0, 2)
    state.apply(Bet(0, 1), opp)  # a pass
    assert ai.choose(state.public_view(), state.dealer, "easy", random.Random(0)) == Bet(2, 2)
    fresh = _dealt()
    fresh.apply(Bet(0, 2), fresh.opponent)
    assert ai.choose(fresh.public_view(), fresh.dealer, "easy", random.Random(0)) == Bet(1, 2)


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_dealer_always_answers_a_pass_with_a_play(level: ai.Level) -> None:
    state = _dealt()
    state.apply(Bet(3, 1), state.opponent)
    move = ai.choose(state.public_view(), state.dealer, level, random.Random(1))
    assert isinstance(move, Bet) and move.chips == 2  # +1 whatever the cards


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_bonus_duel_takes_the_hand_that_is_known_to_be_better(level: ai.Level) -> None:
    state = _dealt()
    bets(state, (0, 2), (1, 2), (3, 2), (4, 2))  # #2 (a deuce up) and #5 (a six up) remain
    view = state.public_view()
    assert view.bonus_duel
    move = ai.choose(view, state.opponent, level, random.Random(2))
    assert move == Bet(5, 2)  # the higher card up: more pairs, a higher pair


def test_every_level_accepts_a_tiebreak() -> None:
    for seed in range(500):
        rng = random.Random(seed)
        state = DuelState.new(50, 0)
        while not state.is_over and state.phase is not Phase.TIEBREAK_OFFER:
            if state.needs_deal:
                state.deal(shuffled_deck(rng), new_salt(rng))
                continue
            player = state.players_to_act[0]
            state.apply(rng.choice(state.legal_actions(player)), player)
        if state.phase is Phase.TIEBREAK_OFFER:
            for level in ai.LEVELS:
                for p in state.players_to_act:
                    assert ai.choose(state.public_view(), p, level, random.Random(0)) == \
                        TiebreakAnswer(True)
            return
    pytest.fail("no random duel reached a tiebreak offer")


def test_no_move_when_it_is_not_your_turn() -> None:
    state = _dealt()
    with pytest.raises(ValueError):
        ai.choose(state.public_view(), state.dealer, "hard", random.Random(0))
