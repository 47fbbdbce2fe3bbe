"""The post-duel review (rules.duel.review): a player who always takes the move the review
calls best scores at least as well as a random player on the same deals; losses are never
negative and a best move loses nothing; the worst mistake is the largest loss; values at a
decision never depend on a card hidden then; the JSON form round-trips; the same seed gives
the same review; surrenders, timeouts, forced moves and tiebreak answers are handled."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rules.cards import Card, shuffled_deck
from rules.duel import Bet, DuelState, Surrender, TiebreakAnswer, ai
from rules.duel.review import (
    Mistake,
    PlayerReview,
    Review,
    accuracy_of,
    move_values,
    position_rng,
    review,
)
from rules.duel.selfplay import play_out
from rules.fairness import new_salt

Chooser = Callable[[DuelState, int], Bet]


def _play(seed: int, choosers: tuple[Chooser, Chooser], *, forced_moves: bool = True,
          max_bets: int = 1000) -> DuelState:
    """A duel on seeded deals: each player's bets from its chooser, tiebreaks accepted."""
    state = DuelState(50, seed % 2, forced_moves=forced_moves)
    return play_out(state, random.Random(seed), lambda _, p: choosers[p](state, p),
                    max_moves=max_bets)


def _ai(level: ai.Level, seed: int) -> Chooser:
    rng = random.Random(seed)

    def chooser(state: DuelState, player: int) -> Bet:
        move = ai.choose(state.public_view(), player, level, rng)
        assert isinstance(move, Bet)
        return move

    return chooser


def _follower(review_seed: int) -> Chooser:
    """Always the move the review of this duel (with `review_seed`) will call best."""
    base = random.Random(review_seed).getrandbits(64)

    def chooser(state: DuelState, player: int) -> Bet:
        values = move_values(state.public_view(), player,
                             position_rng(base, state.version, player))
        return max(values, key=lambda b: values[b])

    return chooser


def _decisions(state: DuelState) -> dict[int, int]:
    """Per player, their bets that had more than one legal bet (counted from the state)."""
    count = {0: 0, 1: 0}
    for v in range(state.version):
        player, action = state.move_at(v)
        legal = [a for a in state.at(v).legal_actions(player) if isinstance(a, Bet)]
        if isinstance(action, Bet) and len(legal) > 1:
            count[player] += 1
    return count


def test_the_best_move_follower_is_at_least_as_accurate_as_a_random_player() -> None:
    for seed in (1, 2, 3):
        best = _play(seed, (_follower(seed), _ai("easy", seed)))
        rand = _play(seed, (_ai("random", seed), _ai("easy", seed)))
        best_review = review(best, random.Random(seed))
        rand_review = review(rand, random.Random(seed))
        assert best_review.players[0].decisions > 0
        assert best_review.players[0].accuracy == 100.0
        assert best_review.players[0].worst is None
        assert best_review.players[0].accuracy >= rand_review.players[0].accuracy


def test_random_players_score_lower_than_the_hard_ai_on_average() -> None:
    rand = [review(_play(s, (_ai("random", s), _ai("hard", s))), random.Random(s))
            for s in range(6)]
    assert sum(r.players[0].accuracy for r in rand) < sum(r.players[1].accuracy for r in rand)


def test_losses_are_never_negative_and_the_worst_mistake_is_the_largest_loss() -> None:
    for seed in (4, 5, 6):
        state = _play(seed, (_ai("random", seed), _ai("easy", seed)))
        result = review(state, random.Random(seed))
        base = random.Random(seed).getrandbits(64)
        losses: dict[int, list[tuple[float, Mistake]]] = {0: [], 1: []}
        for v in range(state.version):
            player, action = state.move_at(v)
            values = move_values(state.at(v).public_view(), player, position_rng(base, v, player))
            if not isinstance(action, Bet) or len(values) < 2:
                continue
            top = max(values.values())
            best = next(b for b in values if values[b] == top)
            assert values[best] - top == 0.0  # the best move loses exactly nothing
            loss = top - values[action]
            assert loss >= 0.0
            losses[player].append((loss, Mistake(state.at(v).bullet, action, best, loss)))
        for p in (0, 1):
            assert result.players[p].decisions == len(losses[p])
            largest = max((loss for loss, _ in losses[p]), default=0.0)
            worst = result.players[p].worst
            if largest == 0.0:
                assert worst is None
            else:
                assert worst == next(m for loss, m in losses[p] if loss == largest)
                assert 0.0 < worst.loss <= 1.0
            mean = sum(loss for loss, _ in losses[p]) / max(1, len(losses[p]))
            assert result.players[p].accuracy == pytest.approx(accuracy_of(mean))
            assert 0.0 <= result.players[p].accuracy <= 100.0


