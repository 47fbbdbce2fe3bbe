"""How long the duel's odds and the AI's decisions take (prints figures, asserts nothing).

    python bench/odds.py [--states 300] [--deals 30]

- all pairwise odds of a fresh deal (15 pairs, one joint sample of `DEFAULT_SAMPLES`), the
  exact odds of a bonus duel's two hands, and the six hands' exact category distributions;
- a `normal` and a `hard` decision: median and p95 over random reachable states (states met
  in seeded duels between two `normal` players, every decision of them, each timed alone).
Run on one core: numpy's threads are pinned to one.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.cards import shuffled_deck
from rules.duel import DuelState, Phase, PublicView, choose_first_dealer
from rules.duel import odds as od
from rules.duel.ai import Level, choose, legal_moves
from rules.duel.selfplay import play_out
from rules.fairness import new_salt


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return (f"median {statistics.median(xs) * 1e3:7.2f} ms  p95 {p95 * 1e3:7.2f} ms  "
            f"max {xs[-1] * 1e3:7.2f} ms  (n={len(xs)})")


def fresh_views(n: int) -> list[PublicView]:
    views = []
    for k in range(n):
        rng = random.Random(k)
        state = DuelState.new(50, 0)
        state.deal(shuffled_deck(rng), new_salt(rng))
        views.append(state.public_view())
    return views


def decision_states(count: int) -> list[tuple[PublicView, int]]:
    """Views met in seeded normal-v-normal duels where a real choice is to be made."""
    out: list[tuple[PublicView, int]] = []
    k = 0
    while len(out) < count:
        deal_rng, ai_rng = random.Random(k), random.Random(-k - 1)
        k += 1
        state = DuelState.new(50, choose_first_dealer(deal_rng))

        def watch(_: DuelState, view: PublicView, player: int) -> None:
            if view.phase is Phase.BULLET and len(legal_moves(view, player)) > 1:
                out.append((view, player))

        play_out(state, deal_rng, lambda view, p, rng=ai_rng: choose(view, p, "normal", rng),
                 max_tiebreaks=2, watch=watch)
    del out[count:]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=300)
    ap.add_argument("--deals", type=int, default=30)
    args = ap.parse_args()

    views = fresh_views(args.deals)
    od.category_odds(od.table_of(views[0]))  # build the tables and combinations once
    od.all_pair_odds(od.table_of(views[0]), random.Random(0))
    pairs, cats = [], []
    for k, view in enumerate(views):
        table = od.table_of(view)
        t0 = time.perf_counter()
        od.all_pair_odds(table, random.Random(k))
        pairs.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        od.category_odds(table)
        cats.append(time.perf_counter() - t0)
    print(f"all 15 pairwise odds of a fresh deal ({od.DEFAULT_SAMPLES} joint samples, "
          f"95% error <= {1.96 * 0.5 / od.DEFAULT_SAMPLES ** 0.5:.4f}):")
    print("    " + _ms(pairs))
    bonus = []
    for k in range(min(10, args.deals)):
        rng = random.Random(k)
        state = DuelState.new(50, 0)
        state.deal(shuffled_deck(rng), new_salt(rng))
        while not state.bonus_duel:
            player = state.players_to_act[0]
            state.apply(rng.choice(state.legal_actions(player)), player)
        table = od.table_of(state.public_view())
        t0 = time.perf_counter()
        assert od.pair_odds(table, *table.positions).exact
        bonus.append(time.perf_counter() - t0)
    print("the exact odds of a bonus duel's two hands (30 unseen cards, inclusion-exclusion):")
    print("    " + _ms(bonus))
    print("six hands' exact category distributions of a fresh deal (6 x 163,185 completions):")
    print("    " + _ms(cats))

    states = decision_states(args.states)
    for level in ("normal", "hard"):
        lv: Level = level  # type: ignore[assignment]
        times = []
        for k, (view, player) in enumerate(states):
            t0 = time.perf_counter()
            choose(view, player, lv, random.Random(k))
            times.append(time.perf_counter() - t0)
        print(f"a {level} decision over {len(states)} states from seeded duels:")
        print("    " + _ms(times))


if __name__ == "__main__":
    main()
