"""`hard` against an exact reference (issue 22): the bonus duel that ends round 2 with the
stacks within one showdown of level (the first to act at 49, 50 or 51 of 100), where the
duel's winner is whoever wins the showdown, whatever the bonus: P(win the duel) of each pick
is exact from the pair's exact odds (a tie counts as the stacks say; a level finish half).
On a handful of seeded such positions where the two picks differ clearly, `hard` takes the
better one."""

from __future__ import annotations

import random

from rules.cards import shuffled_deck
from rules.duel import Bet, DuelState, Phase, ai
from rules.duel.odds import pair_odds, table_of
from rules.fairness import new_salt

CLEAR = 0.03  # the picks' exact chances differ by more than 3 points


def _exact(state: DuelState) -> dict[Bet, float]:
    """P(the first to act wins the duel) after each pick, exactly."""
    view = state.public_view()
    opp, half = view.opponent, sum(view.stacks) // 2
    table = table_of(view)
    a, b = table.positions
    odds = pair_odds(table, a, b)
    assert odds.exact
    mine = view.stacks[opp]
    assert abs(mine - half) <= 1
    tie = 1.0 if mine > half else 0.5 if mine == half else 0.0
    return {Bet(a, 2): odds.win + odds.tie * tie, Bet(b, 2): odds.lose + odds.tie * tie}


def _bonus_duels(count: int) -> list[DuelState]:
    """Round 2's bonus duels reached by seeded easy-v-random play, stacks near level, the
    two picks clearly apart."""
    found: list[DuelState] = []
    seed = 0
    while len(found) < count:
        seed += 1
        rng = random.Random(seed)
        state = DuelState.new(50, seed % 2)
        levels: tuple[ai.Level, ai.Level] = ("easy", "random")
        while not state.is_over and not (state.round == 2 and state.bonus_duel):
            if state.needs_deal:
                state.deal(shuffled_deck(rng), new_salt(rng))
                continue
            player = state.players_to_act[0]
            if state.phase is Phase.TIEBREAK_OFFER:
                break
            state.apply(ai.choose(state.public_view(), player, levels[player], rng), player)
        view = state.public_view()
        if (state.is_over or view.phase is not Phase.BULLET or not view.bonus_duel
                or view.round != 2 or abs(view.stacks[view.opponent] - 50) > 1
                or view.to_act != (view.opponent,)):
            continue
        first, second = _exact(state).values()
        if abs(first - second) > CLEAR:
            found.append(state)
    return found


def test_hard_takes_the_exactly_better_pick_in_round_2s_bonus_duel() -> None:
    states = _bonus_duels(5)
    for k, state in enumerate(states):
        view = state.public_view()
        values = _exact(state)
        best = max(values, key=lambda b: values[b])
        assert ai.choose(view, view.opponent, "hard", random.Random(k)) == best, values