def test_the_two_lucks_are_opposite_and_in_range() -> None:
    for seed in (7, 8):
        result = review(_play(seed, (_ai("easy", seed), _ai("hard", seed))), random.Random(seed))
        a, b = result.players
        assert a.luck == pytest.approx(-b.luck)
        assert -1.0 <= a.luck <= 1.0


def _hidden(state: DuelState) -> list[int]:
    """Deck positions of the cards nobody sees now in the deal in play."""
    shown = {5 * p for p in range(6)}
    shown |= {5 * p + k for p in state.revealed for k in range(5)}
    return [i for i in range(52) if i not in shown]


def _with_deck(seed: int, steps: int, swap: tuple[int, int] | None) -> DuelState:
    """Random bets for `steps` actions on seed's first deck, two of its cards swapped."""
    rng = random.Random(seed)
    deck: list[Card] = list(shuffled_deck(rng))
    if swap is not None:
        i, j = swap
        deck[i], deck[j] = deck[j], deck[i]
    state = DuelState.new(50, seed % 2)
    state.deal(tuple(deck), new_salt(random.Random(0)))
    for _ in range(steps):
        player = state.players_to_act[0]
        state.apply(rng.choice(state.legal_actions(player)), player)
    return state


@pytest.mark.parametrize(("seed", "steps"), [(10, 0), (11, 1), (12, 2), (13, 3), (14, 4),
                                             (15, 3)])
def test_values_at_a_decision_never_read_a_card_hidden_then(seed: int, steps: int) -> None:
    state = _with_deck(seed, steps, None)
    i, j = random.Random(seed).sample(_hidden(state), 2)
    other = _with_deck(seed, steps, (i, j))
    assert other.deck != state.deck
    player = state.players_to_act[0]
    mine = move_values(state.public_view(), player, random.Random(seed))
    theirs = move_values(other.public_view(), player, random.Random(seed))
    assert mine and mine == theirs


def test_the_same_seed_gives_the_same_review_and_json_round_trips() -> None:
    state = _play(20, (_ai("random", 20), _ai("hard", 20)))
    first = review(state, random.Random(3))
    again = review(DuelState.from_json(state.to_json()), random.Random(3))
    assert first == again
    assert Review.from_json(first.to_json()) == first
    assert Review.from_json(first.to_json()).to_json() == first.to_json()
    made = Review((PlayerReview(0, 100.0, 0.0, None),
                   PlayerReview(3, 61.25, -0.1234567890123, Mistake(7, Bet(5, 2), Bet(0, 1),
                                                                    1 / 3))))
    assert Review.from_json(made.to_json()) == made


@pytest.mark.parametrize("reason", ["surrender", "timeout"])
def test_a_duel_ended_by_surrender_or_timeout(reason: str) -> None:
    state = _play(30, (_ai("easy", 30), _ai("random", 30)), max_bets=4)
    loser = state.players_to_act[0]
    state.apply(Surrender(reason), loser)
    assert state.is_over and state.end_reason == reason
    result = review(state, random.Random(0))
    expected = _decisions(state)
    assert [p.decisions for p in result.players] == [expected[0], expected[1]]
    assert sum(expected.values()) > 0
    early = DuelState.new(50, 0)
    early.apply(Surrender(reason), 1)  # before any deal
    assert review(early, random.Random(0)) == Review((PlayerReview(0, 100.0, 0.0, None),) * 2)


@pytest.mark.parametrize("forced_moves", [True, False])
def test_forced_moves_are_not_decisions(forced_moves: bool) -> None:
    state = _play(40, (_ai("easy", 40), _ai("easy", 41)), forced_moves=forced_moves)
    bets = sum(isinstance(state.move_at(v)[1], Bet) for v in range(state.version))
    result = review(state, random.Random(0))
    expected = _decisions(state)
    assert [p.decisions for p in result.players] == [expected[0], expected[1]]
    bullets = len(state.results)
    # each bonus duel's dealer had one hand and one stake: no decision (logged in format 1)
    bonus = sum(r.bonus_duel for r in state.results)
    assert sum(expected.values()) == 2 * bullets - bonus
    assert bets == (2 * bullets if not forced_moves else 2 * bullets - bonus)


def test_a_tiebreak_answer_is_not_a_decision() -> None:
    for seed in range(300):
        state = _play(seed, (_ai("random", seed), _ai("random", seed + 1)))
        if any(r.number > 6 for r in state.results):
            break
    else:
        pytest.fail("no seeded random duel reached a tiebreak")
    answers = sum(isinstance(state.move_at(v)[1], TiebreakAnswer) for v in range(state.version))
    assert answers >= 2
    result = review(state, random.Random(0))
    expected = _decisions(state)
    assert [p.decisions for p in result.players] == [expected[0], expected[1]]
