"""The rollouts behind `hard` (rules.duel.rollout): a value for every legal bet, from the public
view only (swapping two hidden cards never changes a value), the same values from the same
random source, a utility that is P(win the duel) (busts lost/won, more chips never worse), and
the greedy model of the other player making `easy`'s moves."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.duel import Bet, DuelState, Phase, ai
from rules.duel.rollout import GreedyPolicy, Rollout, utility
from rules.duel.search import CHIP_WEIGHT
from tests.rules.duel.test_ai import _dealt, _hidden, _reach, _replay


def _bets(state: DuelState, player: int) -> list[Bet]:
    return [a for a in ai.legal_moves(state.public_view(), player) if isinstance(a, Bet)]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 14),
       stack=st.sampled_from([2, 3, 5, 50]), swap=st.integers(0, 10**6))
def test_values_are_finite_per_legal_bet_and_blind_to_hidden_cards(seed: int, steps: int,
                                                                   stack: int,
                                                                   swap: int) -> None:
    state, decks, played = _reach(seed, steps, stack)
    if state.phase is not Phase.BULLET:
        return
    player = state.players_to_act[0]
    bets = _bets(state, player)
    values = Rollout(state.public_view(), player, 500, random.Random(seed)).values(bets)
    assert len(values) == len(bets)
    slack = CHIP_WEIGHT * 2 * stack  # P(win), and the chip tie-break
    assert all(-slack <= v <= 1.0 + slack for v in values)
    hidden = _hidden(state)
    i, j = random.Random(swap).sample(hidden, 2)
    deck = list(decks[state.round - 1])
    deck[i], deck[j] = deck[j], deck[i]
    other = _replay(state, [*decks[: state.round - 1], tuple(deck), *decks[state.round :]],
                    played)
    assert replace(other.public_view(), commitment=None) == \
        replace(state.public_view(), commitment=None)
    again = Rollout(other.public_view(), player, 500, random.Random(seed)).values(bets)
    assert again == values


def test_the_same_source_gives_the_same_values() -> None:
    for seed in range(4):
        state, _, _ = _reach(seed, seed * 2)
        if state.phase is not Phase.BULLET:
            continue
        view, player = state.public_view(), state.players_to_act[0]
        bets = _bets(state, player)
        for make in (random.Random, np.random.default_rng):
            first = Rollout(view, player, 300, make(seed)).values(bets)
            assert Rollout(view, player, 300, make(seed)).values(bets) == first


@pytest.mark.parametrize("round_two", [False, True])
def test_the_utility_is_the_chance_of_winning_the_duel(round_two: bool) -> None:
    state, _, _ = _reach(3, 9 if round_two else 0)
    view = state.public_view()
    assert view.phase is Phase.BULLET and (view.round == 2) == round_two
    for me in (0, 1):
        u = utility(view, me)
        assert len(u) == 2 * view.start_stack + 1
        assert u[0] == pytest.approx(-CHIP_WEIGHT * view.start_stack)  # busted: lost
        assert u[-1] == pytest.approx(1.0 + CHIP_WEIGHT * view.start_stack)  # the other busted
        assert all(np.diff(u) > 0)  # a chip more is never worse


def test_the_greedy_model_makes_easys_moves() -> None:
    state = _dealt()
    view = state.public_view()
    ranks = [int(h.face_up.rank) for h in view.hands]
    model = GreedyPolicy(ranks)
    hands = list(range(6))
    easy = ai.choose(view, state.opponent, "easy", random.Random(0))
    assert isinstance(easy, Bet) and model.opp(hands, True) == (easy.position, easy.chips)
    for pass_or_play in (1, 2):
        fresh = _dealt()
        fresh.apply(Bet(0, pass_or_play), fresh.opponent)
        answer = ai.choose(fresh.public_view(), fresh.dealer, "easy", random.Random(0))
        assert isinstance(answer, Bet)
        assert model.dealer(hands, 0, pass_or_play, True) == (answer.position, answer.chips)
