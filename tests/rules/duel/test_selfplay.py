"""The self-play loop: the same deals from the same seed whoever plays, every tiebreak offer
accepted, each state seen before its move, and its limits."""

from __future__ import annotations

import random

from rules.duel import DuelState, Phase, PublicView
from rules.duel.actions import Action, TiebreakAnswer
from rules.duel.ai import choose, legal_moves
from rules.duel.selfplay import play_out


def _first_legal(view: PublicView, player: int) -> Action:
    return legal_moves(view, player)[0]


def test_the_same_seed_deals_the_same_cards_whoever_plays() -> None:
    a = play_out(DuelState.new(50, 0), random.Random(5), _first_legal)
    rng = random.Random(1)
    b = play_out(DuelState.new(50, 0), random.Random(5),
                 lambda view, p: choose(view, p, "random", rng))
    assert a.is_over and b.is_over
    assert a.public_view().proofs[0].commitment == b.public_view().proofs[0].commitment
    assert sum(a.stacks) == sum(b.stacks) == 100


def test_every_move_is_watched_and_tiebreaks_are_accepted() -> None:
    seen: list[tuple[int, Phase]] = []
    state = play_out(DuelState.new(50, 1), random.Random(4), _first_legal,
                     watch=lambda s, view, p: seen.append((s.version, view.phase)))
    assert [v for v, _ in seen] == sorted({v for v, _ in seen})  # once each, in order
    assert state.is_over and len(seen) == state.version  # a version per move
    offers = [v for v, phase in seen if phase is Phase.TIEBREAK_OFFER]
    assert len(offers) == 2  # this seed's duel ends level: one offer per player answered
    for v in offers:
        assert state.move_at(v)[1] == TiebreakAnswer(True)


def test_the_limits_stop_the_duel() -> None:
    state = play_out(DuelState.new(50, 0), random.Random(3), _first_legal, max_moves=3)
    assert not state.is_over and state.version == 3
