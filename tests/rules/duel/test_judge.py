"""One judge (issue 22): `hard` plays the move the review calls best, given the same random
source; in a review `hard`'s own moves score as best up to sampling noise, clearly better
than `easy`'s; `best_moves` orders by value, the earlier of equal ones first."""

from __future__ import annotations

import random

from rules.duel import Bet, DuelState, Phase, PublicView, ai
from rules.duel.judge import best_index, best_moves
from rules.duel.review import move_values, review
from rules.duel.selfplay import play_out


def _positions(seed: int, count: int) -> list[tuple[PublicView, int]]:
    """Views of a seeded normal-v-easy duel where the player to act has a choice."""
    found: list[tuple[PublicView, int]] = []
    ai_rng = random.Random(seed)

    def watch(state: DuelState, view: PublicView, player: int) -> None:
        bets = [a for a in state.legal_actions(player) if isinstance(a, Bet)]
        if view.phase is Phase.BULLET and len(bets) > 1:
            found.append((view, player))

    levels: tuple[ai.Level, ai.Level] = ("normal", "easy")
    play_out(DuelState.new(50, seed % 2), random.Random(seed),
             lambda v, p: ai.choose(v, p, levels[p], ai_rng), watch=watch)
    return found[:count]


def test_hard_plays_the_move_the_review_calls_best() -> None:
    checked = 0
    for seed in (1, 2):
        for k, (view, player) in enumerate(_positions(seed, 5)):
            values = move_values(view, player, random.Random(k))
            best = max(values, key=lambda b: values[b])
            assert ai.choose(view, player, "hard", random.Random(k)) == best
            checked += 1
    assert checked == 10


def test_hard_scores_as_best_up_to_noise_in_its_own_review() -> None:
    hard = easy = 0.0
    for seed in (3, 4, 5):
        deals, ai_rng = random.Random(seed), random.Random(-seed)
        levels: tuple[ai.Level, ai.Level] = ("hard", "easy")
        state = play_out(DuelState.new(50, seed % 2), deals,
                         lambda v, p, lv=levels, r=ai_rng: ai.choose(v, p, lv[p], r))
        result = review(state, random.Random(seed))
        hard += result.players[0].accuracy / 3
        easy += result.players[1].accuracy / 3
    assert hard >= 97.0 and hard > easy + 1.0, (hard, easy)
    # was 86 in the demo when the review judged by the expectimax


def test_best_moves_orders_by_value_then_by_order() -> None:
    bets = [Bet(0, 1), Bet(0, 2), Bet(3, 1), Bet(3, 2)]
    values = [0.4, 0.6, 0.6, 0.1]
    assert best_moves(bets, values, 3) == [(Bet(0, 2), 0.6), (Bet(3, 1), 0.6), (Bet(0, 1), 0.4)]
    assert best_moves(bets, values, 9)[-1] == (Bet(3, 2), 0.1)
    assert best_index(values) == 1
