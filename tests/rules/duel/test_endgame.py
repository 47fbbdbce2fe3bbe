"""The endgame searched whole (rules.duel.endgame), from bullet 2 of round 2 on: its values are
those of a search sample by sample on the same samples (both players best, each choice on what
is public then), blind to hidden cards and the same from the same source; the worth of the end
is the chance to win the duel, a level finish half; the judge, `hard`, the review and the hint
use it there; and `hard` takes the clearly best move of a handful of positions whose values a
search of many more samples pins down."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TypeVar

import numpy as np
import pytest

from rules.duel import Bet, DuelState, PublicView, ai
from rules.duel.endgame import END_CHIP, Endgame, in_endgame, worth_of
from rules.duel.judge import end_worth, judge
from rules.duel.rollout import Floats, GreedyPolicy, Rollout, utility
from tests.rules.duel.test_ai import _hidden, _reach, _replay

T = TypeVar("T")
STEPS = {"bullet 2, first to act": 7, "bullet 2, dealer": 8, "bonus duel": 9}


class _Whole(Rollout):
    """The same tree, sample by sample (`rules.duel.rollout`'s machinery): both players best
    on the mean over the samples that share the public state, the endgame's worth."""

    def __init__(self, view: PublicView, me: int, samples: int,
                 rng: np.random.Generator) -> None:
        super().__init__(view, me, samples, rng)
        self.util = worth_of(view, me)

    def choice(self, player: int, options: Sequence[Callable[[], Floats]],
               moves: Sequence[T], predict: Callable[[GreedyPolicy], T]) -> Floats:
        pick = max if player == self.me else min
        return pick((f() for f in options), key=lambda v: float(v.mean()))


def _positions(kind: str, stack: int, count: int) -> list[tuple[int, DuelState]]:
    """Endgame states of one kind reached by seeded random play, the player to act with a
    choice; with their seeds."""
    found: list[tuple[int, DuelState]] = []
    seed = 0
    while len(found) < count:
        seed += 1
        state, _, _ = _reach(seed, STEPS[kind], stack)
        view = state.public_view()
        if not in_endgame(view):
            continue
        player = view.to_act[0]
        if len(_bets(view, player)) > 1 and _kind(view, player) == kind:
            found.append((seed, state))
    return found


def _bets(view: PublicView, player: int) -> list[Bet]:
    return [a for a in ai.legal_moves(view, player) if isinstance(a, Bet)]


def _kind(view: PublicView, player: int) -> str:
    if view.bonus_duel:
        return "bonus duel"
    return "bullet 2, dealer" if player == view.dealer else "bullet 2, first to act"


@pytest.mark.parametrize("kind", list(STEPS))
@pytest.mark.parametrize("stack", [3, 5, 50])
def test_the_values_are_a_search_sample_by_samples_on_the_same_samples(kind: str,
                                                                       stack: int) -> None:
    for seed, state in _positions(kind, stack, 3):
        view = state.public_view()
        player = view.to_act[0]
        bets = _bets(view, player)
        whole = _Whole(view, player, 4000, np.random.default_rng(seed)).values(bets)
        ours = Endgame(view, player, 4000, np.random.default_rng(seed),
                       worth_of(view, player)).values(bets)
        assert ours == pytest.approx(whole, abs=1e-12), (seed, view.stacks)


def test_values_are_blind_to_hidden_cards_and_the_same_from_the_same_source() -> None:
    for kind in STEPS:
        for seed, state in _positions(kind, 50, 2):
            view = state.public_view()
            player = view.to_act[0]
            bets = _bets(view, player)
            values = judge(view, player, bets, random.Random(seed), endgame_samples=3000)
            assert judge(view, player, bets, random.Random(seed),
                         endgame_samples=3000) == values
            _, decks, played = _reach(seed, STEPS[kind], 50)
            i, j = random.Random(seed).sample(_hidden(state), 2)
            deck = list(decks[state.round - 1])
            deck[i], deck[j] = deck[j], deck[i]
            other = _replay(state, [*decks[: state.round - 1], tuple(deck)], played)
            assert replace(other.public_view(), commitment=None) == \
                replace(view, commitment=None)
            assert judge(other.public_view(), player, bets, random.Random(seed),
                         endgame_samples=3000) == values


def test_the_endgame_starts_at_bullet_2_of_round_2() -> None:
    kinds = [(steps, in_endgame(_reach(1, steps)[0].public_view())) for steps in range(12)]
    assert kinds == [(s, 7 <= s <= 9) for s in range(12)]  # round 2 starts at action 5
    state, _, _ = _reach(1, 3)
    with pytest.raises(ValueError, match="bullet 2"):
        Endgame(state.public_view(), 0, 10, random.Random(0), np.zeros(101))


def test_the_worth_is_the_chance_to_win_a_level_finish_half() -> None:
    _, state = _positions("bonus duel", 50, 1)[0]
    view = state.public_view()
    for me in (0, 1):
        w = worth_of(view, me)
        assert len(w) == 101
        assert w[:50] == pytest.approx([0.0] * 50, abs=1e-6)
        assert w[50] == pytest.approx(0.5) and w[51:] == pytest.approx([1.0] * 50, abs=1e-6)
        assert all(np.diff(w) > 0) and np.diff(w).max() < 0.5 + 2 * END_CHIP
        assert list(end_worth(view, me)) == list(w)
    early, _, _ = _reach(1, 6)
    assert list(end_worth(early.public_view(), 0)) == list(utility(early.public_view(), 0))


def test_hard_takes_the_clearly_best_move() -> None:
    """Positions of each kind from bullet 2 of round 2 on (seeded random play) where a search
    sample by sample on 30,000 other samples finds one move better than every other by more
    than five of its standard errors: `hard`, on its own random source, takes it (three of
    each kind)."""
    for kind in STEPS:
        checked = 0
        for seed, state in _positions(kind, 50, 15):
            view = state.public_view()
            player = view.to_act[0]
            bets = _bets(view, player)
            arrays = _Whole(view, player, 30_000,
                            np.random.default_rng(10**6 + seed)).value_arrays(bets)
            best = max(range(len(bets)), key=lambda k: float(arrays[k].mean()))
            gaps = [arrays[best] - arrays[k] for k in range(len(bets)) if k != best]
            if any(g.mean() <= 5 * g.std() / len(g) ** 0.5 for g in gaps):
                continue
            assert ai.choose(view, player, "hard", random.Random(seed)) == bets[best], \
                (kind, seed, [float(a.mean()) for a in arrays])
            checked += 1
            if checked == 3:
                break
        assert checked == 3, kind
